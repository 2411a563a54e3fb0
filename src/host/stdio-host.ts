/**
 * `mcpx serve`: one host on stdin/stdout. Logs go to stderr; stdout carries only protocol.
 * When stdin ends the host is gone: its calls are cancelled and the gateway shuts down.
 */
import type { Arrival, Channel } from "../rpc/channel.js";
import { LineReader } from "../rpc/line-reader.js";
import { Peer } from "../rpc/peer.js";
import { classify, ErrorCode, errorResponse, isRequest, isResponse, parseFrame, type JsonRpcMessage, type RequestId } from "../protocol/jsonrpc.js";
import { defines } from "../protocol/revisions.js";
import type { Gateway } from "./gateway.js";
import { HostSession } from "./session.js";
import { serveRequest } from "./modern/serve.js";
import { hostNotification } from "./host-notifications.js";
import { backedUp, droppable, DropCounter, type Backlogged } from "./output-pressure.js";
import type { Pressure } from "../rpc/pressure.js";
import { silentLogger, type Logger } from "../util/log.js";

/** A JSON-RPC batch being answered: its answers go out together, as one array. */
interface Batch {
  waiting: Set<RequestId>;
  answers: JsonRpcMessage[];
}

export class StdioServerChannel implements Channel {
  onmessage?: (message: JsonRpcMessage, arrival: Arrival) => void;
  onclose?: (reason?: Error) => void;
  #closed = false;
  readonly #batches = new Map<RequestId, Batch>();

  readonly #drops: DropCounter;

  constructor(
    private readonly input: NodeJS.ReadableStream,
    private readonly output: NodeJS.WritableStream,
    private readonly maxMessageBytes: number,
    /** Batches exist only in some revisions (2025-03-26); asked when one arrives. */
    private readonly acceptsBatches: () => boolean = () => false,
    /** Blocked while the host is not reading what mcpx must not drop; the upstreams then wait. */
    private readonly pressure?: Pressure,
    private readonly log: Logger = silentLogger,
  ) {
    this.#drops = new DropCounter(log, "stdout");
  }

  async start(): Promise<void> {
    const lines = new LineReader(this.maxMessageBytes, {
      line: (text) => {
        if (text.trimStart().startsWith("[")) return this.#batch(text);
        const parsed = parseFrame(text);
        if (parsed.ok) this.onmessage?.(parsed.message, {});
        else void this.send(errorResponse(parsed.id, parsed.error));
      },
      oversized: ({ bytes, ended }) =>
        ended &&
        void this.send(
          errorResponse(null, {
            code: ErrorCode.InvalidRequest,
            message: `Message of ${bytes} bytes exceeds the ${this.maxMessageBytes}-byte limit; it was dropped`,
          }),
        ),
    });
    this.input.on("data", (chunk: Buffer) => lines.push(chunk));
    this.input.once("end", () => this.#end());
    this.input.once("close", () => this.#end());
  }

  send(message: JsonRpcMessage): Promise<void> {
    if (this.#closed) return Promise.resolve();
    const id = isResponse(message) ? message.id : undefined;
    const batch = id === undefined || id === null ? undefined : this.#batches.get(id);
    if (batch && id !== undefined && id !== null) {
      this.#batches.delete(id);
      batch.waiting.delete(id);
      batch.answers.push(message);
      return batch.waiting.size === 0 ? this.#write(batch.answers) : Promise.resolve();
    }
    return this.#write(message);
  }

  #write(value: JsonRpcMessage | JsonRpcMessage[]): Promise<void> {
    const output = this.output as NodeJS.WritableStream & Partial<Backlogged>;
    const backlog = output.writableLength === undefined ? undefined : (output as Backlogged);
    const optional = droppable(value);
    if (backlog && optional && backedUp(backlog)) {
      this.#drops.drop(backlog);
      return Promise.resolve();
    }
    const written = new Promise<void>((resolve) => {
      output.write(`${JSON.stringify(value)}\n`, () => resolve());
    });
    if (backlog && !optional && this.pressure && !this.pressure.blocked && backedUp(backlog) && backlog.writableNeedDrain) {
      // Kept, but the host is behind: read no more from upstreams until it has caught up.
      const pressure = this.pressure;
      pressure.set(true);
      this.log.info("the host is not reading its output; upstreams are not read until it catches up", { backlogBytes: backlog.writableLength });
      const release = (): void => {
        backlog.off("drain", release);
        backlog.off("close", release);
        pressure.set(false);
      };
      backlog.once("drain", release);
      backlog.once("close", release);
    }
    return written;
  }

  /** A line holding an array: answered as one array when the revision has batches, else refused. */
  #batch(text: string): void {
    let items: unknown;
    try {
      items = JSON.parse(text);
    } catch (error) {
      void this.send(errorResponse(null, { code: ErrorCode.ParseError, message: `Parse error: ${(error as Error).message}` }));
      return;
    }
    if (!Array.isArray(items) || items.length === 0 || !this.acceptsBatches()) {
      const why = Array.isArray(items) && items.length === 0 ? "an empty batch" : "JSON-RPC batches are not part of this connection's protocol revision";
      void this.send(errorResponse(null, { code: ErrorCode.InvalidRequest, message: `Invalid Request: ${why}` }));
      return;
    }
    const batch: Batch = { waiting: new Set(), answers: [] };
    const messages: JsonRpcMessage[] = [];
    for (const item of items) {
      const parsed = classify(item);
      if (!parsed.ok) batch.answers.push(errorResponse(parsed.id, parsed.error));
      else {
        messages.push(parsed.message);
        if (isRequest(parsed.message)) {
          batch.waiting.add(parsed.message.id);
          this.#batches.set(parsed.message.id, batch);
        }
      }
    }
    // Notifications alone get no answer; invalid members are answered at once.
    if (batch.waiting.size === 0 && batch.answers.length > 0) void this.#write(batch.answers);
    for (const message of messages) this.onmessage?.(message, {});
  }

  async close(): Promise<void> {
    this.#end();
  }

  #end(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.onclose?.();
  }
}

/** Serve one host over the given streams; resolves when the host has gone. */
export async function serveStdio(
  gateway: Gateway,
  input: NodeJS.ReadableStream = process.stdin,
  output: NodeJS.WritableStream = process.stdout,
  /** The profile (config `profiles`) the host sees; undefined: every tool. */
  profile?: string,
): Promise<void> {
  let session: HostSession | undefined;
  const channel = new StdioServerChannel(
    input,
    output,
    gateway.config.limits.maxMessageBytes,
    () => (session?.revision ? defines(session.revision, "jsonRpcBatch") : false),
    gateway.hostPressure,
    gateway.log.child({ host: "stdio" }),
  );
  const peer = new Peer(
    channel,
    {
      request: (context) => serveRequest(gateway, session!, context),
      notification: (notification) => hostNotification(gateway, session!, notification),
    },
    gateway.log.child({ host: "stdio" }),
    "mcpx-",
  );
  // Unique across processes: questions in the shared store name the session that caused them.
  session = new HostSession(peer, "stdio", `stdio-${process.pid}`);
  session.profileName = profile;
  gateway.addSession(session, true);
  const gone = new Promise<void>((resolve) => {
    peer.onclose = () => resolve();
  });
  void gateway.start();
  await peer.start();
  await gone;
  await gateway.closeSession(session);
}

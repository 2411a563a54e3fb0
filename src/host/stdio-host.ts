/**
 * `mcpx serve`: one host on stdin/stdout. Logs go to stderr; stdout carries only protocol.
 * When stdin ends the host is gone: its calls are cancelled and the gateway shuts down.
 */
import type { Arrival, Channel } from "../rpc/channel.js";
import { LineReader } from "../rpc/line-reader.js";
import { Peer } from "../rpc/peer.js";
import { ErrorCode, errorResponse, parseFrame, type JsonRpcMessage } from "../protocol/jsonrpc.js";
import type { Gateway } from "./gateway.js";
import { HostSession } from "./session.js";
import { dispatch } from "./dispatch.js";
import { hostNotification } from "./host-notifications.js";

export class StdioServerChannel implements Channel {
  onmessage?: (message: JsonRpcMessage, arrival: Arrival) => void;
  onclose?: (reason?: Error) => void;
  #closed = false;

  constructor(
    private readonly input: NodeJS.ReadableStream,
    private readonly output: NodeJS.WritableStream,
    private readonly maxMessageBytes: number,
  ) {}

  async start(): Promise<void> {
    const lines = new LineReader(this.maxMessageBytes, {
      line: (text) => {
        const parsed = parseFrame(text);
        if (parsed.ok) this.onmessage?.(parsed.message, {});
        else void this.send(errorResponse(parsed.id, parsed.error));
      },
      oversized: (bytes) =>
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
    return new Promise((resolve) => {
      this.output.write(JSON.stringify(message) + "\n", () => resolve());
    });
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
): Promise<void> {
  const channel = new StdioServerChannel(input, output, gateway.config.limits.maxMessageBytes);
  let session: HostSession | undefined;
  const peer = new Peer(
    channel,
    {
      request: (context) => dispatch(gateway, session!, context),
      notification: (notification) => hostNotification(gateway, session!, notification),
    },
    gateway.log.child({ host: "stdio" }),
    "mcpx-",
  );
  session = new HostSession(peer, "stdio", "stdio");
  gateway.addSession(session);
  const gone = new Promise<void>((resolve) => {
    peer.onclose = () => resolve();
  });
  void gateway.start();
  await peer.start();
  await gone;
  await gateway.closeSession(session);
}

/**
 * The channel of one host session over Streamable HTTP.
 *
 * Each POST that carries requests stays open until they are all answered. A host that accepts
 * `text/event-stream` gets that POST's response as an SSE stream from the start, as the SDK's
 * server does by default: everything that belongs to one of its requests (progress, logs,
 * questions for the host) travels on it before the answer. A host that accepts only
 * `application/json` gets the answers as one JSON body, and nothing before them. Everything
 * else goes on the session's GET stream when the host has one open.
 */
import type { ServerResponse } from "node:http";
import type { Arrival, Channel, Route } from "../rpc/channel.js";
import { ErrorCode, errorResponse, isResponse, type JsonRpcErrorObject, type JsonRpcMessage, type RequestId } from "../protocol/jsonrpc.js";
import { formatSse, primingSse } from "../util/sse.js";
import type { Logger } from "../util/log.js";
import { defines, type Revision } from "../protocol/revisions.js";
import { admitToStream, backedUp, DropCounter } from "./output-pressure.js";

/**
 * What a POST's `Accept` allows for its answer. `sse` left out means SSE is allowed (the HTTP
 * host refuses a POST that allows neither). With SSE allowed the answer is always a stream,
 * whatever `json` says; `json` matters only when `sse` is false.
 */
export interface AnswerFraming {
  json: boolean;
  sse?: boolean;
  /**
   * The HTTP status of a POST whose only answer is this error, sent before anything else
   * (2026-07-28 gives some errors their own status); undefined keeps 200.
   */
  errorStatus?: (error: JsonRpcErrorObject) => number | undefined;
  /**
   * The event the stream opens with, asked when it opens (the session's revision may be known
   * only by then): the SEP-1699 priming event, for hosts whose revision has it.
   */
  priming?: () => string | undefined;
}

/** One POST and the requests it is still answering. */
export class Exchange {
  readonly waiting = new Set<RequestId>();
  /** A JSON-only POST's answers, held until the last one (then sent as one body). */
  readonly #held: JsonRpcMessage[] = [];
  #streaming = false;
  #ended = false;

  constructor(
    readonly response: ServerResponse,
    private readonly headers: Record<string, string>,
    private readonly framing: AnswerFraming = { json: true },
  ) {}

  get ended(): boolean {
    return this.#ended || this.response.destroyed;
  }

  /** Whether messages other than its answers (progress, logs, questions) can travel on it. */
  get streams(): boolean {
    return this.framing.sse !== false;
  }

  /** Send a message on this POST. On a JSON-only POST only its answers can go; the rest is refused (false). */
  write(message: JsonRpcMessage): boolean {
    if (this.ended) return false;
    const answers = isResponse(message) && message.id !== null && message.id !== undefined && this.waiting.has(message.id);
    if (answers) this.waiting.delete(message.id as RequestId);
    const last = answers && this.waiting.size === 0;
    const status = last && !this.#streaming && this.#held.length === 0 && "error" in message ? this.framing.errorStatus?.(message.error) : undefined;
    if (status !== undefined && !this.response.headersSent) {
      this.#ended = true;
      this.response.writeHead(status, { ...this.headers, "content-type": "application/json" });
      this.response.end(JSON.stringify(message));
      return true;
    }
    if (!this.streams) {
      if (!answers) return false;
      this.#held.push(message);
      if (last) this.end();
      return true;
    }
    const event = formatSse(JSON.stringify(message), { event: "message" });
    if (!this.#streaming && last) {
      // A lone answer: the whole stream (headers, its one event, its end) in one write. Its
      // length is known, so it goes without chunked framing: one plain write, not a writev of five.
      this.#ended = true;
      const body = this.#priming() + event;
      this.#startStream(Buffer.byteLength(body));
      this.response.end(body);
      return true;
    }
    let opening = "";
    if (!this.#streaming) {
      this.#startStream();
      opening = this.#priming();
    }
    this.response.write(opening + event);
    if (last) this.end();
    return true;
  }

  /** One of its requests will get no answer (the host cancelled it): end the POST if it was the last. */
  drop(id: RequestId): void {
    if (!this.waiting.delete(id) || this.waiting.size > 0) return;
    this.end();
  }

  /**
   * End the POST without (further) answers. A POST that carried requests is answered with an
   * SSE stream or JSON, never 202 (that is for notifications and responses): if nothing was
   * sent yet, it becomes an SSE stream with no events. A JSON-only POST gets the answers it
   * has, one as an object and several as an array (as the SDK's server sends them); with none
   * (every request cancelled) there is no JSON to send, so it gets 202 and no body.
   */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    if (!this.streams) {
      this.#endJson();
      return;
    }
    // A stream with no event at all is not primed: there is nothing on it to resume.
    if (!this.response.headersSent) this.#startStream();
    this.response.end();
  }

  #endJson(): void {
    if (this.response.headersSent) return void this.response.end();
    if (this.#held.length === 0) return void this.response.writeHead(202, this.headers).end();
    const body = this.#held.length === 1 ? this.#held[0] : this.#held;
    this.response.writeHead(200, { ...this.headers, "content-type": "application/json" });
    this.response.end(JSON.stringify(body));
  }

  /** What the stream opens with (the priming event, where the revision has one). */
  #priming(): string {
    return this.framing.priming?.() ?? "";
  }

  /** Open the SSE stream; its priming event goes out with the first write. */
  #startStream(contentLength?: number): void {
    this.response.writeHead(200, {
      ...this.headers,
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
      "x-accel-buffering": "no",
      ...(contentLength === undefined ? {} : { "content-length": String(contentLength) }),
    });
    this.#streaming = true;
  }
}

/**
 * How long a host that lost a POST's stream is told to wait before reconnecting (the priming
 * event's `retry`). mcpx keeps no events to replay, so a reconnection is answered 405 at once.
 */
export const RETRY_MS = 1_000;

export class HttpSessionChannel implements Channel {
  readonly #exchanges = new Map<RequestId, Exchange>();
  /** Streams primed so far: each priming event's id is unique within the session, as SEP-1699 asks. */
  #primed = 0;
  #listening: ServerResponse | undefined;
  /** What was dropped for a host not reading, per stream (backpressure). */
  readonly #drops = new WeakMap<ServerResponse, DropCounter>();
  #closed = false;
  onmessage?: (message: JsonRpcMessage, arrival: Arrival) => void;
  onclose?: (reason?: Error) => void;

  constructor(private readonly log: Logger) {}

  async start(): Promise<void> {}

  /** The priming event a POST's SSE stream opens with, for a host whose revision has it (SEP-1699). */
  priming(revision: Revision | undefined): string | undefined {
    return revision && defines(revision, "ssePriming") ? primingSse(`${++this.#primed}`, RETRY_MS) : undefined;
  }

  /** Hand a POST's messages to the session; its requests will be answered on `exchange`. */
  receive(messages: JsonRpcMessage[], exchange: Exchange | undefined): void {
    const accepted: JsonRpcMessage[] = [];
    const duplicates: RequestId[] = [];
    for (const message of messages) {
      if (exchange && "method" in message && "id" in message && message.id !== undefined) {
        // Answers are routed by id: a second request under an id still in flight would take
        // over the first one's answer, leaving the first POST hanging. Refuse it here.
        if (this.#exchanges.has(message.id)) {
          exchange.waiting.add(message.id);
          duplicates.push(message.id);
          continue;
        }
        exchange.waiting.add(message.id);
        this.#exchanges.set(message.id, exchange);
      }
      accepted.push(message);
    }
    for (const message of accepted) this.onmessage?.(message, {});
    for (const id of duplicates) {
      exchange?.write(errorResponse(id, { code: ErrorCode.InvalidRequest, message: `Request id ${JSON.stringify(id)} is already in use` }));
    }
  }

  /** The POST connection closed: these requests can no longer be answered. */
  forget(exchange: Exchange): RequestId[] {
    const ids = [...exchange.waiting];
    for (const id of ids) this.#exchanges.delete(id);
    return ids;
  }

  /** The peer will not answer `id` (cancelled): its POST need not wait for it. */
  unanswered(id: RequestId): void {
    const exchange = this.#exchanges.get(id);
    if (!exchange) return;
    this.#exchanges.delete(id);
    exchange.drop(id);
  }

  /** Can a request of mcpx's travel with the host's request `id` (on its POST's stream)? */
  carriesRequests(id: RequestId): boolean {
    const exchange = this.#exchanges.get(id);
    return exchange ? exchange.streams && !exchange.ended : false;
  }

  get hasListeningStream(): boolean {
    return this.#listening !== undefined;
  }

  /** Adopt a GET response as the session's standing stream. */
  listen(response: ServerResponse, headers: Record<string, string>): void {
    response.writeHead(200, { ...headers, "content-type": "text/event-stream", "cache-control": "no-cache", "x-accel-buffering": "no" });
    response.flushHeaders();
    this.#listening = response;
    response.once("close", () => {
      if (this.#listening === response) this.#listening = undefined;
    });
  }

  async send(message: JsonRpcMessage, route?: Route): Promise<void> {
    if (this.#closed) return;
    const id = isResponse(message) ? message.id : route?.relatedRequestId;
    const found = id === null || id === undefined ? undefined : this.#exchanges.get(id);
    // A JSON-only POST carries its answer alone; what else belongs to it goes where an unrelated message would.
    const exchange = found && (isResponse(message) || found.streams) ? found : undefined;
    if (exchange && !exchange.ended) {
      if (!this.#admit(exchange.response, message)) return;
      exchange.write(message);
      if (isResponse(message) && message.id !== null && message.id !== undefined) this.#exchanges.delete(message.id);
      return;
    }
    if (isResponse(message)) {
      this.log.debug("an answer whose request's connection is gone was dropped", { id: message.id });
      return;
    }
    if (this.#listening && !this.#listening.destroyed) {
      if (!this.#admit(this.#listening, message)) return;
      this.#listening.write(formatSse(JSON.stringify(message), { event: "message" }));
      return;
    }
    this.log.debug("no open stream for a message to the host; dropped", { method: "method" in message ? message.method : undefined });
  }

  #admit(stream: ServerResponse, message: JsonRpcMessage): boolean {
    // A stream keeping up (nearly every one) needs no counter of drops: none is made per POST.
    if (!backedUp(stream)) return true;
    let drops = this.#drops.get(stream);
    if (!drops) this.#drops.set(stream, (drops = new DropCounter(this.log, "sse")));
    return admitToStream(stream, message, drops, this.log);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const exchange of new Set(this.#exchanges.values())) exchange.end();
    this.#exchanges.clear();
    this.#listening?.end();
    this.#listening = undefined;
    this.onclose?.();
  }
}

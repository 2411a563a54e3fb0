/**
 * An upstream reached over Streamable HTTP (2025-03-26 and later).
 *
 * Every message is a POST. A request's answer comes back as JSON or as an SSE stream that may
 * carry the server's own requests and notifications first; those are delivered with the id of
 * the request whose stream carried them, which is how mcpx attributes a question to a call.
 * A stream that breaks before its answer is resumed with GET and `Last-Event-ID`, honouring the
 * server's `retry`. After the handshake a standing GET stream carries unrelated messages.
 */
import type { Arrival, Channel } from "../rpc/channel.js";
import { classify, isRequest, type JsonRpcMessage, type RequestId } from "../protocol/jsonrpc.js";
import { GatewayError } from "../protocol/errors.js";
import { readSse } from "../util/sse.js";
import { sleep } from "../util/sleep.js";
import { createHttpFetch, readBounded } from "./http-client.js";
import { oversizedReporter, type OversizedMessage, type ReportsOversized } from "../rpc/oversized.js";
import type { ReadLimits } from "./read-limits.js";
import type { Logger } from "../util/log.js";

const DEFAULT_RETRY_MS = 1_000;
/** Resumptions in a row that bring nothing, after which the answer is taken as lost. */
const MAX_RESUMES = 5;
/**
 * A resumed stream that has delivered nothing at all this long will not deliver the answer: a
 * server that kept it replays it at once (SDK 1.27-1.29 servers lose it and stay silent).
 */
const RESUME_QUIET_MS = 5_000;
const MAX_GET_BACKOFF_MS = 30_000;
/** Of an error response's body only the start is shown; more is not read. */
const ERROR_BODY_BYTES = 64 * 1024;

/** The server answered the POST with an HTTP status that says it is not a Streamable HTTP endpoint. */
export class NotStreamableHttp extends GatewayError {
  constructor(readonly status: number) {
    super("UPSTREAM_PROTOCOL", `the server answered HTTP ${status} to a Streamable HTTP POST`);
  }
}

interface StreamState {
  lastEventId?: string;
  retryMs: number;
  answered: boolean;
  /** Events read so far on this stream and its resumptions, priming events included. */
  events: number;
}

export class StreamableHttpChannel implements Channel, ReportsOversized {
  sessionId: string | undefined;
  protocolVersion: string | undefined;
  readonly #aborter = new AbortController();
  readonly #http = createHttpFetch();
  #closed = false;
  onmessage?: (message: JsonRpcMessage, arrival: Arrival) => void;
  onjunk?: (why: string) => void;
  onclose?: (reason?: Error) => void;
  onoversized?: (message: OversizedMessage) => void;
  onlost?: (id: RequestId, reason: Error) => void;

  constructor(
    private readonly url: URL,
    private readonly headers: Record<string, string>,
    private readonly log: Logger,
    private readonly limits: ReadLimits,
  ) {}

  async start(): Promise<void> {}

  #headers(extra: Record<string, string>): Record<string, string> {
    return {
      ...this.headers,
      ...(this.sessionId ? { "mcp-session-id": this.sessionId } : {}),
      ...(this.protocolVersion ? { "mcp-protocol-version": this.protocolVersion } : {}),
      ...extra,
    };
  }

  async send(message: JsonRpcMessage): Promise<void> {
    if (this.#closed) throw new GatewayError("CONNECTION_CLOSED", "the connection to the server is closed");
    const response = await this.#http
      .fetch(this.url, {
        method: "POST",
        headers: this.#headers({ "content-type": "application/json", accept: "application/json, text/event-stream" }),
        body: JSON.stringify(message),
        signal: this.#aborter.signal,
      })
      .catch((error: unknown) => {
        throw new GatewayError("UPSTREAM_UNAVAILABLE", `could not reach ${this.url.href}: ${describe(error)}`);
      });
    const session = response.headers.get("mcp-session-id");
    if (session) this.sessionId = session;

    if (response.status === 404 && this.sessionId && !isInitialize(message)) {
      await response.body?.cancel();
      const error = new GatewayError("UPSTREAM_UNAVAILABLE", "the server ended the session (HTTP 404)");
      this.#fail(error);
      throw error;
    }
    if (!response.ok) {
      const read = await readBounded(response, ERROR_BODY_BYTES).catch(() => ({ text: "" }));
      const body = "text" in read ? read.text : "";
      if (isInitialize(message) && [400, 404, 405].includes(response.status)) throw new NotStreamableHttp(response.status);
      throw new GatewayError("UPSTREAM_PROTOCOL", `the server answered HTTP ${response.status}${body ? `: ${body.slice(0, 200)}` : ""}`);
    }
    const related = isRequest(message) ? message.id : undefined;
    const type = response.headers.get("content-type") ?? "";
    if (response.status === 202 || response.status === 204 || !response.body) {
      await response.body?.cancel();
      return;
    }
    if (type.includes("text/event-stream")) {
      // Read in the background: the answer may be a long way off, and other sends must not wait.
      void this.#readStream(response.body, message, { retryMs: DEFAULT_RETRY_MS, answered: false, events: 0 });
      return;
    }
    const read = await readBounded(response, this.limits.maxMessageBytes);
    if (!("text" in read)) {
      // The body answers the request it was posted with: that is the call to fail.
      this.#tooLarge({ bytes: read.bytes, ended: read.ended, kind: related === undefined ? "unknown" : "response" }, related);
      return;
    }
    if (read.text.trim() === "") return;
    this.#deliverText(read.text, related);
  }

  /** Open the standing GET stream for messages unrelated to any request. */
  openListeningStream(): void {
    void this.#listen(0);
  }

  async #listen(attempt: number, lastEventId?: string): Promise<void> {
    if (this.#closed) return;
    let response: Response;
    try {
      response = await this.#http.fetch(this.url, {
        method: "GET",
        headers: this.#headers({ accept: "text/event-stream", ...(lastEventId ? { "last-event-id": lastEventId } : {}) }),
        signal: this.#aborter.signal,
      });
    } catch (error) {
      if (this.#closed) return;
      this.log.debug("GET stream failed", { error: describe(error) });
      return this.#relisten(attempt + 1, lastEventId);
    }
    if (response.status === 405 || !response.ok || !response.body) {
      await response.body?.cancel().catch(() => {});
      if (response.status !== 405) this.log.debug("server refused the GET stream", { status: response.status });
      return;
    }
    const state: StreamState = { retryMs: DEFAULT_RETRY_MS, answered: false, events: 0, ...(lastEventId ? { lastEventId } : {}) };
    await this.#consume(response.body, undefined, state);
    if (!this.#closed) return this.#relisten(0, state.lastEventId, state.retryMs);
  }

  async #relisten(attempt: number, lastEventId?: string, retryMs?: number): Promise<void> {
    const delay = retryMs ?? Math.min(MAX_GET_BACKOFF_MS, DEFAULT_RETRY_MS * 2 ** attempt);
    await sleep(delay, this.#aborter.signal);
    return this.#listen(attempt, lastEventId);
  }

  async #readStream(body: ReadableStream<Uint8Array>, message: JsonRpcMessage, state: StreamState): Promise<void> {
    const related = isRequest(message) ? message.id : undefined;
    await this.#consume(body, related, state);
    if (state.answered || related === undefined || this.#closed) return;
    const why = await this.#resume(related, state);
    if (why === undefined || this.#closed) return;
    const method = isRequest(message) ? message.method : "the request";
    this.log.warn("the server closed a response stream without answering", { request: related, why });
    // Never re-sent: the request may have taken effect, and only the host can judge a retry.
    this.onlost?.(
      related,
      new GatewayError(
        "UPSTREAM_PROTOCOL",
        `the server closed the response stream of ${method} without answering, ${why}; whether it took effect is unknown, and mcpx does not re-send it`,
      ),
    );
  }

  /**
   * Poll a stream that broke before its answer, as SEP-1699 asks: GET with `Last-Event-ID`
   * after the server's `retry`. Undefined once answered (or closing), else why it cannot be.
   */
  async #resume(related: RequestId, state: StreamState): Promise<string | undefined> {
    if (state.lastEventId === undefined) return "and gave no event id to resume it from";
    for (let fruitless = 0; fruitless < MAX_RESUMES; fruitless++) {
      await sleep(state.retryMs, this.#aborter.signal);
      if (this.#closed) return undefined;
      let response: Response;
      try {
        response = await this.#resumeRequest(state.lastEventId);
      } catch (error) {
        if (this.#closed) return undefined;
        this.log.debug("resuming a stream failed", { error: describe(error) });
        continue;
      }
      if (!response.ok || !response.body) {
        await response.body?.cancel().catch(() => {});
        return `and resuming it (GET with Last-Event-ID) got HTTP ${response.status}`;
      }
      const before = state.events;
      const quiet = await this.#consume(response.body, related, state, RESUME_QUIET_MS);
      if (state.answered || this.#closed) return undefined;
      if (quiet) return `and the resumed stream (GET with Last-Event-ID) delivered nothing for ${RESUME_QUIET_MS / 1000}s`;
      if (state.events > before) fruitless = -1; // it brought something: the server is still at work
    }
    return `and ${MAX_RESUMES} resumptions in a row (GET with Last-Event-ID) delivered nothing`;
  }

  /** The GET that resumes a stream; a server that sends no headers within the quiet bound fails it. */
  async #resumeRequest(lastEventId: string): Promise<Response> {
    const timeout = AbortSignal.timeout(RESUME_QUIET_MS);
    const request = new AbortController();
    const stop = (): void => request.abort();
    this.#aborter.signal.addEventListener("abort", stop, { once: true });
    timeout.addEventListener("abort", stop, { once: true });
    try {
      const response = await this.#http.fetch(this.url, {
        method: "GET",
        headers: this.#headers({ accept: "text/event-stream", "last-event-id": lastEventId }),
        signal: request.signal,
      });
      // Headers are in: from here the body is read (and bounded) by #consume.
      timeout.removeEventListener("abort", stop);
      return response;
    } finally {
      this.#aborter.signal.removeEventListener("abort", stop);
    }
  }

  /**
   * Read a stream's events until it ends. With `quietMs`, give up on a stream that delivers no
   * event at all within that time; true when that happened.
   */
  async #consume(body: ReadableStream<Uint8Array>, related: RequestId | undefined, state: StreamState, quietMs?: number): Promise<boolean> {
    let quiet = false;
    const reading = new AbortController();
    const stop = (): void => reading.abort();
    this.#aborter.signal.addEventListener("abort", stop, { once: true });
    const timer = quietMs === undefined ? undefined : setTimeout(() => ((quiet = true), stop()), quietMs);
    try {
      const { maxMessageBytes, limitName, pressure } = this.limits;
      const options = {
        maxEventBytes: maxMessageBytes,
        onOversized: oversizedReporter(maxMessageBytes, limitName, (message) => this.#tooLarge(message, related)),
        ...(pressure ? { gate: () => pressure.clear(reading.signal) } : {}),
      };
      for await (const event of readSse(body, reading.signal, options)) {
        clearTimeout(timer);
        state.events++;
        if (event.id !== undefined) state.lastEventId = event.id;
        if (event.retry !== undefined) state.retryMs = event.retry;
        if (event.event !== undefined && event.event !== "message") continue;
        if (event.data.trim() === "") continue; // a priming event
        if (this.#deliverText(event.data, related)) state.answered = true;
      }
    } catch (error) {
      if (!this.#closed) this.log.debug("response stream broke", { error: describe(error) });
    } finally {
      clearTimeout(timer);
      this.#aborter.signal.removeEventListener("abort", stop);
    }
    return quiet;
  }

  /** A message over the limit: an answer with no id of its own found answers the request whose stream carried it. */
  #tooLarge(message: Omit<OversizedMessage, "limit" | "limitName">, related: RequestId | undefined): void {
    const id = message.id ?? (message.kind === "request" || message.kind === "notification" ? undefined : related);
    const { limitName, maxMessageBytes: limit } = this.limits;
    this.onoversized?.({ ...message, limit, limitName, ...(id === undefined ? {} : { id }) });
  }

  /** Deliver one JSON body (a message or a batch). True when it answered `related`. */
  #deliverText(text: string, related: RequestId | undefined): boolean {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.onjunk?.("unreadable JSON from the server");
      return false;
    }
    let answered = false;
    for (const item of Array.isArray(value) ? value : [value]) {
      const parsed = classify(item);
      if (!parsed.ok) {
        this.onjunk?.(parsed.error.message);
        continue;
      }
      const message = parsed.message;
      if ("id" in message && message.id === related && !("method" in message)) answered = true;
      this.onmessage?.(message, related === undefined ? {} : { relatedRequestId: related });
    }
    return answered;
  }

  #fail(error: Error): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#aborter.abort();
    this.#http.close();
    this.onclose?.(error);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#aborter.abort();
    if (this.sessionId) {
      // Best effort: tell the server the session is over, without holding up shutdown.
      await this.#http
        .fetch(this.url, { method: "DELETE", headers: this.#headers({}), signal: AbortSignal.timeout(1_000) })
        .then((response) => response.body?.cancel())
        .catch(() => {});
    }
    this.#http.close();
    this.onclose?.();
  }
}

function isInitialize(message: JsonRpcMessage): boolean {
  return "method" in message && message.method === "initialize";
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as Error & { cause?: unknown }).cause;
    return cause instanceof Error ? `${error.message} (${cause.message})` : error.message;
  }
  return String(error);
}

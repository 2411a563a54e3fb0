/**
 * An upstream reached over Streamable HTTP (2025-03-26 and later).
 *
 * Every message is a POST. A request's answer comes back as JSON or as an SSE stream that may
 * carry the server's own requests and notifications first; those are delivered with the id of
 * the request whose stream carried them (http-inbound.ts), which is how mcpx attributes a
 * question to a call. A stream that breaks before its answer is resumed (http-resume.ts).
 * After the handshake a standing GET stream carries unrelated messages (http-listening-stream.ts).
 * Toward a 2026-07-28 server (`modern`) requests go the modern way (http-modern.ts).
 */
import { setMaxListeners } from "node:events";
import type { Arrival, Channel } from "../rpc/channel.js";
import { isRequest, type JsonObject, type JsonRpcMessage, type JsonRpcRequest, type RequestId } from "../protocol/jsonrpc.js";
import { GatewayError } from "../protocol/errors.js";
import type { OversizedMessage, ReportsOversized } from "../rpc/oversized.js";
import type { Logger } from "../util/log.js";
import { createHttpFetch, describeFetchError, type HttpFetch, readBounded, readErrorBody } from "./http-client.js";
import { freshStream, HttpInbound, type HttpLink, type StreamState } from "./http-inbound.js";
import { openListeningStream } from "./http-listening-stream.js";
import { ModernHttpRequests } from "./http-modern.js";
import type { UpstreamAuthorizer } from "./oauth/authorizer.js";
import { authorizedFetch } from "./oauth/authorized-fetch.js";
import { resumeStream } from "./http-resume.js";
import type { ReadLimits } from "./read-limits.js";
import { httpRefusal } from "./upstream-errors.js";

/** The server answered the POST with an HTTP status that says it is not a Streamable HTTP endpoint. */
export class NotStreamableHttp extends GatewayError {
  constructor(readonly status: number) {
    super("UPSTREAM_PROTOCOL", `the server answered HTTP ${status} to a Streamable HTTP POST`);
  }
}

export class StreamableHttpChannel implements Channel, ReportsOversized {
  sessionId: string | undefined;
  protocolVersion: string | undefined;
  /** Speak 2026-07-28 Streamable HTTP (set before the first request goes out). */
  modern = false;
  /** The tool a `tools/call` names, for its `Mcp-Param-*` headers (modern only). */
  toolFor?: (name: string) => JsonObject | undefined;
  readonly #aborter = new AbortController();
  readonly #http = createHttpFetch();
  /** `#http`'s fetch with the access token on, signing in again when refused (oauth/). */
  readonly #fetch: HttpFetch;
  readonly #link: HttpLink;
  readonly #modern: ModernHttpRequests;
  #closed = false;
  onmessage?: (message: JsonRpcMessage, arrival: Arrival) => void;
  onjunk?: (why: string) => void;
  onclose?: (reason?: Error) => void;
  onoversized?: (message: OversizedMessage) => void;
  onlost?: (id: RequestId, reason: Error) => void;

  constructor(
    private readonly url: URL,
    private readonly headers: Record<string, string>,
    log: Logger,
    private readonly limits: ReadLimits,
    authorizer?: UpstreamAuthorizer,
  ) {
    this.#fetch = authorizedFetch(this.#http.fetch, authorizer);
    const closed = (): boolean => this.#closed;
    // Each request and stream in flight listens for the channel closing and lets go when done:
    // many at once is concurrency, not the leak Node's listener warning is there to catch.
    setMaxListeners(0, this.#aborter.signal);
    this.#link = {
      url,
      fetch: this.#fetch,
      headers: (extra) => this.#headers(extra),
      closing: this.#aborter.signal,
      closed,
      log,
      inbound: new HttpInbound(this, limits, log, this.#aborter.signal, closed),
    };
    this.#modern = new ModernHttpRequests({
      link: this.#link,
      headers,
      limits,
      toolFor: (name) => this.toolFor?.(name),
      lost: (id, reason) => this.onlost?.(id, reason),
    });
  }

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
    if (this.modern && !isRequest(message)) return this.#modern.nonRequest(message);
    const stop = this.modern && isRequest(message) ? this.#modern.stopperFor(message.id) : undefined;
    const response = await this.#fetch(this.url, {
      method: "POST",
      headers:
        this.modern && isRequest(message)
          ? this.#modern.headers(message)
          : this.#headers({
              "content-type": "application/json",
              accept: "application/json, text/event-stream",
              // 2026-07-28 asks it on every POST; a legacy server ignores it, and a server that
              // speaks both eras sees it on the legacy connection mcpx keeps beside the modern one.
              ...("method" in message ? { "mcp-method": message.method } : {}),
            }),
      body: JSON.stringify(message),
      signal: stop?.signal ?? this.#aborter.signal,
      ...(isRequest(message) ? { related: message.id } : {}),
    }).catch((error: unknown) => {
      if (isRequest(message)) this.#modern.forget(message.id);
      // The server was reached; a sign-in it asked for did not happen: that is the error, as it is.
      if (error instanceof GatewayError && error.code === "SIGN_IN_REQUIRED") throw error;
      throw new GatewayError("UPSTREAM_UNAVAILABLE", `could not reach ${this.url.href}: ${describeFetchError(error)}`);
    });
    if (this.modern) return this.#modern.response(message as JsonRpcRequest, response, stop!);
    const session = response.headers.get("mcp-session-id");
    if (session) this.sessionId = session;

    if (response.status === 404 && this.sessionId && !isInitialize(message)) {
      await response.body?.cancel();
      const error = new GatewayError("UPSTREAM_UNAVAILABLE", "the server ended the session (HTTP 404)");
      this.#fail(error);
      throw error;
    }
    if (!response.ok) {
      const body = await readErrorBody(response);
      if (isInitialize(message) && [400, 404, 405].includes(response.status)) throw new NotStreamableHttp(response.status);
      throw new GatewayError("UPSTREAM_PROTOCOL", httpRefusal("the server answered", response.status, body, this.headers));
    }
    const related = isRequest(message) ? message.id : undefined;
    const type = response.headers.get("content-type") ?? "";
    if (response.status === 202 || response.status === 204 || !response.body) {
      await response.body?.cancel();
      return;
    }
    if (type.includes("text/event-stream")) {
      // Read in the background: the answer may be a long way off, and other sends must not wait.
      void this.#readStream(response.body, message, freshStream());
      return;
    }
    const { inbound } = this.#link;
    const read = await readBounded(response, this.limits.maxMessageBytes);
    if (!("text" in read)) {
      // The body answers the request it was posted with: that is the call to fail.
      inbound.tooLarge({ bytes: read.bytes, ended: read.ended, kind: related === undefined ? "unknown" : "response" }, related);
      return;
    }
    if (read.text.trim() === "") return;
    inbound.deliverText(read.text, related);
  }

  /** Open the standing GET stream for messages unrelated to any request. */
  openListeningStream(): void {
    openListeningStream(this.#link);
  }

  async #readStream(body: ReadableStream<Uint8Array>, message: JsonRpcMessage, state: StreamState): Promise<void> {
    const related = isRequest(message) ? message.id : undefined;
    await this.#link.inbound.consume(body, related, state);
    if (state.answered || related === undefined || this.#closed) return;
    const why = await resumeStream(this.#link, related, state);
    if (why === undefined || this.#closed) return;
    const method = isRequest(message) ? message.method : "the request";
    this.#link.log.warn("the server closed a response stream without answering", { request: related, why });
    // Never re-sent: the request may have taken effect, and only the host can judge a retry.
    this.onlost?.(
      related,
      new GatewayError(
        "UPSTREAM_PROTOCOL",
        `the server closed the response stream of ${method} without answering, ${why}; whether it took effect is unknown, and mcpx does not re-send it`,
      ),
    );
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
      await this.#fetch(this.url, { method: "DELETE", headers: this.#headers({}), signal: AbortSignal.timeout(1_000) })
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

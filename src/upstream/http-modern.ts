/**
 * Streamable HTTP toward a 2026-07-28 server: no session, no GET stream and no resumption.
 * Each request carries the metadata headers its body implies and has a stop of its own, so
 * cancelling it is closing its stream; a broken response stream loses its request; and an
 * error answered with an HTTP status (400, 404) still reaches the request it answers.
 */
import { isObject, type JsonObject, type JsonRpcMessage, type JsonRpcRequest, type RequestId } from "../protocol/jsonrpc.js";
import { modernRequestHeaders } from "../protocol/modern-headers.js";
import { GatewayError } from "../protocol/errors.js";
import { readBounded, readErrorBody } from "./http-client.js";
import { freshStream, type HttpLink } from "./http-inbound.js";
import type { ReadLimits } from "./read-limits.js";
import { httpRefusal } from "./upstream-errors.js";

export interface ModernHttpDeps {
  link: HttpLink;
  /** The configured headers (no session's, no connection-wide version's). */
  headers: Record<string, string>;
  limits: ReadLimits;
  /** The tool a `tools/call` names, for its `Mcp-Param-*` headers. */
  toolFor(name: string): JsonObject | undefined;
  /** A request whose stream ended without its answer. */
  lost(id: RequestId, reason: Error): void;
}

export class ModernHttpRequests {
  /** A modern request's own stop: cancelling it is closing its stream. */
  readonly #requests = new Map<RequestId, AbortController>();

  constructor(private readonly deps: ModernHttpDeps) {}

  headers(request: JsonRpcRequest): Record<string, string> {
    const name = request.params?.name;
    const tool = request.method === "tools/call" && typeof name === "string" ? this.deps.toolFor(name) : undefined;
    // No session and no connection-wide version: a modern request's headers come from its own body.
    return { ...this.deps.headers, "content-type": "application/json", accept: "application/json, text/event-stream", ...modernRequestHeaders(request, tool) };
  }

  /** The stop of a request about to be sent; it also stops when the channel closes. */
  stopperFor(id: RequestId): AbortController {
    const closing = this.deps.link.closing;
    const stop = new AbortController();
    const close = (): void => stop.abort();
    closing.addEventListener("abort", close, { once: true });
    stop.signal.addEventListener("abort", () => closing.removeEventListener("abort", close), { once: true });
    this.#requests.set(id, stop);
    return stop;
  }

  /**
   * The request is over (answered, failed, or never sent). Its stop is aborted: nothing is left
   * to stop, and that unties it from the connection's closing (else one listener stays per request).
   */
  #settle(id: RequestId, stop: AbortController | undefined): void {
    if (!stop) return;
    if (this.#requests.get(id) === stop) this.#requests.delete(id);
    stop.abort();
  }

  /** The request could not be sent at all. */
  forget(id: RequestId): void {
    this.#settle(id, this.#requests.get(id));
  }

  /**
   * A 2026 client sends no notification on HTTP but cancellation, and that is closing the
   * request's stream; it sends no responses (a modern server has no requests to answer).
   */
  async nonRequest(message: JsonRpcMessage): Promise<void> {
    if ("method" in message && message.method === "notifications/cancelled") {
      const id = isObject(message.params) ? message.params.requestId : undefined;
      const stop = typeof id === "string" || typeof id === "number" ? this.#requests.get(id) : undefined;
      if (stop) {
        this.#requests.delete(id as RequestId);
        stop.abort();
      }
      return;
    }
    this.deps.link.log.debug("not sent to a 2026-07-28 server, which takes no such message over HTTP", {
      method: "method" in message ? message.method : "(a response)",
    });
  }

  async response(request: JsonRpcRequest, response: Response, stop: AbortController): Promise<void> {
    const { inbound } = this.deps.link;
    const done = (): void => this.#settle(request.id, stop);
    if (!response.ok) {
      const body = await readErrorBody(response);
      done();
      // A modern server answers many errors with a status (400, 404) and the JSON-RPC error in the body.
      if (inbound.deliverError(body, request.id)) return;
      throw new GatewayError("UPSTREAM_PROTOCOL", httpRefusal("the server answered", response.status, body, this.deps.headers), {
        status: response.status,
      });
    }
    const type = response.headers.get("content-type") ?? "";
    if (!response.body || response.status === 202 || response.status === 204) {
      await response.body?.cancel();
      done();
      throw new GatewayError("UPSTREAM_PROTOCOL", `the server answered ${request.method} with HTTP ${response.status} and no body`);
    }
    if (type.includes("text/event-stream")) {
      void this.#readStream(request, response.body, stop).finally(done);
      return;
    }
    const read = await readBounded(response, this.deps.limits.maxMessageBytes).finally(done);
    if (!("text" in read)) {
      inbound.tooLarge({ bytes: read.bytes, ended: read.ended, kind: "response" }, request.id);
      return;
    }
    inbound.deliverText(read.text, request.id);
  }

  /** A modern response stream is read once: when it breaks before the answer, the request is lost. */
  async #readStream(request: JsonRpcRequest, body: ReadableStream<Uint8Array>, stop: AbortController): Promise<void> {
    const { link } = this.deps;
    const state = freshStream();
    await link.inbound.consume(body, request.id, state, undefined, stop.signal);
    if (state.answered || link.closed() || stop.signal.aborted) return;
    link.log.warn("the server closed a response stream without answering", { request: request.id });
    this.deps.lost(
      request.id,
      new GatewayError(
        "UPSTREAM_PROTOCOL",
        `the server closed the response stream of ${request.method} without answering; a 2026-07-28 stream cannot be resumed, whether it took effect is unknown, and mcpx does not re-send it`,
      ),
    );
  }
}

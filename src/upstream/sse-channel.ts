/**
 * An upstream reached over the 2024-11-05 HTTP+SSE transport: one long GET stream carries
 * everything the server sends; the first event names the URL to POST messages to.
 * mcpx falls back to this when a server refuses Streamable HTTP.
 */
import type { Arrival, Channel } from "../rpc/channel.js";
import { parseFrame, type JsonRpcMessage } from "../protocol/jsonrpc.js";
import { GatewayError } from "../protocol/errors.js";
import { readSse } from "../util/sse.js";
import type { Logger } from "../util/log.js";
import { oversizedReporter, type OversizedMessage, type ReportsOversized } from "../rpc/oversized.js";
import type { ReadLimits } from "./read-limits.js";
import type { UpstreamAuthorizer } from "./oauth/authorizer.js";
import { httpRefusal } from "./upstream-errors.js";

const ENDPOINT_WAIT_MS = 10_000;

export class LegacySseChannel implements Channel, ReportsOversized {
  #endpoint: URL | undefined;
  readonly #aborter = new AbortController();
  #closed = false;
  onmessage?: (message: JsonRpcMessage, arrival: Arrival) => void;
  onjunk?: (why: string) => void;
  onclose?: (reason?: Error) => void;
  onoversized?: (message: OversizedMessage) => void;

  constructor(
    private readonly url: URL,
    private readonly headers: Record<string, string>,
    private readonly log: Logger,
    private readonly limits: ReadLimits,
    private readonly authorizer?: UpstreamAuthorizer,
  ) {}

  /** The global fetch with the access token on, and one sign-in when the server answers 401 (oauth/). */
  async #fetch(url: URL, init: { method?: string; headers: Record<string, string>; body?: string; signal: AbortSignal }): Promise<Response> {
    const authorizer = this.authorizer;
    const send = async (): Promise<Response> =>
      fetch(url, { ...init, headers: { ...init.headers, ...(await authorizer?.headers(url, init.method ?? "GET")) } });
    const response = await send();
    if (!authorizer || response.status !== 401 || !response.headers.has("www-authenticate")) return response;
    await response.body?.cancel().catch(() => {});
    await authorizer.unauthorized(response, undefined);
    return send();
  }

  async start(): Promise<void> {
    const response = await this.#fetch(this.url, {
      headers: { ...this.headers, accept: "text/event-stream" },
      signal: this.#aborter.signal,
    }).catch((error: unknown) => {
      throw new GatewayError("UPSTREAM_UNAVAILABLE", `could not reach ${this.url.href}: ${(error as Error).message}`);
    });
    if (!response.ok || !response.body || !(response.headers.get("content-type") ?? "").includes("text/event-stream")) {
      await response.body?.cancel().catch(() => {});
      if (response.status === 401) throw new GatewayError("UPSTREAM_PROTOCOL", httpRefusal(`GET ${this.url.href} answered`, 401, "", this.headers));
      throw new GatewayError("UPSTREAM_PROTOCOL", `GET ${this.url.href} answered HTTP ${response.status}, not an SSE stream`);
    }
    const { maxMessageBytes, limitName, pressure } = this.limits;
    const events = readSse(response.body, this.#aborter.signal, {
      maxEventBytes: maxMessageBytes,
      onOversized: oversizedReporter(maxMessageBytes, limitName, (message) => this.onoversized?.(message)),
      ...(pressure ? { gate: () => pressure.clear(this.#aborter.signal) } : {}),
    });
    const timer = setTimeout(() => this.#aborter.abort(), ENDPOINT_WAIT_MS);
    for (;;) {
      const next = await events.next();
      if (next.done) {
        clearTimeout(timer);
        throw new GatewayError("UPSTREAM_PROTOCOL", "the SSE stream ended before naming its message endpoint");
      }
      if (next.value.event === "endpoint") {
        this.#endpoint = new URL(next.value.data.trim(), this.url);
        break;
      }
    }
    clearTimeout(timer);
    void this.#pump(events);
  }

  async #pump(events: AsyncGenerator<{ event?: string; data: string }>): Promise<void> {
    try {
      for await (const event of events) {
        if (event.event !== undefined && event.event !== "message") continue;
        const parsed = parseFrame(event.data);
        if (parsed.ok) this.onmessage?.(parsed.message, {});
        else this.onjunk?.(parsed.error.message);
      }
    } catch (error) {
      this.log.debug("SSE stream broke", { error });
    }
    if (!this.#closed) {
      this.#closed = true;
      this.onclose?.(new GatewayError("UPSTREAM_UNAVAILABLE", "the server closed its SSE stream"));
    }
  }

  async send(message: JsonRpcMessage): Promise<void> {
    if (!this.#endpoint || this.#closed) throw new GatewayError("CONNECTION_CLOSED", "the SSE connection is not open");
    const response = await this.#fetch(this.#endpoint, {
      method: "POST",
      headers: { ...this.headers, "content-type": "application/json" },
      body: JSON.stringify(message),
      signal: this.#aborter.signal,
    });
    await response.body?.cancel().catch(() => {});
    if (!response.ok) throw new GatewayError("UPSTREAM_PROTOCOL", httpRefusal("the server answered a message with", response.status, "", this.headers));
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#aborter.abort();
    this.onclose?.();
  }
}

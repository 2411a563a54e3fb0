/**
 * What comes back from a Streamable HTTP server, turned into delivered messages: a JSON body
 * (a message or a batch) or an SSE stream of them, each within the message size limit, each
 * delivered with the id of the request whose response carried it (how mcpx attributes a
 * question to a call). Shared by the POST channel and the GET streams that resume or stand.
 */
import type { Arrival } from "../rpc/channel.js";
import { classify, type JsonRpcMessage, type RequestId } from "../protocol/jsonrpc.js";
import { oversizedReporter, type OversizedMessage } from "../rpc/oversized.js";
import { readSse } from "../util/sse.js";
import type { Logger } from "../util/log.js";
import { describeFetchError, type HttpFetch } from "./http-client.js";
import type { ReadLimits } from "./read-limits.js";

/** The reconnection delay until the server sends `retry`. */
export const DEFAULT_RETRY_MS = 1_000;

export interface StreamState {
  lastEventId?: string;
  retryMs: number;
  answered: boolean;
  /** Events read so far on this stream and its resumptions, priming events included. */
  events: number;
}

export const freshStream = (lastEventId?: string): StreamState => ({
  retryMs: DEFAULT_RETRY_MS,
  answered: false,
  events: 0,
  ...(lastEventId ? { lastEventId } : {}),
});

/** Where delivered messages go: the channel's handlers, read at each delivery. */
export interface InboundSink {
  onmessage?: (message: JsonRpcMessage, arrival: Arrival) => void;
  onjunk?: (why: string) => void;
  onoversized?: (message: OversizedMessage) => void;
}

/** What the GET streams share with the channel that owns them. */
export interface HttpLink {
  url: URL;
  fetch: HttpFetch;
  /** The connection's headers (session, protocol version) with `extra`. */
  headers(extra: Record<string, string>): Record<string, string>;
  /** Aborts when the channel closes. */
  closing: AbortSignal;
  closed(): boolean;
  log: Logger;
  inbound: HttpInbound;
}

export class HttpInbound {
  constructor(
    private readonly sink: InboundSink,
    private readonly limits: ReadLimits,
    private readonly log: Logger,
    private readonly closing: AbortSignal,
    private readonly closed: () => boolean,
  ) {}

  /**
   * Read a stream's events until it ends. With `quietMs`, give up on a stream that delivers no
   * event at all within that time; true when that happened.
   */
  async consume(body: ReadableStream<Uint8Array>, related: RequestId | undefined, state: StreamState, quietMs?: number, until?: AbortSignal): Promise<boolean> {
    let quiet = false;
    const reading = new AbortController();
    const stop = (): void => reading.abort();
    this.closing.addEventListener("abort", stop, { once: true });
    until?.addEventListener("abort", stop, { once: true });
    const timer =
      quietMs === undefined
        ? undefined
        : setTimeout(() => {
            quiet = true;
            stop();
          }, quietMs);
    try {
      const { maxMessageBytes, limitName, pressure } = this.limits;
      const options = {
        maxEventBytes: maxMessageBytes,
        onOversized: oversizedReporter(maxMessageBytes, limitName, (message) => this.tooLarge(message, related)),
        ...(pressure ? { gate: () => pressure.clear(reading.signal) } : {}),
      };
      for await (const event of readSse(body, reading.signal, options)) {
        clearTimeout(timer);
        state.events++;
        if (event.id !== undefined) state.lastEventId = event.id;
        if (event.retry !== undefined) state.retryMs = event.retry;
        if (event.event !== undefined && event.event !== "message") continue;
        if (event.data.trim() === "") continue; // a priming event
        if (this.deliverText(event.data, related)) state.answered = true;
      }
    } catch (error) {
      if (!this.closed()) this.log.debug("response stream broke", { error: describeFetchError(error) });
    } finally {
      clearTimeout(timer);
      this.closing.removeEventListener("abort", stop);
      until?.removeEventListener("abort", stop);
    }
    return quiet;
  }

  /**
   * A message over the limit: what reads as an answer with no id of its own found answers the
   * request whose stream carried it. An event that reads as no message at all is tied to nothing.
   */
  tooLarge(message: Omit<OversizedMessage, "limit" | "limitName">, related: RequestId | undefined): void {
    const id = message.id ?? (message.kind === "response" ? related : undefined);
    const { limitName, maxMessageBytes: limit } = this.limits;
    this.sink.onoversized?.({ ...message, limit, limitName, ...(id === undefined ? {} : { id }) });
  }

  /** Deliver one JSON body (a message or a batch). True when it answered `related`. */
  deliverText(text: string, related: RequestId | undefined): boolean {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.sink.onjunk?.("unreadable JSON from the server");
      return false;
    }
    let answered = false;
    for (const item of Array.isArray(value) ? value : [value]) {
      const parsed = classify(item);
      if (!parsed.ok) {
        this.sink.onjunk?.(parsed.error.message);
        continue;
      }
      const message = parsed.message;
      if ("id" in message && message.id === related && !("method" in message)) answered = true;
      this.sink.onmessage?.(message, related === undefined ? {} : { relatedRequestId: related });
    }
    return answered;
  }

  /** Deliver a JSON-RPC error read from an error status's body, when it answers `id`. */
  deliverError(body: string, id: RequestId): boolean {
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch {
      return false;
    }
    const parsed = classify(value);
    if (!parsed.ok || !("error" in parsed.message) || parsed.message.id !== id) return false;
    this.sink.onmessage?.(parsed.message, { relatedRequestId: id });
    return true;
  }
}

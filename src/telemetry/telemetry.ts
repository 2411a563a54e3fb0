/**
 * What the rest of mcpx tells telemetry (metrics and traces), as hooks with plain data. The
 * OpenTelemetry SDK is behind them (telemetry/otel/), loaded only when something asks for it
 * (load.ts); otherwise every hook is the no-op below and the two request hooks are absent, so a
 * request pays one property check.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { JsonObject } from "../protocol/jsonrpc.js";

/**
 * Which host request a request upstream is made for: the host's connection (opaque here) and
 * its request id. The upstream span is the child of that request's span, found by this key.
 */
export interface CallerKey {
  scope: object;
  requestId: string | number;
}

/** A host's request as it reaches mcpx (a span of kind SERVER). */
export interface HostRequest {
  caller: CallerKey;
  method: string;
  id: string | number;
  params: JsonObject | undefined;
  /** `pipe` (stdio) or `tcp` (HTTP), as the MCP semantic conventions name transports. */
  transport: "pipe" | "tcp";
  /** The `Mcp-Session-Id` of a legacy HTTP session (stdio and 2026-07-28 requests have none). */
  sessionId?: string;
  protocolVersion?: string;
}

/** A request mcpx sends an upstream for a caller (a span of kind CLIENT). */
export interface UpstreamRequest {
  /** The host request it serves, when there is one (a command's call has none: its span is a root). */
  caller?: CallerKey;
  server: string;
  method: string;
  transport: "pipe" | "tcp";
  protocolVersion?: string;
}

/** How a tool call ended (host/audit.ts has the same outcomes). */
export type CallOutcome = "ok" | "error" | "failed" | "refused";

/** A question's lifecycle, as the broker reports it in this process. */
export interface QuestionEvent {
  id: string;
  server: string;
  state: "pending" | "answered" | "expired" | "closed";
  /** Who settled it (`cli`, `web`, `rest`, `host:<session>`, `rule:<n>`, `expiry`, …). */
  by?: string;
  /** An answered question's `accept`, `decline` or `cancel`. */
  action?: string;
  /** Milliseconds from asked to settled. */
  waitedMs?: number;
}

export interface Telemetry {
  /** Serve a host's request inside its span (absent while tracing is off). */
  readonly traceHostRequest?: (request: HostRequest, serve: () => Promise<JsonObject>) => Promise<JsonObject>;
  /** Send a request upstream inside its span, the span's trace context put into `params._meta` (absent while tracing is off). */
  readonly traceUpstreamRequest?: (
    request: UpstreamRequest,
    params: JsonObject | undefined,
    send: (params: JsonObject | undefined) => Promise<JsonObject>,
  ) => Promise<JsonObject>;
  callEnded(server: string, tool: string, outcome: CallOutcome, durationMs: number): void;
  question(event: QuestionEvent): void;
  upstreamRestarted(server: string): void;
  sessionOpened(transport: "stdio" | "http"): void;
  sessionClosed(transport: "stdio" | "http", openMs: number): void;
  /** The Prometheus text exposition of the metrics (absent: this process serves none). */
  readonly prometheus?: (request: IncomingMessage, response: ServerResponse) => void;
  /** Export what is left and stop. Never throws. */
  shutdown(): Promise<void>;
}

const nothing = (): void => {};

/** Telemetry off: nothing is recorded and nothing of the SDK is loaded. */
export const NO_TELEMETRY: Telemetry = {
  callEnded: nothing,
  question: nothing,
  upstreamRestarted: nothing,
  sessionOpened: nothing,
  sessionClosed: nothing,
  shutdown: () => Promise.resolve(),
};

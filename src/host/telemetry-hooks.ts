/**
 * What the serving side tells telemetry (src/telemetry/): a host's request and an upstream
 * request as plain data for their spans (the upstream one keyed to the host request it serves), a question's lifecycle from the broker, an upstream's
 * restart. The gateway and serveRequest call these; with telemetry off they cost one check.
 */
import type { QuestionRecord } from "../broker/types.js";
import { isObject, type JsonObject } from "../protocol/jsonrpc.js";
import { META } from "../protocol/modern.js";
import type { IncomingContext } from "../rpc/peer.js";
import type { HostRequest, QuestionEvent, Telemetry, UpstreamRequest } from "../telemetry/telemetry.js";
import type { Upstream } from "../upstream/upstream.js";
import { ModernRequestSession } from "./modern/request-session.js";
import type { CallerContext, HostSession } from "./session.js";

export function hostRequestOf(session: HostSession, context: IncomingContext): HostRequest {
  const { method, id, params } = context.request;
  const meta = params?._meta;
  const modernVersion = isObject(meta) ? meta[META.protocolVersion] : undefined;
  const protocolVersion = session.revision ?? (typeof modernVersion === "string" ? modernVersion : undefined);
  // Only a legacy HTTP session has an id on the wire (Mcp-Session-Id); a modern request's base session is per POST.
  const sessionId = session.transport === "http" && session.initialized && !session.servesOneRequest ? session.id : undefined;
  return {
    caller: { scope: session, requestId: id },
    method,
    id,
    params: params as JsonObject | undefined,
    transport: session.transport === "stdio" ? "pipe" : "tcp",
    ...(sessionId ? { sessionId } : {}),
    ...(protocolVersion ? { protocolVersion } : {}),
  };
}

/**
 * `owner`: whose call it is. A host's request is keyed by the session it came on (a 2026-07-28
 * request is served on a session of its own over the connection's: its `base`) and its id; a script's calls by the
 * `mcpx__exec` request of their run; a command's call has no host request.
 */
export function upstreamRequestOf(upstream: Upstream, method: string, owner: CallerContext | undefined): UpstreamRequest {
  const caller = owner?.run ?? owner;
  const session = caller?.session;
  return {
    ...(session && caller.requestId !== undefined ? { caller: { scope: connectionOf(session), requestId: caller.requestId } } : {}),
    server: upstream.name,
    method,
    transport: upstream.config.kind === "stdio" ? "pipe" : "tcp",
    ...(upstream.revision ? { protocolVersion: upstream.revision } : {}),
  };
}

/** The broker's record as a question event: counted by the process that asked it. */
export function questionEvent(record: QuestionRecord): QuestionEvent {
  const settledAt = record.answer?.answeredAt;
  return {
    id: record.id,
    server: record.server,
    state: record.state,
    ...(record.answer ? { by: record.answer.by, action: record.answer.action } : {}),
    ...(settledAt ? { waitedMs: Date.parse(settledAt) - Date.parse(record.createdAt) } : {}),
  };
}

/**
 * Counts an upstream's restarts: `Upstream.restarts` grows before each restart's start
 * (restart-backoff), which the `changed` hook hears as the state going `starting`.
 */
export class RestartCounter {
  readonly #seen = new WeakMap<Upstream, number>();

  constructor(private readonly telemetry: Telemetry) {}

  changed(upstream: Upstream): void {
    const before = this.#seen.get(upstream) ?? 0;
    if (upstream.restarts <= before) return;
    this.#seen.set(upstream, upstream.restarts);
    for (let restart = before; restart < upstream.restarts; restart++) this.telemetry.upstreamRestarted(upstream.name);
  }
}

/** The session a host's request came on, as serveRequest saw it. */
function connectionOf(session: HostSession): HostSession {
  return session instanceof ModernRequestSession ? session.base : session;
}

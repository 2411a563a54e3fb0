/**
 * Dual era on one connection: which era serves a host's request. A request carrying the modern
 * per-request `_meta` (or a modern-only method) on a connection that has not chosen legacy with
 * `initialize` is served statelessly, as 2026-07-28 says; everything else is `dispatch`'s.
 */
import { RpcError, methodNotFound } from "../../protocol/errors.js";
import { ErrorCode, isObject, type JsonObject } from "../../protocol/jsonrpc.js";
import { downgradeResult } from "../../protocol/downgrade.js";
import type { IncomingContext } from "../../rpc/peer.js";
import type { Gateway } from "../gateway.js";
import { dispatch } from "../dispatch.js";
import type { HostSession } from "../session.js";
import { isModernRequest, readEnvelope, type Envelope } from "./envelope.js";
import { discover } from "./discover.js";
import { listen } from "./listen.js";
import { MRTR_METHODS, serveRound } from "./mrtr.js";
import { ModernRequestSession } from "./request-session.js";
import { hostRequestOf } from "../telemetry-hooks.js";

/**
 * What a 2026-07-28 host may call. Gone from the era, and so unknown methods here (-32601; on
 * HTTP 404): `initialize` (it selects legacy instead), `ping`, `logging/setLevel` (the level
 * rides in `_meta`), `resources/subscribe` and `resources/unsubscribe` (`subscriptions/listen`).
 */
export const MODERN_METHODS = new Set([
  "server/discover",
  "subscriptions/listen",
  "tools/list",
  "tools/call",
  "prompts/list",
  "prompts/get",
  "resources/list",
  "resources/templates/list",
  "resources/read",
  "completion/complete",
  // The tasks extension (tasks/modern-methods.ts).
  "tasks/get",
  "tasks/update",
  "tasks/cancel",
]);

/** A legacy connection that has not chosen its era yet may still be served a modern request. */
export function servesModern(session: HostSession, context: IncomingContext): boolean {
  return !session.servesOneRequest && !session.initialized && !session.initializing && isModernRequest(context.request);
}

/** Every host request enters here (stdio and HTTP), inside its span when tracing is on. */
export function serveRequest(gateway: Gateway, session: HostSession, context: IncomingContext): Promise<JsonObject> {
  const serve = (): Promise<JsonObject> => (servesModern(session, context) ? serveModern(gateway, session, context) : dispatch(gateway, session, context));
  const traced = gateway.telemetry.traceHostRequest;
  return traced ? traced(hostRequestOf(session, context), serve) : serve();
}

async function serveModern(gateway: Gateway, base: HostSession, context: IncomingContext): Promise<JsonObject> {
  const { method } = context.request;
  const envelope = readEnvelope(context.request.params);
  if (!MODERN_METHODS.has(method)) throw methodNotFound(method);
  try {
    if (method === "server/discover") return downgradeResult(method, await discover(gateway, base), envelope.revision);
    if (method === "subscriptions/listen") return downgradeResult(method, await listen(gateway, base, envelope, context), envelope.revision);
    const forwardable = withoutEnvelope(context.request.params ?? {});
    if (MRTR_METHODS.has(method)) return await serveRound(gateway, base, envelope, context, forwardable);
    return await once(gateway, base, envelope, { ...context, request: { ...context.request, params: forwardable } });
  } catch (error) {
    throw forModernHost(error);
  }
}

/** A request answered in one go, on a session that lives as long as it. */
async function once(gateway: Gateway, base: HostSession, envelope: Envelope, context: IncomingContext): Promise<JsonObject> {
  const session = new ModernRequestSession(base, envelope);
  try {
    await gateway.start();
    return await dispatch(gateway, session, context);
  } finally {
    await gateway.closeSession(session);
  }
}

/**
 * The params as an upstream may see them: the host's envelope and a retry's MRTR fields are
 * between it and mcpx. Answers sent with a first request (no requestState) stay: a modern server
 * may use them or ignore them, as on a direct connection.
 */
function withoutEnvelope(params: JsonObject): JsonObject {
  const { inputResponses, requestState, _meta, ...own } = params;
  const rest = requestState === undefined && isObject(inputResponses) ? { ...own, inputResponses } : own;
  if (!isObject(_meta)) return rest;
  const kept = Object.fromEntries(Object.entries(_meta).filter(([key]) => !key.startsWith("io.modelcontextprotocol/")));
  return Object.keys(kept).length ? { ...rest, _meta: kept } : rest;
}

/** Codes earlier revisions defined that 2026-07-28 reserves and never emits. */
const URL_ELICITATION_REQUIRED = -32042;
const RESOURCE_NOT_FOUND_BEFORE_2026 = ErrorCode.ResourceNotFound;

/** An error as a 2026-07-28 host may be sent it: no retired codes. */
function forModernHost(error: unknown): unknown {
  if (!(error instanceof RpcError)) return error;
  // Resource not found is -32602 now (its data, the uri, kept); mcpx's own and a legacy upstream's -32002 alike.
  if (error.code === RESOURCE_NOT_FOUND_BEFORE_2026) return new RpcError(ErrorCode.InvalidParams, error.message, error.data);
  if (error.code !== URL_ELICITATION_REQUIRED) return error;
  return new RpcError(
    ErrorCode.InternalError,
    `${error.message} (the upstream asked for a URL to be opened, which mcpx could not relay to this request)`,
    error.data,
  );
}

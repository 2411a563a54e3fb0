/**
 * The modern era's per-request `_meta` envelope (2026-07-28): the protocol version, the client's
 * capabilities for this request, its identity and log level. Read from each request; nothing is
 * carried over from earlier ones ("Servers MUST NOT infer capabilities from prior requests").
 */
import { isObject, type JsonObject, type JsonRpcRequest } from "../../protocol/jsonrpc.js";
import { MODERN_REVISIONS, servedModern, type Revision } from "../../protocol/revisions.js";
import { invalidParams } from "../../protocol/errors.js";
import { META } from "../../protocol/modern.js";
import { LOG_LEVELS, type LogLevel } from "../session.js";
import { unsupportedVersion } from "./errors.js";

export interface Envelope {
  revision: Revision;
  capabilities: JsonObject;
  clientInfo?: JsonObject;
  logLevel?: LogLevel;
}

/** Methods only the modern era has: their requests are modern whatever else they carry. */
const MODERN_ONLY = new Set(["server/discover", "subscriptions/listen"]);

/** Does this request open the modern era's way (a per-request protocol version, or a modern-only method)? */
export function isModernRequest(request: Pick<JsonRpcRequest, "method" | "params">): boolean {
  if (MODERN_ONLY.has(request.method)) return true;
  const meta = isObject(request.params) ? request.params._meta : undefined;
  return isObject(meta) && meta[META.protocolVersion] !== undefined;
}

/** The request's envelope; -32602 when it is malformed, -32022 when the version is not served. */
export function readEnvelope(params: JsonObject | undefined): Envelope {
  const meta = params?._meta;
  if (!isObject(meta)) throw invalidParams(`a 2026-07-28 request needs params._meta with "${META.protocolVersion}" and "${META.clientCapabilities}"`);
  const version = meta[META.protocolVersion];
  if (typeof version !== "string") throw invalidParams(`params._meta["${META.protocolVersion}"] must be a string`);
  if (!servedModern(version)) throw unsupportedVersion(version, MODERN_REVISIONS);
  const capabilities = meta[META.clientCapabilities];
  if (!isObject(capabilities)) throw invalidParams(`params._meta["${META.clientCapabilities}"] must be an object (empty: no optional capabilities)`);
  const clientInfo = meta[META.clientInfo];
  const logLevel = meta[META.logLevel];
  if (logLevel !== undefined && !LOG_LEVELS.includes(logLevel as LogLevel)) {
    throw invalidParams(`params._meta["${META.logLevel}"] must be one of ${LOG_LEVELS.join(", ")}`);
  }
  return {
    revision: version,
    capabilities,
    ...(isObject(clientInfo) ? { clientInfo } : {}),
    ...(logLevel !== undefined ? { logLevel: logLevel as LogLevel } : {}),
  };
}

/**
 * The 2026-07-28 era as mcpx speaks it to an upstream (mcpx is the client): the per-request
 * `_meta` envelope, `resultType`, `input_required` results, and the errors that prove a server
 * modern. Pure: no I/O.
 */
import { isObject, type JsonObject } from "./jsonrpc.js";
import type { Revision } from "./revisions.js";

/** The `_meta` keys of the 2026-07-28 schema (`RequestMetaObject`, `ResultMetaObject`, `NotificationMetaObject`). */
export const META = {
  protocolVersion: "io.modelcontextprotocol/protocolVersion",
  clientCapabilities: "io.modelcontextprotocol/clientCapabilities",
  clientInfo: "io.modelcontextprotocol/clientInfo",
  logLevel: "io.modelcontextprotocol/logLevel",
  serverInfo: "io.modelcontextprotocol/serverInfo",
  subscriptionId: "io.modelcontextprotocol/subscriptionId",
} as const;

/** Error codes only a 2026-07-28 server sends: one of them proves the server modern. */
export const MODERN_ERROR = {
  HeaderMismatch: -32020,
  MissingRequiredClientCapability: -32021,
  UnsupportedProtocolVersion: -32022,
} as const;

export function isModernErrorCode(code: number): boolean {
  return (Object.values(MODERN_ERROR) as number[]).includes(code);
}

/** What a modern request says about its client: the fields of `RequestMetaObject` mcpx fills. */
export interface Envelope {
  protocolVersion: Revision;
  clientCapabilities: JsonObject;
  clientInfo: JsonObject;
  /** Absent: the server sends no log messages for the request (the 2026 replacement of `logging/setLevel`). */
  logLevel?: string;
}

/** `params` with the envelope in its `_meta`, beside what the caller put there (a progress token). */
export function withEnvelope(params: JsonObject | undefined, envelope: Envelope): JsonObject {
  const meta = isObject(params?._meta) ? params._meta : {};
  return {
    ...params,
    _meta: {
      ...meta,
      [META.protocolVersion]: envelope.protocolVersion,
      [META.clientCapabilities]: envelope.clientCapabilities,
      [META.clientInfo]: envelope.clientInfo,
      ...(envelope.logLevel === undefined ? {} : { [META.logLevel]: envelope.logLevel }),
    },
  };
}

/** The methods whose answer may be `input_required` (MRTR: `tools/call`, `prompts/get`, `resources/read`). */
export const INPUT_REQUIRED_METHODS: readonly string[] = ["tools/call", "prompts/get", "resources/read"];

/** How a modern result reads: finished, or asking for input first. */
export type Outcome =
  | { kind: "complete"; result: JsonObject }
  | { kind: "input_required"; inputRequests: Record<string, JsonObject>; requestState?: string }
  /** A `tools/call` answered with a task (the tasks extension, modern-tasks.ts): the CreateTaskResult as it came. */
  | { kind: "task"; created: JsonObject }
  | { kind: "invalid"; why: string };

/**
 * Read a result of a modern server. An absent `resultType` is `complete` (the spec's rule for
 * older servers); an unknown one is invalid, as the spec says a client must treat it. The
 * complete result comes back without the envelope-level fields (`resultType`, the server's
 * `serverInfo` in `_meta`): they describe this exchange, not the content relayed on.
 */
export function readOutcome(method: string, result: JsonObject): Outcome {
  const type = result.resultType ?? "complete";
  if (type === "complete") return { kind: "complete", result: contentOf(result) };
  if (type === "task" && method === "tools/call" && typeof result.taskId === "string") return { kind: "task", created: result };
  if (type !== "input_required") return { kind: "invalid", why: `an unknown resultType ${JSON.stringify(type)}` };
  if (!INPUT_REQUIRED_METHODS.includes(method)) return { kind: "invalid", why: `input_required, which ${method} may not answer` };
  const requests = result.inputRequests;
  const state = result.requestState;
  if (requests !== undefined && !isObject(requests)) return { kind: "invalid", why: "input_required with an inputRequests that is not an object" };
  if (state !== undefined && typeof state !== "string") return { kind: "invalid", why: "input_required with a requestState that is not a string" };
  if (requests === undefined && state === undefined) return { kind: "invalid", why: "input_required with neither inputRequests nor requestState" };
  const inputRequests: Record<string, JsonObject> = {};
  for (const [key, request] of Object.entries(requests ?? {})) {
    if (!isObject(request) || typeof request.method !== "string") return { kind: "invalid", why: `input request "${key}" has no method` };
    inputRequests[key] = request;
  }
  return { kind: "input_required", inputRequests, ...(state === undefined ? {} : { requestState: state }) };
}

/** A result without `resultType` and the server's own `serverInfo`. */
export function contentOf(result: JsonObject): JsonObject {
  const { resultType: _type, ...rest } = result;
  return withoutMetaKeys(rest, [META.serverInfo]);
}

/** `value` with these keys gone from its `_meta`, and `_meta` gone when nothing else was in it. */
export function withoutMetaKeys(value: JsonObject, keys: readonly string[]): JsonObject {
  if (!isObject(value._meta) || !keys.some((key) => key in (value._meta as JsonObject))) return value;
  const meta = Object.fromEntries(Object.entries(value._meta).filter(([key]) => !keys.includes(key)));
  const { _meta: _dropped, ...rest } = value;
  return Object.keys(meta).length ? { ...rest, _meta: meta } : rest;
}

/**
 * An answer to one input request, shaped as the 2026 `InputResponse` it stands for: an
 * `ElicitResult` is `{action, content?}`, a `ListRootsResult` `{roots}`; a sampling result keeps
 * the fields of `CreateMessageResult`. What else a legacy answer carried (`_meta`) has no place.
 */
export function inputResponse(method: string, answer: JsonObject): JsonObject {
  const keep = INPUT_RESPONSE_FIELDS[method];
  if (!keep) return answer;
  return Object.fromEntries(Object.entries(answer).filter(([key]) => keep.includes(key)));
}

const INPUT_RESPONSE_FIELDS: Record<string, readonly string[]> = {
  "elicitation/create": ["action", "content"],
  "roots/list": ["roots"],
  "sampling/createMessage": ["_meta", "role", "content", "model", "stopReason"],
};

/** What `server/discover` told mcpx, read defensively. */
export interface Discovered {
  supportedVersions: string[];
  capabilities: JsonObject;
  serverInfo: JsonObject | undefined;
  instructions: string | undefined;
}

export function readDiscover(result: JsonObject): Discovered | undefined {
  const versions = result.supportedVersions;
  if (!Array.isArray(versions) || !versions.every((version) => typeof version === "string")) return undefined;
  const meta = isObject(result._meta) ? result._meta : {};
  const serverInfo = meta[META.serverInfo];
  return {
    supportedVersions: versions as string[],
    capabilities: isObject(result.capabilities) ? result.capabilities : {},
    serverInfo: isObject(serverInfo) ? serverInfo : undefined,
    instructions: typeof result.instructions === "string" ? result.instructions : undefined,
  };
}

/** The revisions a `-32022` error says the server supports, if it says. */
export function supportedFromError(data: unknown): string[] | undefined {
  const supported = isObject(data) ? data.supported : undefined;
  return Array.isArray(supported) && supported.every((version) => typeof version === "string") ? (supported as string[]) : undefined;
}

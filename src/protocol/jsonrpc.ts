/**
 * JSON-RPC 2.0 message shapes as MCP uses them, and a classifier for untrusted input.
 * Pure: no I/O.
 */

export type RequestId = string | number;
export type JsonObject = Record<string, unknown>;

export interface JsonRpcRequest {
  jsonrpc: "2.0";
  id: RequestId;
  method: string;
  params?: JsonObject;
}

export interface JsonRpcNotification {
  jsonrpc: "2.0";
  method: string;
  params?: JsonObject;
}

export interface JsonRpcResult {
  jsonrpc: "2.0";
  id: RequestId;
  result: JsonObject;
}

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export interface JsonRpcError {
  jsonrpc: "2.0";
  /** Absent (or null, from peers that follow JSON-RPC 2.0 to the letter) when the request's id could not be read. */
  id?: RequestId | null;
  error: JsonRpcErrorObject;
}

export type JsonRpcResponse = JsonRpcResult | JsonRpcError;
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

/** Standard JSON-RPC codes, and the ones MCP or mcpx give a meaning. */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** mcpx: the upstream that owns the call is not running or went away mid-call. */
  UpstreamUnavailable: -32000,
  /** mcpx: the upstream did not answer within its timeout. */
  RequestTimeout: -32001,
  /** MCP (legacy revisions): a resource that does not exist. */
  ResourceNotFound: -32002,
  /** MCP 2025-11-25: the request needs URL-mode elicitation first. */
  UrlElicitationRequired: -32042,
} as const;

export function isRequest(message: JsonRpcMessage): message is JsonRpcRequest {
  return "method" in message && "id" in message && message.id !== undefined;
}

export function isNotification(message: JsonRpcMessage): message is JsonRpcNotification {
  return "method" in message && !("id" in message && message.id !== undefined);
}

export function isResponse(message: JsonRpcMessage): message is JsonRpcResponse {
  return !("method" in message) && ("result" in message || "error" in message);
}

export function isErrorResponse(message: JsonRpcMessage): message is JsonRpcError {
  return isResponse(message) && "error" in message;
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isId(value: unknown): value is RequestId {
  return typeof value === "string" || (typeof value === "number" && Number.isFinite(value));
}

/** The outcome of reading one untrusted value as a JSON-RPC message. */
export type Classified = { ok: true; message: JsonRpcMessage } | { ok: false; id: RequestId | null; error: JsonRpcErrorObject };

/** Check that a parsed JSON value is a well-formed JSON-RPC 2.0 message. */
export function classify(value: unknown): Classified {
  const invalid = (why: string, id: RequestId | null = null): Classified => ({
    ok: false,
    id,
    error: { code: ErrorCode.InvalidRequest, message: `Invalid JSON-RPC message: ${why}` },
  });
  if (!isObject(value)) return invalid("expected an object");
  const id = isId(value.id) ? value.id : null;
  if (value.jsonrpc !== "2.0") return invalid('"jsonrpc" must be "2.0"', id);
  if ("params" in value && value.params !== undefined && !isObject(value.params)) {
    return invalid('"params" must be an object', id);
  }
  if ("method" in value) {
    if (typeof value.method !== "string" || value.method === "") return invalid('"method" must be a non-empty string', id);
    if ("id" in value && value.id !== undefined && !isId(value.id)) return invalid('"id" must be a string or a number');
    return { ok: true, message: value as unknown as JsonRpcMessage };
  }
  if ("result" in value || "error" in value) {
    // An error about a request whose id could not be read has a null id (JSON-RPC) or none (MCP 2025-11-25).
    const idOptional = "error" in value && !("result" in value);
    if (!isId(value.id) && value.id !== null && !(idOptional && value.id === undefined)) return invalid('a response needs an "id"');
    if ("result" in value && !isObject(value.result)) return invalid('"result" must be an object', id);
    if ("error" in value) {
      const error = value.error;
      if (!isObject(error) || typeof error.code !== "number" || typeof error.message !== "string") {
        return invalid('"error" must have a numeric "code" and a string "message"', id);
      }
    }
    return { ok: true, message: value as unknown as JsonRpcMessage };
  }
  return invalid("neither a request, a notification nor a response", id);
}

/** Parse one frame of text. Errors come back as values, ready to send. */
export function parseFrame(text: string): Classified {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      id: null,
      error: { code: ErrorCode.ParseError, message: `Parse error: ${(error as Error).message}` },
    };
  }
  return classify(value);
}

export function resultResponse(id: RequestId, result: JsonObject): JsonRpcResult {
  return { jsonrpc: "2.0", id, result };
}

/** An error response; without an id when the request's id is unknown, as MCP's schema (2025-11-25) has it. */
export function errorResponse(id: RequestId | null, error: JsonRpcErrorObject): JsonRpcError {
  return id === null ? { jsonrpc: "2.0", error } : { jsonrpc: "2.0", id, error };
}

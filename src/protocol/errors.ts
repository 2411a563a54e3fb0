/**
 * The two families of errors in mcpx.
 *
 * - `RpcError` crosses the wire: it carries a JSON-RPC code and becomes an error response.
 * - `GatewayError` is local: it carries a stable string code for logs, the CLI and tests.
 *   When one must reach a peer, `toWireError` maps it to a JSON-RPC code.
 */
import { ErrorCode, type JsonRpcErrorObject } from "./jsonrpc.js";

export class RpcError extends Error {
  override readonly name = "RpcError";
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }

  static fromWire(error: JsonRpcErrorObject): RpcError {
    return new RpcError(error.code, error.message, error.data);
  }

  toWire(): JsonRpcErrorObject {
    return this.data === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, data: this.data };
  }
}

export type GatewayErrorCode =
  | "UPSTREAM_UNAVAILABLE"
  | "UPSTREAM_EXITED"
  | "UPSTREAM_TIMEOUT"
  | "UPSTREAM_PROTOCOL"
  | "CONNECTION_CLOSED"
  | "MESSAGE_TOO_LARGE"
  | "CANCELLED"
  | "CONFIG_INVALID"
  | "STORE_UNAVAILABLE"
  /** The server requires a sign-in (OAuth) that has not happened: declined, expired, or failed. */
  | "SIGN_IN_REQUIRED";

const WIRE_CODE: Record<GatewayErrorCode, number> = {
  UPSTREAM_UNAVAILABLE: ErrorCode.UpstreamUnavailable,
  UPSTREAM_EXITED: ErrorCode.UpstreamUnavailable,
  UPSTREAM_TIMEOUT: ErrorCode.RequestTimeout,
  UPSTREAM_PROTOCOL: ErrorCode.InternalError,
  CONNECTION_CLOSED: ErrorCode.UpstreamUnavailable,
  MESSAGE_TOO_LARGE: ErrorCode.InvalidRequest,
  CANCELLED: ErrorCode.InternalError,
  CONFIG_INVALID: ErrorCode.InternalError,
  STORE_UNAVAILABLE: ErrorCode.InternalError,
  SIGN_IN_REQUIRED: ErrorCode.UpstreamUnavailable,
};

export class GatewayError extends Error {
  override readonly name = "GatewayError";
  constructor(
    readonly code: GatewayErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

/** Turn anything thrown into an error object fit to send. Unknown errors become -32603. */
export function toWireError(error: unknown): JsonRpcErrorObject {
  if (error instanceof RpcError) return error.toWire();
  if (error instanceof GatewayError) {
    return { code: WIRE_CODE[error.code], message: error.message, data: { code: error.code, ...error.details } };
  }
  return { code: ErrorCode.InternalError, message: "Internal error in mcpx (see its log)" };
}

export const methodNotFound = (method: string): RpcError => new RpcError(ErrorCode.MethodNotFound, `Method not found: ${method}`);

export const invalidParams = (why: string): RpcError => new RpcError(ErrorCode.InvalidParams, `Invalid params: ${why}`);

/** The modern era's own error codes (2026-07-28, basic/index.mdx and schema.ts). */
import { RpcError } from "../../protocol/errors.js";

export const HEADER_MISMATCH = -32020;
export const MISSING_CLIENT_CAPABILITY = -32021;
export const UNSUPPORTED_PROTOCOL_VERSION = -32022;

export const headerMismatch = (why: string): RpcError => new RpcError(HEADER_MISMATCH, `Header mismatch: ${why}`);

export const unsupportedVersion = (requested: string, supported: readonly string[]): RpcError =>
  new RpcError(
    UNSUPPORTED_PROTOCOL_VERSION,
    `Unsupported protocol version ${JSON.stringify(requested)}: mcpx serves ${supported.join(", ")} per request (and older revisions after initialize)`,
    { supported: [...supported], requested },
  );

/** The modern era's own error codes (2026-07-28, basic/index.mdx and schema.ts). */
import { RpcError } from "../../protocol/errors.js";
import { MODERN_ERROR } from "../../protocol/modern.js";

export const HEADER_MISMATCH = MODERN_ERROR.HeaderMismatch;

export const headerMismatch = (why: string): RpcError => new RpcError(HEADER_MISMATCH, `Header mismatch: ${why}`);

export const unsupportedVersion = (requested: string, supported: readonly string[]): RpcError =>
  new RpcError(
    MODERN_ERROR.UnsupportedProtocolVersion,
    `Unsupported protocol version ${JSON.stringify(requested)}: mcpx serves ${supported.join(", ")} per request (and older revisions after initialize)`,
    { supported: [...supported], requested },
  );

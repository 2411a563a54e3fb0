/**
 * How upstream names become the names hosts see, and which names belong to whom.
 *
 * `<server>__<name>`, or the bare name for a passthrough server. Tool names are limited to
 * 64 characters (SEP-986); a longer one is cut and given a short hash of the full name, so the
 * same upstream name always maps to the same exposed name.
 */
import { createHash } from "node:crypto";

export const SEPARATOR = "__";
export const MAX_NAME_LENGTH = 64;
const HASH_LENGTH = 8;

/** mcpx's own tools (`mcpx__answer_question`, …) live here; no upstream item may. */
export const RESERVED_PREFIX = "mcpx__";
/** mcpx's resource aliases (`mcpx://<server>/…`) use this scheme; no upstream URI may. */
export const RESERVED_SCHEME = "mcpx:";

export function exposedName(server: string, name: string, passthrough: boolean): string {
  const full = passthrough ? name : `${server}${SEPARATOR}${name}`;
  if (full.length <= MAX_NAME_LENGTH) return full;
  const hash = createHash("sha256").update(full).digest("hex").slice(0, HASH_LENGTH);
  return `${full.slice(0, MAX_NAME_LENGTH - HASH_LENGTH - 1)}_${hash}`;
}

/** In any letter case: `MCPX__answer_question` would pass for mcpx's own tool to a reader. */
export function isReservedName(name: string): boolean {
  return name.toLowerCase().startsWith(RESERVED_PREFIX);
}

export function isReservedUri(uri: string): boolean {
  return uri.toLowerCase().startsWith(RESERVED_SCHEME);
}

/**
 * The configured server whose namespace `name` is in: `files__read` is `files`'s name
 * whether or not `files` is up, so no other server can take it, now or later.
 */
export function namespaceOf(name: string, servers: readonly string[]): string | undefined {
  const at = name.indexOf(SEPARATOR);
  if (at <= 0) return undefined;
  const prefix = name.slice(0, at);
  return servers.includes(prefix) ? prefix : undefined;
}

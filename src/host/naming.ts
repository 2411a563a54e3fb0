/**
 * How upstream names become the names hosts see.
 *
 * `<server>__<name>`, or the bare name for a passthrough server. Tool names are limited to
 * 64 characters (SEP-986); a longer one is cut and given a short hash of the full name, so the
 * same upstream name always maps to the same exposed name.
 */
import { createHash } from "node:crypto";

export const SEPARATOR = "__";
export const MAX_NAME_LENGTH = 64;
const HASH_LENGTH = 8;

export function exposedName(server: string, name: string, passthrough: boolean): string {
  const full = passthrough ? name : `${server}${SEPARATOR}${name}`;
  if (full.length <= MAX_NAME_LENGTH) return full;
  const hash = createHash("sha256").update(full).digest("hex").slice(0, HASH_LENGTH);
  return `${full.slice(0, MAX_NAME_LENGTH - HASH_LENGTH - 1)}_${hash}`;
}

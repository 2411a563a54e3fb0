/** Paging mcpx's own lists for hosts. Cursors are opaque to hosts and checked on the way back. */
import { invalidParams } from "../protocol/errors.js";
import type { JsonObject } from "../protocol/jsonrpc.js";

export const PAGE_SIZE = 100;

export function page(items: JsonObject[], key: string, cursor: unknown, size = PAGE_SIZE): JsonObject {
  const offset = cursor === undefined ? 0 : decode(cursor);
  const slice = items.slice(offset, offset + size);
  const next = offset + size;
  return next < items.length ? { [key]: slice, nextCursor: encode(next) } : { [key]: slice };
}

function encode(offset: number): string {
  return Buffer.from(JSON.stringify({ offset }), "utf8").toString("base64url");
}

function decode(cursor: unknown): number {
  if (typeof cursor !== "string") throw invalidParams("cursor must be a string");
  try {
    const value = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as { offset?: unknown };
    if (typeof value.offset === "number" && Number.isInteger(value.offset) && value.offset >= 0) return value.offset;
  } catch {
    // fall through to the error below
  }
  throw invalidParams(`unknown cursor ${JSON.stringify(cursor)}`);
}

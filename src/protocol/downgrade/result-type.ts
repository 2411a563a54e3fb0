/**
 * The result fields the modern era (2026-07-28) requires on every result: `resultType`, and on
 * the cacheable results (lists and reads) `ttlMs` and `cacheScope`. Older revisions have none of
 * them, so they are removed there (a modern upstream's result going to a legacy host).
 *
 * Pure: returns a new object.
 */
import type { JsonObject } from "../jsonrpc.js";
import { defines, type Revision } from "../revisions.js";

/** Results that are `CacheableResult`s in 2026-07-28. */
const CACHEABLE = new Set(["tools/list", "prompts/list", "resources/list", "resources/templates/list", "resources/read", "server/discover"]);

/**
 * mcpx's catalogue changes whenever an upstream's does (hosts hear of it by list_changed), and
 * a per-host server's answers are that host's: nothing is to be cached, and nothing shared.
 */
const NOT_CACHED = { ttlMs: 0, cacheScope: "private" } as const;

export function withResultFields(method: string, result: JsonObject, revision: Revision): JsonObject {
  if (!defines(revision, "resultType")) {
    const { resultType: _type, ttlMs: _ttl, cacheScope: _scope, ...rest } = result;
    return rest;
  }
  const out: JsonObject = { ...result, resultType: typeof result.resultType === "string" ? result.resultType : "complete" };
  if (CACHEABLE.has(method) && out.resultType === "complete") {
    if (typeof out.ttlMs !== "number") out.ttlMs = NOT_CACHED.ttlMs;
    if (out.cacheScope !== "public" && out.cacheScope !== "private") out.cacheScope = NOT_CACHED.cacheScope;
  }
  return out;
}

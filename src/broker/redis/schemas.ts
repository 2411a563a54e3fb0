/**
 * The shared schema cache on Redis: `schema:<key>` (the definition's SHA-256) holds an entry's JSON text, and the sorted
 * set `schemas` each key by when its entry was read. A put compares and trims in one script:
 * an instance that read earlier never writes over a later read, and past the count bound the
 * least recently read entries go, so instances writing at once cannot overrun it.
 */
import type { SchemaTable } from "../store-api.js";
import type { RedisLink } from "./link.js";
import { LuaScript } from "./lua.js";

/** Entries kept at most (as the state directory's cache, discovery/cache-writer.ts MAX_ENTRIES). */
export const SHARED_SCHEMAS_MAX = 500;
/** An entry's JSON text at most: a catalogue of a few hundred tools with their schemas is well under it. */
export const SHARED_SCHEMA_MAX_BYTES = 2 * 1024 * 1024;

/** ARGV: key, entry, read_at_ms, max. 1 when kept, 0 when a later read is kept already. */
const PUT = new LuaScript(`
local index = P .. 'schemas'
local key, readAt = ARGV[2], tonumber(ARGV[4])
local kept = redis.call('ZSCORE', index, key)
if kept and tonumber(kept) > readAt then return 0 end
redis.call('SET', P .. 'schema:' .. key, ARGV[3])
redis.call('ZADD', index, readAt, key)
local over = redis.call('ZCARD', index) - tonumber(ARGV[5])
if over > 0 then
  for _, old in ipairs(redis.call('ZRANGE', index, 0, over - 1)) do redis.call('DEL', P .. 'schema:' .. old) end
  redis.call('ZREMRANGEBYRANK', index, 0, over - 1)
end
return 1
`);

export interface SchemaBounds {
  max: number;
  maxBytes: number;
}

export class RedisSchemas implements SchemaTable {
  constructor(
    private readonly link: RedisLink,
    private readonly bounds: SchemaBounds = { max: SHARED_SCHEMAS_MAX, maxBytes: SHARED_SCHEMA_MAX_BYTES },
  ) {}

  async put(key: string, entry: string, readAtMs: number): Promise<boolean> {
    const bytes = Buffer.byteLength(entry);
    if (bytes > this.bounds.maxBytes)
      throw new Error(`the schema cache entry ${key} is ${bytes} bytes; the shared store keeps entries of at most ${this.bounds.maxBytes}`);
    return (await this.link.run(PUT, key, entry, readAtMs, this.bounds.max)) === 1;
  }

  async get(keys: readonly string[]): Promise<Array<string | undefined>> {
    if (keys.length === 0) return [];
    const values = await this.link.call((client) => client.mget(keys.map((key) => this.link.key(`schema:${key}`))));
    // One written by a build with a larger bound is left alone, as one never written.
    return values.map((value) => (value === null || Buffer.byteLength(value) > this.bounds.maxBytes ? undefined : value));
  }

  async list(): Promise<Array<{ key: string; readAtMs: number }>> {
    const flat = await this.link.call((client) => client.zrevrange(this.link.key("schemas"), 0, -1, "WITHSCORES"));
    const out: Array<{ key: string; readAtMs: number }> = [];
    for (let i = 0; i + 1 < flat.length; i += 2) out.push({ key: flat[i]!, readAtMs: Number(flat[i + 1]) });
    return out;
  }
}

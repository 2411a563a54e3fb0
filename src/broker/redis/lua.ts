/**
 * Lua scripts run by Redis as one step each: what must be a compare-and-set (settling a
 * question, delivering it once, claiming a page code) reads and writes with no other client in
 * between. A script is sent by its SHA1 and, when the server does not know it yet (a restart
 * forgets them), once in full.
 *
 * Every script gets the key prefix as ARGV[1] and computes its keys from it: mcpx needs a
 * standalone Redis or Valkey (or one primary), not Redis Cluster.
 */
import { createHash } from "node:crypto";
import type { Redis } from "ioredis";

/** Helpers every script starts with: the prefix, and telling the other instances that something changed. */
const PRELUDE = `
local P = ARGV[1]
local function changed(what) redis.call('PUBLISH', P .. 'changed', what) end
local function refuse(why) error('MCPX_' .. why) end
`;

export class LuaScript {
  readonly #lua: string;
  readonly #sha: string;

  constructor(body: string) {
    this.#lua = PRELUDE + body;
    this.#sha = createHash("sha1").update(this.#lua).digest("hex");
  }

  async run(client: Redis, args: ReadonlyArray<string | number>): Promise<unknown> {
    try {
      return await client.evalsha(this.#sha, 0, ...args);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.includes("NOSCRIPT")) throw error;
      return client.eval(this.#lua, 0, ...args);
    }
  }
}

/** A flat [field, value, …] reply (HGETALL from a script) as an object. */
export function pairs(flat: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!Array.isArray(flat)) return out;
  for (let i = 0; i + 1 < flat.length; i += 2) out[String(flat[i])] = String(flat[i + 1]);
  return out;
}

/** A script that returns the hash of every member of a sorted set, in its order: one round trip, one moment. */
export const HASHES_OF = new LuaScript(`
local ids = redis.call('ZRANGE', P .. ARGV[2], 0, -1)
local out = {}
for _, id in ipairs(ids) do
  local hash = redis.call('HGETALL', P .. ARGV[3] .. id)
  if #hash > 0 then table.insert(out, hash) end
end
return out
`);

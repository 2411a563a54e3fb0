/**
 * The web page's tab credentials on Redis: `page-session:<digest>` holds whose it is and until
 * when, and expires by itself (PX); the sorted sets `page-sessions` (every one) and
 * `page-sessions-of:<identity>` (each identity's), digest by expiry, keep the bounds. Signing a
 * tab in checks and trims them in one script, so instances signing tabs in at once cannot
 * overrun them.
 */
import type { PageSessionLimits, PageSessionTable } from "../store-api.js";
import type { RedisLink } from "./link.js";
import { LuaScript } from "./lua.js";

/** ARGV: digest, identity, expires_ms, now, per_identity, total, the value to keep. */
const OPEN = new LuaScript(`
local digest, identity, expires, now = ARGV[2], ARGV[3], tonumber(ARGV[4]), ARGV[5]
local all = P .. 'page-sessions'
local own = P .. 'page-sessions-of:' .. identity
redis.call('ZREMRANGEBYSCORE', all, '-inf', now)
redis.call('ZREMRANGEBYSCORE', own, '-inf', now)
local function drop(oldest)
  redis.call('ZREM', all, oldest)
  redis.call('DEL', P .. 'page-session:' .. oldest)
end
while redis.call('ZCARD', own) >= tonumber(ARGV[6]) do
  local oldest = redis.call('ZRANGE', own, 0, 0)[1]
  redis.call('ZREM', own, oldest)
  drop(oldest)
end
while redis.call('ZCARD', all) >= tonumber(ARGV[7]) do
  local oldest = redis.call('ZRANGE', all, 0, 0)[1]
  local kept = redis.call('GET', P .. 'page-session:' .. oldest)
  if kept then redis.call('ZREM', P .. 'page-sessions-of:' .. cjson.decode(kept).identity, oldest) end
  drop(oldest)
end
local ttl = math.max(1, expires - tonumber(now))
redis.call('SET', P .. 'page-session:' .. digest, ARGV[8], 'PX', ttl)
redis.call('ZADD', all, expires, digest)
redis.call('ZADD', own, expires, digest)
redis.call('PEXPIRE', own, ttl)
return 1
`);

/** ARGV: nothing. Every page session's keys. */
const CLEAR = new LuaScript(`
local all = P .. 'page-sessions'
for _, digest in ipairs(redis.call('ZRANGE', all, 0, -1)) do
  local kept = redis.call('GET', P .. 'page-session:' .. digest)
  if kept then redis.call('DEL', P .. 'page-sessions-of:' .. cjson.decode(kept).identity) end
  redis.call('DEL', P .. 'page-session:' .. digest)
end
redis.call('DEL', all)
return 1
`);

export class RedisPageSessions implements PageSessionTable {
  constructor(private readonly link: RedisLink) {}

  async open(digest: string, identity: string, expiresMs: number, limits: PageSessionLimits, now = Date.now()): Promise<void> {
    const kept = JSON.stringify({ identity, expiresMs });
    await this.link.run(OPEN, digest, identity, expiresMs, now, limits.perIdentity, limits.total, kept);
  }

  async identityOf(digest: string, now = Date.now()): Promise<string | undefined> {
    const kept = await this.link.call((client) => client.get(this.link.key(`page-session:${digest}`)));
    if (kept === null) return undefined;
    const { identity, expiresMs } = JSON.parse(kept) as { identity: string; expiresMs: number };
    return expiresMs > now ? identity : undefined;
  }

  async clear(): Promise<void> {
    await this.link.run(CLEAR);
  }
}

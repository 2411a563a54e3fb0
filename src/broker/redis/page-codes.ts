/**
 * The web page's one-time codes already used: the sorted set `page-codes`, nonce by expiry.
 * Claiming forgets the expired ones and takes the nonce in one step, as SQLite's transaction.
 */
import type { PageCodeTable } from "../store-api.js";
import type { RedisLink } from "./link.js";
import { LuaScript } from "./lua.js";

/** ARGV: nonce, expires_ms, now. 1 the first time. */
const CLAIM = new LuaScript(`
local codes = P .. 'page-codes'
redis.call('ZREMRANGEBYSCORE', codes, '-inf', ARGV[4])
return redis.call('ZADD', codes, 'NX', ARGV[3], ARGV[2])
`);

export class RedisPageCodes implements PageCodeTable {
  constructor(private readonly link: RedisLink) {}

  async claim(nonce: string, expiresMs: number, now = Date.now()): Promise<boolean> {
    return (await this.link.run(CLAIM, nonce, expiresMs, now)) === 1;
  }

  async count(): Promise<number> {
    return this.link.call((client) => client.zcard(this.link.key("page-codes")));
  }
}

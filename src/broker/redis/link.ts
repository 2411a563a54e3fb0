/**
 * What every table of the Redis store shares: the command connection, the key prefix, and the
 * rule that any failure of the connection reaches the caller as STORE_UNAVAILABLE.
 */
import type { Redis } from "ioredis";
import { storeError } from "./connection.js";
import { HASHES_OF, type LuaScript, pairs } from "./lua.js";

export class RedisLink {
  constructor(
    readonly client: Redis,
    readonly prefix: string,
    readonly where: string,
  ) {}

  key(name: string): string {
    return this.prefix + name;
  }

  /** Run a script with the prefix as its first argument. */
  async run(script: LuaScript, ...args: ReadonlyArray<string | number>): Promise<unknown> {
    try {
      return await script.run(this.client, [this.prefix, ...args]);
    } catch (error) {
      throw storeError(error, this.where, this.client);
    }
  }

  /** Run plain commands. */
  async call<T>(command: (client: Redis) => Promise<T>): Promise<T> {
    try {
      return await command(this.client);
    } catch (error) {
      throw storeError(error, this.where, this.client);
    }
  }

  /** The hashes (`<hashPrefix><id>`) of the members of the sorted set `index`, in its order. */
  async hashesOf(index: string, hashPrefix: string): Promise<Array<Record<string, string>>> {
    const replies = (await this.run(HASHES_OF, index, hashPrefix)) as unknown[];
    return replies.map(pairs);
  }
}

/** A hash field that may be absent, as SQLite's NULL. */
export function orNull(hash: Record<string, string>, field: string): string | null {
  return hash[field] ?? null;
}

export function numberOrNull(hash: Record<string, string>, field: string): number | null {
  const value = hash[field];
  return value === undefined ? null : Number(value);
}

/** [field, value, …] of the fields that are not null, for HSET. */
export function fieldsOf(values: Record<string, string | number | null | undefined>): Array<string | number> {
  const out: Array<string | number> = [];
  for (const [field, value] of Object.entries(values)) if (value !== null && value !== undefined) out.push(field, value);
  return out;
}

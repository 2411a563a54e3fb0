/**
 * The one way to open the broker's store: the state directory's SQLite file by default, or a
 * shared Redis/Valkey store for several instances (`"store": {"url": "redis://…"}`). The Redis
 * store is imported only when asked for, so one machine never loads its client.
 */
import { GatewayError } from "../protocol/errors.js";
import { SqliteStore } from "./sqlite/sqlite-store.js";
import type { BrokerStore } from "./store-api.js";

export interface StoreOptions {
  /** This process's state directory (call logs, the schema cache, and the SQLite file by default). */
  stateDir: string;
  /** A `redis://` or `rediss://` URL: the shared store. */
  url?: string;
}

/** What `src/broker/redis/open.js` provides. */
interface RedisModule {
  openRedisStore(url: string, stateDir: string): Promise<BrokerStore>;
}

export async function openStore(options: StoreOptions): Promise<BrokerStore> {
  if (options.url === undefined) return SqliteStore.open(options.stateDir);
  if (!/^rediss?:\/\//i.test(options.url)) {
    throw new GatewayError("STORE_UNAVAILABLE", `store.url must be a redis:// or rediss:// URL (got ${withoutPassword(options.url)})`);
  }
  let redis: RedisModule;
  try {
    redis = (await import("./redis/open.js")) as RedisModule;
  } catch (error) {
    throw new GatewayError(
      "STORE_UNAVAILABLE",
      `the Redis store is not in this build of mcpx (${(error as Error).message}); remove store.url to use the state directory's SQLite store`,
      { url: withoutPassword(options.url) },
    );
  }
  return redis.openRedisStore(options.url, options.stateDir);
}

/** A URL as it may be shown: its password replaced. */
export function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "(not a URL)";
  }
}

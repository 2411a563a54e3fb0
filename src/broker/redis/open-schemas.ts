/**
 * The shared schema cache alone, for a command that only fetches and puts entries (a discovery
 * command meeting a server never read, `mcpx refresh` in process): one connection, no change
 * feed, no heartbeat. Such a command can do without the store, so it waits for it briefly: a
 * Redis that does not answer within the connect timeout is given up on at once (the socket
 * dropped, so the command's process does not stay behind for it).
 */
import { GatewayError } from "../../protocol/errors.js";
import type { SchemaTable } from "../store-api.js";
import { type ConnectionTimings, DEFAULT_TIMINGS, redisClient, redisTarget, storeError } from "./connection.js";
import { RedisLink } from "./link.js";
import { RedisSchemas } from "./schemas.js";

export interface OpenedSchemas {
  schemas: SchemaTable;
  /** What to name in messages: the URL without its password. */
  where: string;
  close(): Promise<void>;
}

/** Connect (failing with STORE_UNAVAILABLE within the connect timeout) and hand back the table. */
export async function openSharedSchemas(url: string, timings: Partial<ConnectionTimings> = {}): Promise<OpenedSchemas> {
  const target = redisTarget(url);
  const { connectTimeoutMs, ...rest } = { ...DEFAULT_TIMINGS, ...timings };
  const client = redisClient(target, { connectTimeoutMs, ...rest }, "mcpx-schemas");
  let timer: NodeJS.Timeout | undefined;
  try {
    // ioredis's own timeout covers the TCP connect, not its ready check: a Redis that accepts and never answers would hold it for seconds.
    await Promise.race([
      client.connect(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error("it did not answer in time")), connectTimeoutMs);
      }),
    ]);
  } catch (error) {
    client.disconnect();
    // ioredis ends the socket politely and waits up to 2 s for a peer that never answers to close it.
    client.stream?.destroy();
    throw error instanceof GatewayError ? error : storeError(error, target.where);
  } finally {
    clearTimeout(timer);
  }
  const link = new RedisLink(client, target.prefix, target.where);
  return {
    schemas: new RedisSchemas(link),
    where: target.where,
    close: async () => {
      try {
        await client.quit();
      } catch {
        client.disconnect();
      }
    },
  };
}

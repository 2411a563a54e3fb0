/**
 * The connection to Redis or Valkey, made so that no call ever hangs: commands are not queued
 * while the server is unreachable (they fail at once), a reply that does not come within the
 * command timeout fails the command, and the client reconnects by itself, quickly, when the
 * server is back. Every failure of the connection is a STORE_UNAVAILABLE naming the URL
 * without its password.
 */
import { Redis, type RedisOptions } from "ioredis";
import { GatewayError } from "../../protocol/errors.js";

export const DEFAULT_PREFIX = "mcpx:";

export interface RedisTarget {
  /** What ioredis connects to: the URL without mcpx's own query parameters. */
  url: string;
  /** The URL to name in messages: no password. */
  where: string;
  /** Every key mcpx writes starts with it (`?prefix=` in the URL; `mcpx:` by default). */
  prefix: string;
}

/** Read `redis://[user[:password]@]host[:port][/db][?prefix=…]` (or rediss:// for TLS). */
export function redisTarget(url: string): RedisTarget {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new GatewayError("STORE_UNAVAILABLE", `the store URL is not a URL (expected redis://host:port or rediss://…)`);
  }
  if (parsed.protocol !== "redis:" && parsed.protocol !== "rediss:") {
    throw new GatewayError("STORE_UNAVAILABLE", `the store URL ${withoutPassword(parsed)} is not redis:// or rediss://`);
  }
  const prefix = parsed.searchParams.get("prefix") ?? DEFAULT_PREFIX;
  parsed.searchParams.delete("prefix");
  return { url: parsed.toString(), where: withoutPassword(parsed), prefix };
}

function withoutPassword(url: URL): string {
  const shown = new URL(url.toString());
  shown.password = "";
  shown.searchParams.delete("prefix");
  return shown.toString();
}

export interface ConnectionTimings {
  /** How long connecting may take before it counts as a failure. */
  connectTimeoutMs: number;
  /** How long a command may wait for its reply. */
  commandTimeoutMs: number;
  /** The longest pause between two attempts to reconnect. */
  maxReconnectDelayMs: number;
}

export const DEFAULT_TIMINGS: ConnectionTimings = { connectTimeoutMs: 1_000, commandTimeoutMs: 1_500, maxReconnectDelayMs: 1_000 };

/** A client that fails fast while the server is away and comes back by itself. Not yet connected. */
export function redisClient(target: RedisTarget, timings: ConnectionTimings, name: string): Redis {
  const options: RedisOptions = {
    lazyConnect: true,
    connectionName: name,
    // Never queue a command for later: a caller hears at once that the store is away.
    enableOfflineQueue: false,
    // A command in flight when the connection drops fails with it rather than being sent again later.
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    connectTimeout: timings.connectTimeoutMs,
    commandTimeout: timings.commandTimeoutMs,
    retryStrategy: (times) => Math.min(50 * 2 ** Math.min(times, 10), timings.maxReconnectDelayMs),
  };
  const client = new Redis(target.url, options);
  // ioredis reports connection errors as events too; the commands report them to their callers.
  client.on("error", () => {});
  return client;
}

/**
 * Why a server is too old for the store, from its INFO server text, or undefined. The scripts
 * need Redis 7 (XADD with `<ms>-*`, SET with both NX and GET); Valkey reports the Redis version
 * it is compatible with (7.2.4) as its redis_version.
 */
export function tooOld(info: string): string | undefined {
  const version = /^redis_version:(\d+)\.(\d+)/m.exec(info);
  if (!version) return "it does not say its version (INFO server has no redis_version)";
  return Number(version[1]) >= 7 ? undefined : `it is Redis ${version[1]}.${version[2]}; mcpx needs Redis 7 or later, or Valkey`;
}

/** Errors a Lua script of ours raises on purpose (a duplicate id): what the caller did, not the store being away. */
export const SCRIPT_ERROR = "MCPX_";

/**
 * The store-unavailable error for anything the connection threw, said in mcpx's words; a
 * script's own error stays what it was (without Redis's note of where in the script).
 */
export function storeError(error: unknown, where: string, client?: Redis): Error {
  const message = error instanceof Error ? error.message : String(error);
  const ours = message.indexOf(SCRIPT_ERROR);
  if (ours >= 0) return new Error(message.slice(ours + SCRIPT_ERROR.length).replace(/ script: \w+, on @user_script:\d+\.$/, ""));
  return new GatewayError(
    "STORE_UNAVAILABLE",
    `the Redis store ${where} cannot be used: ${why(message, client)}. Check that Redis is running and reachable; mcpx reconnects by itself.`,
    { where },
  );
}

function why(message: string, client: Redis | undefined): string {
  if (client && client.status !== "ready") return `it is not connected (${client.status})`;
  // The connection has just ended and ioredis has not yet noticed it closed.
  if (message.startsWith("Stream isn't writeable")) return "it is not connected";
  if (message === "Command timed out") return "it did not answer in time";
  if (message.startsWith("Connection is closed")) return "the connection was lost";
  return message;
}

/**
 * The schema cache a command shares with other instances through the config's Redis store
 * (`store.url`): opened only when this command has a server to read, so a command answered by
 * the files never loads the Redis client. A store that cannot be used is a line on stderr, and
 * the command reads the catalogue itself as it would without one: never an error, never a hang
 * (a Redis that does not answer within the connect timeout, a second, is given up on). One
 * connection to the schema table alone (broker/redis/open-schemas.ts), not the broker's store.
 */
import type { OpenedSchemas } from "../broker/redis/open-schemas.js";
import type { Config, ServerConfig } from "../config/types.js";
import { pullShared } from "../discovery/cache-pull.js";
import type { SharedSchemas } from "../discovery/cache-shared.js";
import type { Logger } from "../util/log.js";
import { inert } from "./inert.js";

export interface CommandSchemas {
  schemas: SharedSchemas;
  /** Fill the state directory's cache with the store's entries for these servers; the names written. */
  pull(servers: readonly ServerConfig[]): Promise<string[]>;
  close(): Promise<void>;
}

/** The config's shared schema cache, or undefined (no `store.url`, or a store that cannot be used: said on stderr). */
export async function openCommandSchemas(config: Config, stateDir: string): Promise<CommandSchemas | undefined> {
  if (config.store === undefined) return undefined;
  let opened: OpenedSchemas;
  try {
    // Loaded only here (the bundles keep it a chunk of its own); a build without it still runs the command.
    const { openSharedSchemas } = await import("../broker/redis/open-schemas.js");
    opened = await openSharedSchemas(config.store.url);
  } catch (error) {
    say(`the shared schema cache cannot be used (${message(error)})`);
    return undefined;
  }
  const { schemas } = opened;
  return {
    schemas,
    pull: async (servers) => {
      try {
        return await pullShared(stateDir, servers, schemas);
      } catch (error) {
        say(`could not fetch from the shared schema cache (${message(error)})`);
        return [];
      }
    },
    close: () => opened.close(),
  };
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function say(line: string): void {
  process.stderr.write(`mcpx: ${inert(line)}\n`);
}

/**
 * `serve` at start, before its upstreams: the store's entries for the servers this state
 * directory has no good read of, so the discovery commands and a server that cannot start here
 * (one waiting for a sign-in lists its last tools) have them at once. One request; a failure is
 * logged and the upstreams are read as always.
 */
export async function pullAtStart(servers: readonly ServerConfig[], stateDir: string, schemas: SharedSchemas, log: Logger): Promise<void> {
  try {
    const pulled = await pullShared(stateDir, servers, schemas);
    if (pulled.length > 0) log.info("schema cache entries fetched from the shared store", { servers: pulled });
  } catch (error) {
    log.warn("could not fetch from the shared schema cache; the servers' catalogues are read here", { error });
  }
}

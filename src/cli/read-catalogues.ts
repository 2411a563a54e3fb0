/**
 * Reading servers' catalogues now, in this process: start those upstreams behind a gateway that
 * writes the schema cache, wait until each is up or down, stop them. `mcpx refresh` and the
 * first discovery command on a server never read use it; the daemon may take its place later.
 */
import type { Config } from "../config/types.js";
import type { SharedSchemas } from "../discovery/cache-shared.js";
import { Gateway } from "../host/gateway.js";
import { createLogger } from "../util/log.js";
import { settled } from "./settled.js";

export interface CatalogueReadResult {
  server: string;
  ok: boolean;
  tools: number;
  /** Why the read failed. */
  reason?: string;
}

/**
 * Read the named servers' catalogues (all enabled ones when `names` is absent) into the cache
 * under `stateDir`, and into the `shared` store when given (done before this resolves).
 */
export async function readCatalogues(config: Config, stateDir: string, names?: readonly string[], shared?: SharedSchemas): Promise<CatalogueReadResult[]> {
  const servers = config.servers.filter((server) => !server.disabled && (names === undefined || names.includes(server.name)));
  if (servers.length === 0) return [];
  const gateway = new Gateway({ ...config, servers }, createLogger({}, "error"), { schemaCache: stateDir, ...(shared ? { sharedSchemas: shared } : {}) });
  try {
    await settled(gateway);
    return gateway.upstreams.map((upstream) =>
      upstream.state === "ready"
        ? { server: upstream.name, ok: true, tools: upstream.catalog.tools.length }
        : { server: upstream.name, ok: false, tools: 0, reason: upstream.reason ?? `still ${upstream.state}` },
    );
  } finally {
    await gateway.stop(); // waits for the cache to be written (and put in the shared store)
  }
}

/** `mcpx refresh [SERVER…]`: read catalogues now and write them to the schema cache. */
import { ensurePrivateDir, stateDir } from "../broker/state-dir.js";
import type { Config } from "../config/types.js";
import { didYouMean, nearest } from "../util/nearest.js";
import { Exit, CliError } from "./exit.js";
import { inert, inertJson } from "./inert.js";

export async function refresh(config: Config, names: string[], options: { json?: boolean; daemon?: boolean }): Promise<number> {
  const known = config.servers.map((server) => server.name);
  for (const name of names) {
    if (!known.includes(name)) throw new CliError(`no server named "${name}" in ${config.file}${didYouMean(nearest(name, known))}`, Exit.Usage);
  }
  const disabled = config.servers.filter((server) => server.disabled && names.includes(server.name)).map((server) => server.name);
  if (disabled.length > 0)
    throw new CliError(`${disabled.join(", ")} ${disabled.length === 1 ? "is" : "are"} disabled in ${config.file}; nothing to read`, Exit.Usage);
  const results = await readNow(config, names, options.daemon !== false);
  if (options.json) process.stdout.write(`${inertJson(JSON.stringify(results, null, 2))}\n`);
  else {
    for (const result of results) {
      process.stdout.write(
        result.ok
          ? `${inert(result.server)}: ${result.tools} tools\n`
          : `${inert(result.server)}: read failed, its last good read is kept: ${inert(result.reason ?? "")}\n`,
      );
    }
  }
  return results.every((result) => result.ok) ? Exit.Ok : Exit.Error;
}

/** The mcpx serving this config reads them on its running upstreams (a daemon is started if none runs); else a gateway started here. */
async function readNow(config: Config, names: string[], useDaemon: boolean): Promise<Array<{ server: string; ok: boolean; tools: number; reason?: string }>> {
  const { daemonWanted, refreshThroughDaemon } = await import("./daemon-use.js");
  if (!daemonWanted(!useDaemon)) {
    const dir = ensurePrivateDir(stateDir());
    const [{ readCatalogues }, { openCommandSchemas }] = await Promise.all([import("./read-catalogues.js"), import("./shared-schemas.js")]);
    // What is read here is put in the shared store too, for the other instances and machines.
    const shared = await openCommandSchemas(config, dir);
    try {
      return await readCatalogues(config, dir, names.length > 0 ? names : undefined, shared?.schemas);
    } finally {
      await shared?.close();
    }
  }
  if (names.length === 0) return refreshThroughDaemon(config.file);
  return (await Promise.all(names.map((name) => refreshThroughDaemon(config.file, name)))).flat();
}

/** Upstreams that reproduce "a broken server shows as starting" (fixtures/startup-race.mjs). */
import { writeFileSync } from "node:fs";
import { nodeServer, writeConfig, type TempConfig } from "./mcpx.js";

/**
 * `broken` fails at once, and its restart (1 s later) lingers 3 s before failing again; `slow`
 * is ready only once that restart has begun. A report made when `slow` is up sees `broken` mid-restart.
 */
export function startupRaceConfig(): TempConfig {
  const config = writeConfig({});
  const servers = { broken: nodeServer("startup-race.mjs", ["fail", config.dir]), slow: nodeServer("startup-race.mjs", ["slow", config.dir]) };
  writeFileSync(config.file, JSON.stringify({ mcpServers: servers }));
  return config;
}

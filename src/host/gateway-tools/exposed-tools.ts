/**
 * What a host's tools/list holds. `expose` "all": every tool of the catalogue, and mcpx__exec.
 * "discovery": mcpx's gateway tools (mcpx__exec among them) and the pinned tools, under the
 * names hosts call them by; the upstreams' other tools are reached through mcpx__search and
 * mcpx__call, or from a script.
 */
import type { Config } from "../../config/types.js";
import { discoveryName } from "../../discovery/records.js";
import type { JsonObject } from "../../protocol/jsonrpc.js";
import type { Catalogue } from "../catalogue.js";
import { gatewayToolDefinitions } from "./definitions.js";
import { execToolDefinition } from "./exec.js";

/** The tools the catalogue puts in every host's list (mcpx's question tools come on top, per host). */
export function listedTools(config: Config, catalogue: Catalogue): JsonObject[] {
  const servers = enabledServers(config);
  if (config.expose !== "discovery") return [...catalogue.tools, execToolDefinition(servers, config.scripts, false)];
  return [...gatewayToolDefinitions(servers), execToolDefinition(servers, config.scripts, true), ...pinnedTools(config, catalogue)];
}

/** The pinned tools the catalogue has, in the config's order, as hosts see them listed. */
export function pinnedTools(config: Config, catalogue: Catalogue): JsonObject[] {
  const byName = byDiscoveryName(catalogue);
  return config.pinned.flatMap((name): JsonObject[] => {
    const item = byName.get(name);
    return item ? [item] : [];
  });
}

/** Pinned names whose server is up but lists no such tool (a typo, or a tool it dropped or the config hides). */
export function missingPinned(config: Config, catalogue: Catalogue, readyServers: readonly string[]): string[] {
  if (config.expose !== "discovery") return [];
  const byName = byDiscoveryName(catalogue);
  return config.pinned.filter((name) => readyServers.includes(name.slice(0, name.indexOf("__"))) && !byName.has(name));
}

function byDiscoveryName(catalogue: Catalogue): Map<string, JsonObject> {
  const byName = new Map<string, JsonObject>();
  for (const item of catalogue.tools) {
    const owned = catalogue.tool(String(item.name));
    if (owned) byName.set(discoveryName(owned.server, owned.original), item);
  }
  return byName;
}

function enabledServers(config: Config): string[] {
  return config.servers.filter((server) => !server.disabled).map((server) => server.name);
}

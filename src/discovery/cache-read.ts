/**
 * What the discovery commands read: for a config, each server with its cache entry (or none),
 * how old it is, its state, and its tools after the config's filter, as ToolRecords with their
 * signatures. Reads files only: no server is started, and nothing slow is loaded.
 *
 * Without `schemas`, the view comes from the config's summary (cache-summary.ts: one small file
 * instead of every entry) when no entry was written since it was made; tools then carry no
 * input or output schema, and `entry` is absent.
 */
import type { Config, ServerConfig } from "../config/types.js";
import { hiddenBy } from "../config/tool-filter.js";
import type { CacheEntry } from "./cache-entry.js";
import { ageOf, type DiscoveryTool, type DiscoveryView, type ServerState, type ServerView } from "./cache-view.js";
import { definitionKey, definitionOf } from "./cache-key.js";
import { readEntry } from "./cache-read-entry.js";
import { currentGeneration, summaryView, writeSummary } from "./cache-summary.js";
import { signature } from "./signature.js";
import { toolRecord } from "./tool-records.js";

export type { DiscoveryTool, DiscoveryView, ServerState, ServerView } from "./cache-view.js";

/**
 * `only` (with `schemas`): the view of these servers alone, the others' entries not read (a
 * command about one server, `mcpx types`, read all seventy entries before: a fifth of its time).
 */
export function readDiscovery(config: Config, stateDir: string, options: { schemas?: boolean; now?: number; only?: readonly string[] } = {}): DiscoveryView {
  const now = options.now ?? Date.now();
  const summarised = options.schemas === true ? undefined : summaryView(config, stateDir, now);
  if (summarised) return summarised;
  const only = options.schemas === true ? options.only : undefined;
  const servers = only === undefined ? config.servers : config.servers.filter((server) => only.includes(server.name));
  // The generation before the entries: a write in between makes the summary stale at once, never wrong.
  const generation = currentGeneration(stateDir);
  const view = { config, stateDir, servers: servers.map((server) => serverView(config, server, stateDir, now)), schemas: true };
  // Made for the next reader when it was missing or stale (a reader that asked for schemas did not look).
  if (options.schemas !== true) writeSummary(view, generation);
  return view;
}

/** The view's tools, every server's, in config order. */
export function allTools(view: DiscoveryView): DiscoveryTool[] {
  return view.servers.flatMap((server) => server.tools);
}

function serverView(config: Config, server: ServerConfig, stateDir: string, now: number): ServerView {
  const definition = definitionOf(server);
  const key = definitionKey(definition);
  const entry = readEntry(stateDir, key, definition);
  const read = entry?.read;
  const failure = entry?.failure && (!read || entry.failure.at >= read.readAt) ? entry.failure : undefined;
  const state: ServerState = server.disabled ? "disabled" : failure ? "last read failed" : read ? "cached" : "never read";
  const tools = server.disabled || !entry ? [] : visibleTools(config, server, entry);
  return {
    server: server.name,
    config: server,
    key,
    state,
    entry,
    contentHash: read?.contentHash,
    readAt: read?.readAt,
    ageMs: ageOf(read?.readAt, now),
    failure,
    description: read?.description ?? "",
    tools,
    toolCount: tools.length,
  };
}

function visibleTools(config: Config, server: ServerConfig, entry: CacheEntry): DiscoveryTool[] {
  const shown = (entry.read?.tools ?? []).filter(({ tool }) => typeof tool.name === "string" && hiddenBy(server.tools, tool.name) === undefined);
  // The same cap as the catalogue hosts see: a tool left out there is unknown here too.
  return shown.slice(0, config.limits.maxToolsPerServer).map(({ tool, signature: line }) => {
    const record = toolRecord(server.name, tool);
    // An entry shared by two names was signed under the other one.
    return { ...record, signature: entry.server === server.name ? line : signature(record) };
  });
}

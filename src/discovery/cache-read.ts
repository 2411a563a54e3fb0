/**
 * What the discovery commands read: for a config, each server with its cache entry (or none),
 * how old it is, its state, and its tools after the config's filter, as ToolRecords with their
 * signatures. Reads files only: no server is started, and nothing slow is loaded.
 */
import type { Config, ServerConfig } from "../config/types.js";
import { hiddenBy } from "../config/tool-filter.js";
import type { CacheEntry } from "./cache-entry.js";
import { definitionKey, definitionOf } from "./cache-key.js";
import { readEntry } from "./cache-read-entry.js";
import type { ToolRecord } from "./records.js";
import { signature } from "./signature.js";
import { toolRecord } from "./tool-records.js";

/** `cached`: read before; `never read`; `last read failed` (its last good read, if any, still answers); `disabled` by the config. */
export type ServerState = "cached" | "never read" | "last read failed" | "disabled";

export interface DiscoveryTool extends ToolRecord {
  signature: string;
  signatureTokens: number;
}

export interface ServerView {
  server: string;
  config: ServerConfig;
  /** The definition's key in the cache. */
  key: string;
  state: ServerState;
  entry: CacheEntry | undefined;
  /** When its catalogue was last read successfully (ISO 8601), and how long ago. */
  readAt: string | undefined;
  ageMs: number | undefined;
  failure: { at: string; reason: string } | undefined;
  /** One line: its instructions' first line, else its serverInfo title or name. */
  description: string;
  descriptionTokens: number;
  /** Its tools the config lets anyone see (the filter's globs, the tools limit), by discovery's names. */
  tools: DiscoveryTool[];
}

export interface DiscoveryView {
  config: Config;
  stateDir: string;
  servers: ServerView[];
}

export function readDiscovery(config: Config, stateDir: string, now = Date.now()): DiscoveryView {
  return { config, stateDir, servers: config.servers.map((server) => serverView(config, server, stateDir, now)) };
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
  return {
    server: server.name,
    config: server,
    key,
    state,
    entry,
    readAt: read?.readAt,
    ageMs: read ? Math.max(0, now - Date.parse(read.readAt)) : undefined,
    failure,
    description: read?.description ?? "",
    descriptionTokens: read?.descriptionTokens ?? 0,
    tools: server.disabled || !entry ? [] : visibleTools(config, server, entry),
  };
}

function visibleTools(config: Config, server: ServerConfig, entry: CacheEntry): DiscoveryTool[] {
  const shown = (entry.read?.tools ?? []).filter(({ tool }) => typeof tool.name === "string" && hiddenBy(server.tools, tool.name) === undefined);
  // The same cap as the catalogue hosts see: a tool left out there is unknown here too.
  return shown.slice(0, config.limits.maxToolsPerServer).map(({ tool, signature: line, signatureTokens }) => {
    const record = toolRecord(server.name, tool);
    // An entry shared by two names was signed under the other one.
    return { ...record, signature: entry.server === server.name ? line : signature(record), signatureTokens };
  });
}

/**
 * A config's view of the schema cache in one small file: every server's state, description and
 * tools with their signatures, without schemas. `ls`, `search` and `catalog` read it instead of
 * every entry (reading and parsing seventy entries costs more than Node takes to start). It is
 * good while no entry has been written since it was made (the writer moves the cache's
 * generation after every entry) and the config's servers, definitions and filters are the same.
 *
 * Two lines: the servers (small), then their tools (nine tenths of the file). `ls` and `search`
 * need only the first, so the second is parsed when a reader first asks for a server's tools.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "../config/types.js";
import { isObject } from "../protocol/jsonrpc.js";
import { ENTRY_VERSION } from "./cache-entry.js";
import { CACHE_FOLDER, keepNewest, readJsonFile, writePrivateAtomically } from "./cache-files.js";
import { definitionOf } from "./cache-key.js";
import type { DiscoveryTool, DiscoveryView, ServerView } from "./cache-view.js";
import { fastHash } from "./hash.js";

/** Bumped when a summary's shape changes; the entries' version is checked too (a summary of entries now read as absent is stale). */
const SUMMARY_VERSION = 3;
/** Summaries kept at most (one per config file used). */
export const MAX_SUMMARIES = 50;

type StoredServer = Omit<ServerView, "config" | "entry" | "ageMs" | "tools">;

/** The first line; the second is `DiscoveryTool[][]`, each server's tools in config order. */
interface SummaryHead {
  version: typeof SUMMARY_VERSION;
  entryVersion: typeof ENTRY_VERSION;
  generation: string;
  configKey: string;
  servers: StoredServer[];
  /** The second line's length: a file cut short is never read as fewer tools. */
  toolsLength: number;
}

export function generationFile(stateDir: string): string {
  return join(stateDir, CACHE_FOLDER, "generation");
}

/** What the cache's generation is now ("none" before the first write). */
export function currentGeneration(stateDir: string): string {
  const value = readJsonFile(generationFile(stateDir));
  return typeof value === "string" ? value : "none";
}

let moves = 0;

/** An entry was written: every summary made before is stale. */
export function moveGeneration(stateDir: string): void {
  writePrivateAtomically(generationFile(stateDir), JSON.stringify(`${process.pid}.${Date.now()}.${++moves}`));
}

/** The view the summary gives (no schemas), when it is current for this config; else undefined. */
export function summaryView(config: Config, stateDir: string, now = Date.now()): DiscoveryView | undefined {
  const servers = readSummary(config, stateDir, now);
  return servers ? { config, stateDir, servers, schemas: false } : undefined;
}

/** The summary's servers as views, when it is current for this config; else undefined. */
export function readSummary(config: Config, stateDir: string, now: number): ServerView[] | undefined {
  const file = summaryFile(config, stateDir);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
  const split = text.indexOf("\n");
  const stored = split < 0 ? undefined : parseJson(text.slice(0, split));
  if (!isObject(stored) || stored.version !== SUMMARY_VERSION || stored.entryVersion !== ENTRY_VERSION || stored.configKey !== configKey(config))
    return undefined;
  if (stored.generation !== currentGeneration(stateDir) || stored.toolsLength !== text.length - split - 1) return undefined;
  let tools: DiscoveryTool[][] | undefined;
  const toolsOf = (at: number): DiscoveryTool[] => {
    tools ??= parseTools(text.slice(split + 1), file);
    return tools[at] ?? [];
  };
  const servers = stored.servers as unknown as StoredServer[];
  return servers.map((server, at) => {
    const view = { ...server, config: config.servers[at]!, entry: undefined, ageMs: server.readAt ? Math.max(0, now - Date.parse(server.readAt)) : undefined };
    // Parsed on first use, then kept: a plain property from then on.
    return Object.defineProperty(view, "tools", {
      get: () => toolsOf(at),
      enumerable: true,
      configurable: true,
    }) as ServerView;
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The second line; its length was checked, so a failure here is a damaged file, said as such. */
function parseTools(text: string, file: string): DiscoveryTool[][] {
  const tools = parseJson(text);
  if (!Array.isArray(tools)) throw new Error(`${file}: the schema cache's summary is damaged; remove it and run the command again`);
  return tools as DiscoveryTool[][];
}

/** Store the view (read whole, from the entries) for the next reader; tools lose their schemas. */
export function writeSummary(view: DiscoveryView, generation: string): void {
  const tools = JSON.stringify(view.servers.map((server) => server.tools.map(({ inputSchema: _input, outputSchema: _output, ...tool }) => tool)));
  const head: SummaryHead = {
    version: SUMMARY_VERSION,
    entryVersion: ENTRY_VERSION,
    generation,
    configKey: configKey(view.config),
    servers: view.servers.map(({ config: _config, entry: _entry, ageMs: _age, tools: _tools, ...server }) => server),
    toolsLength: tools.length,
  };
  try {
    writePrivateAtomically(summaryFile(view.config, view.stateDir), `${JSON.stringify(head)}\n${tools}`);
    keepNewest(join(view.stateDir, CACHE_FOLDER, "summaries"), MAX_SUMMARIES);
  } catch {
    // Not stored: the next reader reads the entries, which is slower, never wrong.
  }
}

/** What of the config a summary depends on: the servers in order, their definitions, filters and state, and the tools limit. */
function configKey(config: Config): string {
  const servers = config.servers.map((server) => [server.name, definitionOf(server), server.tools ?? null, server.disabled]);
  return fastHash(JSON.stringify([config.limits.maxToolsPerServer, servers]));
}

function summaryFile(config: Config, stateDir: string): string {
  return join(stateDir, CACHE_FOLDER, "summaries", `${fastHash(config.file)}.json`);
}

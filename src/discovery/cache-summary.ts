/**
 * A config's view of the schema cache in one small file: every server's state, description and
 * tools with their signatures, without schemas. `ls`, `search` and `catalog` read it instead of
 * every entry (reading and parsing seventy entries costs more than Node takes to start). It is
 * good while no entry has been written since it was made (the writer moves the cache's
 * generation after every entry) and the config's servers, definitions and filters are the same.
 */
import { join } from "node:path";
import type { Config } from "../config/types.js";
import { isObject } from "../protocol/jsonrpc.js";
import { ENTRY_VERSION } from "./cache-entry.js";
import { CACHE_FOLDER, keepNewest, readJsonFile, writePrivateAtomically } from "./cache-files.js";
import { definitionOf } from "./cache-key.js";
import type { DiscoveryView, ServerView } from "./cache-view.js";
import { fastHash } from "./hash.js";

/** Bumped when a summary's shape changes; the entries' version is checked too (a summary of entries now read as absent is stale). */
const SUMMARY_VERSION = 2;
/** Summaries kept at most (one per config file used). */
export const MAX_SUMMARIES = 50;

type StoredServer = Omit<ServerView, "config" | "entry" | "ageMs">;

interface Summary {
  version: typeof SUMMARY_VERSION;
  entryVersion: typeof ENTRY_VERSION;
  generation: string;
  configKey: string;
  servers: StoredServer[];
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

/** The summary's servers as views, when it is current for this config; else undefined. */
export function readSummary(config: Config, stateDir: string, now: number): ServerView[] | undefined {
  const stored = readJsonFile(summaryFile(config, stateDir));
  if (!isObject(stored) || stored.version !== SUMMARY_VERSION || stored.entryVersion !== ENTRY_VERSION || stored.configKey !== configKey(config))
    return undefined;
  if (stored.generation !== currentGeneration(stateDir)) return undefined;
  const servers = stored.servers as unknown as StoredServer[];
  return servers.map((server, at) => ({
    ...server,
    config: config.servers[at]!,
    entry: undefined,
    ageMs: server.readAt ? Math.max(0, now - Date.parse(server.readAt)) : undefined,
  }));
}

/** Store the view (read whole, from the entries) for the next reader; tools lose their schemas. */
export function writeSummary(view: DiscoveryView, generation: string): void {
  const summary: Summary = {
    version: SUMMARY_VERSION,
    entryVersion: ENTRY_VERSION,
    generation,
    configKey: configKey(view.config),
    servers: view.servers.map(({ config: _config, entry: _entry, ageMs: _age, tools, ...server }) => ({
      ...server,
      tools: tools.map(({ inputSchema: _input, outputSchema: _output, ...tool }) => tool),
    })),
  };
  try {
    writePrivateAtomically(summaryFile(view.config, view.stateDir), JSON.stringify(summary));
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

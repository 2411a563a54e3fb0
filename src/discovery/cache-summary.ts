/**
 * A config's view of the schema cache in one small file: every server's state, description and
 * tools with their signatures, without schemas. `ls`, `search` and `catalog` read it instead of
 * every entry (reading and parsing seventy entries costs more than Node takes to start). It is
 * good while no entry has been written since it was made (the writer moves the cache's
 * generation after every entry) and the config's servers, definitions and filters are the same.
 *
 * Two lines: the servers (small), then their tools (nine tenths of the file). `ls` and `search`
 * need only the first, so only it is read (a bounded read up to the first newline); the second
 * is read and parsed when a reader first asks for a server's tools.
 */
import { closeSync, fstatSync, openSync, readFileSync, readSync } from "node:fs";
import { join } from "node:path";
import type { Config, ServerConfig } from "../config/types.js";
import { isObject } from "../protocol/jsonrpc.js";
import { ENTRY_VERSION } from "./cache-entry.js";
import { CACHE_FOLDER, keepNewest, readJsonFile, writePrivateAtomically } from "./cache-files.js";
import { definitionOf } from "./cache-key.js";
import { ageOf, type DiscoveryTool, type DiscoveryView, type ServerView } from "./cache-view.js";
import { fastHash } from "./hash.js";

/** Bumped when a summary's shape changes; the entries' version is checked too (a summary of entries now read as absent is stale). */
const SUMMARY_VERSION = 4;
/** Summaries kept at most (one per config file used). */
export const MAX_SUMMARIES = 50;

type StoredServer = Omit<ServerView, "config" | "entry" | "ageMs" | "tools">;

/** The first line; the second is `DiscoveryTool[][]`, each server's tools in config order. */
interface SummaryHead {
  version: typeof SUMMARY_VERSION;
  entryVersion: typeof ENTRY_VERSION;
  generation: string;
  /** What of the config it was made for (`configText`): compared as text, which costs less than hashing it. */
  configText: string;
  servers: StoredServer[];
  /** The second line's length in bytes: a file cut short is never read as fewer tools. */
  toolsBytes: number;
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
  const first = readFirstLine(file);
  const stored = first && parseJson(first.line.toString("utf8"));
  if (!first || !isObject(stored) || stored.version !== SUMMARY_VERSION || stored.entryVersion !== ENTRY_VERSION || stored.configText !== configText(config))
    return undefined;
  if (stored.generation !== currentGeneration(stateDir) || stored.toolsBytes !== first.size - first.line.length - 1) return undefined;
  let tools: DiscoveryTool[][] | undefined;
  const toolsOf = (at: number): DiscoveryTool[] => {
    tools ??= readTools(file, first.line);
    return tools[at] ?? [];
  };
  const servers = stored.servers as unknown as StoredServer[];
  return servers.map((server, at) => new SummaryServer(server, config.servers[at]!, now, () => toolsOf(at)));
}

/**
 * A server of the summary: its tools parsed on first use (the getter, on the class, not on each
 * object: a getter written in an object literal made each view a slow dictionary of its
 * properties, and a spread of the stored server grew each one's property store step by step, a
 * kilobyte of garbage a server that a search paid for in garbage collection).
 */
class SummaryServer implements ServerView {
  readonly server: string;
  readonly config: ServerConfig;
  readonly key: string;
  readonly state: ServerView["state"];
  readonly entry = undefined;
  readonly contentHash: string | undefined;
  readonly readAt: string | undefined;
  readonly ageMs: number | undefined;
  readonly failure: ServerView["failure"];
  readonly description: string;
  readonly toolCount: number;
  readonly #tools: () => DiscoveryTool[];

  constructor(stored: StoredServer, config: ServerConfig, now: number, tools: () => DiscoveryTool[]) {
    this.server = stored.server;
    this.config = config;
    this.key = stored.key;
    this.state = stored.state;
    this.contentHash = stored.contentHash;
    this.readAt = stored.readAt;
    this.ageMs = ageOf(stored.readAt, now);
    this.failure = stored.failure;
    this.description = stored.description;
    this.toolCount = stored.toolCount;
    this.#tools = tools;
  }

  get tools(): DiscoveryTool[] {
    return this.#tools();
  }
}

/** The first read's size: the servers line of seventy servers is about 18 KB. A longer line is read on in larger steps. */
const FIRST_READ = 32 * 1024;

/** The file's first line (without its newline) and the file's size; undefined when it is missing or has no newline. */
function readFirstLine(file: string): { line: Buffer; size: number } | undefined {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch {
    return undefined;
  }
  try {
    const size = fstatSync(fd).size;
    let buffer = Buffer.allocUnsafe(Math.min(size, FIRST_READ));
    let filled = 0;
    while (filled < size) {
      if (filled === buffer.length) {
        const larger = Buffer.allocUnsafe(Math.min(size, buffer.length * 4));
        buffer.copy(larger, 0, 0, filled);
        buffer = larger;
      }
      const read = readSync(fd, buffer, filled, buffer.length - filled, filled);
      if (read === 0) break;
      const newline = buffer.indexOf(0x0a, filled);
      filled += read;
      if (newline >= 0 && newline < filled) return { line: buffer.subarray(0, newline), size };
    }
    return undefined;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The second line, read when first asked for. The file is read again: it is the same summary if
 * its first line is (the generation is in it); one replaced in between, or damaged, is said as such.
 */
function readTools(file: string, servers: Buffer): DiscoveryTool[][] {
  let bytes: Buffer | undefined;
  try {
    bytes = readFileSync(file);
  } catch {
    bytes = undefined;
  }
  const same = bytes !== undefined && bytes.length > servers.length && bytes[servers.length] === 0x0a && servers.equals(bytes.subarray(0, servers.length));
  const tools = same ? parseJson(bytes!.toString("utf8", servers.length + 1)) : undefined;
  if (!Array.isArray(tools)) throw new Error(`${file}: the schema cache's summary is damaged or was replaced while it was read; run the command again`);
  return tools as DiscoveryTool[][];
}

/** Store the view (read whole, from the entries) for the next reader; tools lose their schemas. */
export function writeSummary(view: DiscoveryView, generation: string): void {
  const tools = JSON.stringify(view.servers.map((server) => server.tools.map(({ inputSchema: _input, outputSchema: _output, ...tool }) => tool)));
  const head: SummaryHead = {
    version: SUMMARY_VERSION,
    entryVersion: ENTRY_VERSION,
    generation,
    configText: configText(view.config),
    servers: view.servers.map(({ config: _config, entry: _entry, ageMs: _age, tools: _tools, ...server }) => server),
    toolsBytes: Buffer.byteLength(tools),
  };
  try {
    writePrivateAtomically(summaryFile(view.config, view.stateDir), `${JSON.stringify(head)}\n${tools}`);
    keepNewest(join(view.stateDir, CACHE_FOLDER, "summaries"), MAX_SUMMARIES);
  } catch {
    // Not stored: the next reader reads the entries, which is slower, never wrong.
  }
}

/** What of the config a summary depends on: the servers in order, their definitions, filters and state, and the tools limit. */
function configText(config: Config): string {
  const servers = config.servers.map((server) => [server.name, definitionOf(server), server.tools ?? null, server.disabled]);
  return JSON.stringify([config.limits.maxToolsPerServer, servers]);
}

function summaryFile(config: Config, stateDir: string): string {
  return join(stateDir, CACHE_FOLDER, "summaries", `${fastHash(config.file)}.json`);
}

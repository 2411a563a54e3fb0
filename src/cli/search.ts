/**
 * `mcpx search WORDS…`: the tools that best match, best first, from the schema cache and the
 * search index kept beside it (discovery/search.ts ranks; this prints). A search whose stamp is
 * true (search-stamp.ts) goes straight to the index: `stampedSearch`.
 */
import type { Config } from "../config/types.js";
import { indexKey, readSearchIndex, searchIndexFor } from "../discovery/cache-index.js";
import { currentGeneration } from "../discovery/cache-summary.js";
import { ageOf } from "../discovery/cache-view.js";
import { search as rank, type SearchHit, type SearchIndex } from "../discovery/search.js";
import { discoveryView, warnIfOld } from "./discovery-view.js";
import { CliError, Exit } from "./exit.js";
import { writeOut } from "./write-out.js";
import { inert, inertJson } from "./inert.js";
import { readStamp, writeStamp } from "./search-stamp.js";

export const DEFAULT_LIMIT = 10;
const MAX_DESCRIPTION = 100;

export interface SearchEntry extends SearchHit {
  /** When its server's catalogue was read (ISO 8601). */
  readAt: string | null;
}

type SearchOptions = { json?: boolean; cached?: boolean; limit?: number };

/** Where a search's config came from: the state directory, the config file resolved, and the key the config is kept under when it is (hot-config.ts). */
export interface ConfigSource {
  stateDir: string;
  resolved: string;
  keptAs: string | undefined;
  warnings: readonly string[];
}

export async function searchCommand(config: Config, words: string[], options: SearchOptions, source?: ConfigSource): Promise<number> {
  const query = queryOf(words);
  // read before the view: a stamp must never pair a view with a later generation than it was read at
  const generation = source?.keptAs === undefined ? undefined : currentGeneration(source.stateDir);
  const view = await discoveryView(config, { cached: options.cached === true });
  const { index } = await searchIndexFor(view);
  const readAt = Object.fromEntries(view.servers.map((server) => [server.server, server.readAt ?? null]));
  if (source?.keptAs !== undefined && generation !== undefined && view.servers.every((server) => server.state !== "never read")) {
    const stamp = { config: source.keptAs, generation, configFile: config.file, indexKey: indexKey(view), readAt, warnings: [...source.warnings] };
    writeStamp(source.stateDir, source.resolved, stamp);
  }
  return printSearch(index, readAt, query, options);
}

/**
 * The search when its stamp is true for the config file `source` (kept under `configKey`):
 * undefined when it is not, or the index it names is gone or was made for another view (then
 * the caller goes the whole way).
 */
export function stampedSearch(stateDir: string, source: { resolved: string; configKey: string }, words: string[], options: SearchOptions): number | undefined {
  const stamp = readStamp(stateDir, source.resolved, source.configKey);
  const index = stamp && readSearchIndex(stateDir, stamp.configFile, stamp.indexKey);
  if (!stamp || !index) return undefined;
  for (const warning of stamp.warnings) process.stderr.write(`mcpx: warning: ${warning}\n`);
  return printSearch(index, stamp.readAt, queryOf(words), options);
}

function queryOf(words: string[]): string {
  const query = words.join(" ").trim();
  if (query === "") throw new CliError("say what to search for: mcpx search WORDS…", Exit.Usage);
  return query;
}

function printSearch(index: SearchIndex, readAt: Record<string, string | null>, query: string, options: SearchOptions): number {
  const when = (server: string) => (Object.hasOwn(readAt, server) ? (readAt[server] ?? null) : null);
  const hits: SearchEntry[] = rank(index, query, options.limit ?? DEFAULT_LIMIT).map((hit) => ({ ...hit, readAt: when(hit.server) }));
  const now = Date.now();
  const servers = new Set(hits.map((hit) => hit.server));
  warnIfOld(
    Object.keys(readAt)
      .filter((server) => servers.has(server))
      .map((server) => ({ server, ageMs: ageOf(when(server), now) })),
  );
  if (options.json) {
    writeOut(`${inertJson(JSON.stringify(hits, null, 2))}\n`);
    return Exit.Ok;
  }
  if (hits.length === 0) {
    writeOut(`no tool matches "${inert(query)}"\n`);
    return Exit.Ok;
  }
  const width = Math.max(...hits.map((hit) => inert(hit.name).length));
  writeOut(`${hits.map((hit) => `${inert(hit.name).padEnd(width)}  ${firstLine(hit.description)}`.trimEnd()).join("\n")}\n`);
  return Exit.Ok;
}

function firstLine(description: string): string {
  const text = inert(description.trim().split(/\r?\n/)[0] ?? "");
  return text.length > MAX_DESCRIPTION ? `${text.slice(0, MAX_DESCRIPTION - 1)}…` : text;
}

/** The search index, kept beside the cache entries (cache-kept.ts): made by the first reader after a change. */
import { indexesDir } from "./cache-files.js";
import { indexKey, keep, type KeptKind, readKeptFor, wholeView } from "./cache-kept.js";
import { allTools, type DiscoveryView } from "./cache-read.js";
import { INDEX_VERSION, type SearchIndex } from "./search.js";

export { indexKey } from "./cache-kept.js";

/** Index files kept at most (one per config file used); past that, the ones built longest ago go. */
export const MAX_INDEXES = 50;

/** The index's fields stored as tables: a query reads a few entries of each (a table the index does not have is skipped). */
export const INDEX_TABLES = ["postings", "related", "prefixes", "tools", "names", "nameLengths", "nameStarts"] as const;

/**
 * The index's own format is search.ts's business (its `version`); this one is of what goes into
 * it and how it is stored (2: its per-term tables looked up in the file, table-file.ts; 3: the
 * tools' descriptions a table too; 4: every per-tool and per-name table, so the first line holds
 * no tool). Any field not in INDEX_TABLES is stored as JSON.
 */
const INDEXES: KeptKind = {
  dir: indexesDir,
  field: "index",
  version: 4,
  max: MAX_INDEXES,
  tables: INDEX_TABLES,
};

/** The index kept for the config file `configFile` when it was made for `key` (a view's `indexKey`) by this query side; else undefined. */
export function readSearchIndex(stateDir: string, configFile: string, key: string): SearchIndex | undefined {
  const stored = readKeptFor<SearchIndex>(stateDir, configFile, INDEXES, key);
  // an index of another version is read differently by this query side: built again, never read;
  // a count no catalogue reaches is a damaged file (a query makes an array of that length)
  const count = stored?.toolCount;
  return stored?.version === INDEX_VERSION && Number.isSafeInteger(count) && count! >= 0 && count! <= MAX_TOOLS ? stored : undefined;
}

/** More tools than any index holds (a catalogue is capped per server, and a config lists a bounded number of servers). */
const MAX_TOOLS = 1_000_000;

/**
 * The view's search index: the stored one when it is current, else built now and stored for the
 * next reader (the builder, WordNet's reader and the table's are loaded only then).
 */
export async function searchIndexFor(view: DiscoveryView): Promise<{ index: SearchIndex; built: boolean }> {
  const stored = readSearchIndex(view.stateDir, view.config.file, indexKey(view));
  if (stored) return { index: stored, built: false };
  const { buildIndex } = await import("./search-build.js");
  const whole = wholeView(view);
  const index = buildIndex({
    tools: allTools(whole),
    serverDescriptions: Object.fromEntries(whole.servers.filter((server) => server.description).map((server) => [server.server, server.description])),
  });
  keep(view, INDEXES, index);
  return { index, built: true };
}

/** The search index, kept beside the cache entries (cache-kept.ts): made by the first reader after a change. */
import { indexesDir } from "./cache-files.js";
import { keep, type KeptKind, readKept, wholeView } from "./cache-kept.js";
import { allTools, type DiscoveryView } from "./cache-read.js";
import { buildIndex, INDEX_VERSION, type SearchIndex } from "./search.js";

export { indexKey } from "./cache-kept.js";

/** Index files kept at most (one per config file used); past that, the ones built longest ago go. */
export const MAX_INDEXES = 50;

/**
 * The index's own format is search.ts's business (its `version`); this one is of what goes into
 * it and how it is stored (2: its per-term tables looked up in the file, table-file.ts; 3: the
 * tools' descriptions a table too). A query
 * reads a few entries of each table; a table named here that the index does not have is skipped,
 * and any other field is stored as JSON.
 */
const INDEXES: KeptKind = { dir: indexesDir, field: "index", version: 3, max: MAX_INDEXES, tables: ["postings", "related", "prefixes", "descriptions"] };

/**
 * The view's search index: the stored one when it is current, else built now and stored for the
 * next reader.
 */
export function searchIndexFor(view: DiscoveryView): { index: SearchIndex; built: boolean } {
  const stored = readKept<SearchIndex>(view, INDEXES);
  // an index of another version is read differently by this query side: built again, never read
  if (stored?.version === INDEX_VERSION) return { index: stored, built: false };
  const whole = wholeView(view);
  const index = buildIndex({
    tools: allTools(whole),
    serverDescriptions: Object.fromEntries(whole.servers.filter((server) => server.description).map((server) => [server.server, server.description])),
  });
  keep(view, INDEXES, storedForm(index));
  return { index, built: true };
}

/**
 * The index as it is kept: the tools' descriptions (two thirds of what a query would otherwise
 * parse, and most of the text past ASCII) moved to a table, so a query parses the names and
 * vectors it ranks by and looks up only its hits' descriptions.
 */
function storedForm(index: SearchIndex): SearchIndex {
  const descriptions: Record<string, string> = {};
  const tools = index.tools.map(({ description, ...tool }, at) => {
    descriptions[String(at)] = description ?? "";
    return tool;
  });
  return { ...index, tools, descriptions };
}

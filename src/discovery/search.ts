/**
 * Ranking tools for a query: `mcpx search` and `mcpx__search`.
 *
 * The index is built when the cache changes (search-build.ts); `search` is fast: the ranking
 * (search/query.ts) is pure, and all it reads here is the query words' vectors, a small read
 * each. An index survives `JSON.stringify`/`JSON.parse`, so it is kept on disk beside the cache.
 * How it ranks: src/discovery/search/, src/discovery/vectors/ and docs/discovery.md "## Search".
 */
import { INDEX_VERSION, type SearchIndex } from "./search/index-shape.js";
import { searchIndex, type SearchHit } from "./search/query.js";
import { openWordVectors, type WordVectors } from "./vectors/table.js";

export type { SearchHit, SearchIndex };
export { INDEX_VERSION };

/**
 * The best `limit` tools for `query`, best first; an exact or near-exact tool name is always first.
 * When the index holds the tools' word vectors, the query's are read from `vectors` (default the
 * shipped table, opened once per process; unreadable: the ranking is lexical only).
 */
export function search(index: SearchIndex, query: string, limit = 10, vectors?: Pick<WordVectors, "dims" | "vector"> | null): SearchHit[] {
  const table = index.vectors && vectors !== null ? (vectors ?? shippedWordVectors()) : undefined;
  return searchIndex(index, query, limit, table);
}

let shipped: WordVectors | null | undefined;

/** The shipped word-vector table, opened on first use and kept open (a server answers many queries); undefined when it cannot be read. */
export function shippedWordVectors(): WordVectors | undefined {
  if (shipped === undefined) {
    try {
      shipped = openWordVectors();
    } catch {
      // missing or damaged: search ranks by words alone, as it did before vectors
      shipped = null;
    }
  }
  return shipped ?? undefined;
}

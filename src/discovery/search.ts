/**
 * Ranking tools for a query: `mcpx search` and `mcpx__search`.
 *
 * `buildIndex` may take its time (it runs when the cache changes: BM25F over the tools' fields,
 * WordNet and the word-vector table read for the catalogue's words); `search` is fast: the
 * ranking (search/query.ts) is pure, and all it reads here is the query words' vectors, a small
 * read each. An index survives `JSON.stringify`/`JSON.parse`, so it is kept on disk beside the
 * cache. How it ranks: src/discovery/search/, src/discovery/vectors/ and docs/discovery.md "## Search".
 */
import type { ToolRecord } from "./records.js";
import { buildSearchIndex, INDEX_VERSION, type SearchIndex } from "./search/build.js";
import { searchIndex, type SearchHit } from "./search/query.js";
import { type SearchTuning, tune } from "./search/tuning.js";
import { type Lexicon, openWordNet, type Relation } from "./search/wordnet.js";
import { openWordVectors, type WordVectors } from "./vectors/table.js";

export type { SearchHit, SearchIndex };
export { INDEX_VERSION };

export interface IndexInput {
  tools: ToolRecord[];
  /** Each server's one-line description, by server name. */
  serverDescriptions?: Record<string, string>;
  /** The ranking's knobs; default the measured best (search/tuning.ts). */
  tuning?: SearchTuning;
  /** Where related words come from: default WordNet (read here, only for the catalogue's words); `null` for none. */
  lexicon?: Lexicon | null;
  /** Where word vectors come from: default the shipped table (read here, only for the catalogue's words); `null` for none. */
  vectors?: Pick<WordVectors, "dims" | "vector"> | null;
}

export function buildIndex(input: IndexInput): SearchIndex {
  const tuning = input.tuning ?? tune();
  const vectors = input.vectors === null || tuning.vectorWeight <= 0 ? undefined : (input.vectors ?? wordVectors());
  const build = (lexicon?: Lexicon) =>
    buildSearchIndex(input.tools, input.serverDescriptions ?? {}, { tuning, ...(lexicon ? { lexicon } : {}), ...(vectors ? { vectors } : {}) });
  if (input.lexicon === null) return build();
  const relations = (Object.keys(tuning.relations) as Relation[]).filter((relation) => tuning.relations[relation] > 0);
  const wordnet = input.lexicon ? undefined : openWordNet({ senses: tuning.senses, relations });
  try {
    return build(input.lexicon ?? wordnet);
  } catch {
    // WordNet unreadable (files missing or damaged): names and text still rank; related words are a bonus
    return build();
  } finally {
    wordnet?.close();
  }
}

/**
 * The best `limit` tools for `query`, best first; an exact or near-exact tool name is always first.
 * When the index holds the tools' word vectors, the query's are read from `vectors` (default the
 * shipped table, opened once per process; unreadable: the ranking is lexical only).
 */
export function search(index: SearchIndex, query: string, limit = 10, vectors?: Pick<WordVectors, "dims" | "vector"> | null): SearchHit[] {
  const table = index.vectors && vectors !== null ? (vectors ?? wordVectors()) : undefined;
  return searchIndex(index, query, limit, table);
}

let shipped: WordVectors | null | undefined;

/** The shipped word-vector table, opened on first use and kept open (a server answers many queries); undefined when it cannot be read. */
function wordVectors(): WordVectors | undefined {
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

/**
 * What a search index is (the record search/build.ts makes and search/query.ts reads), apart
 * from how it is made: the query side, which every `mcpx search` loads, needs none of the build.
 *
 * Everything kept per tool or per term is a table (a record of strings) a query looks a few
 * entries up in: an index kept on disk stores each as sorted lines and looks its entries up in
 * the file (table-file.ts, cache-index.ts), so a query parses what it reads, not the catalogue.
 */
import type { SearchTuning } from "./tuning.js";
import type { IndexVectors } from "../vectors/embed.js";
import type { NameTables } from "./names.js";

export const INDEX_VERSION = 5;

/** A tool as a hit gives it: `SERVER__TOOL`, its server, its own name, its description's first paragraph. */
export type IndexedTool = [name: string, server: string, tool: string, description: string];

export interface SearchIndex extends NameTables {
  /** Changes whenever the shape or the meaning of the index changes: an index of another version is rebuilt, never read. */
  version: typeof INDEX_VERSION;
  /** What the query side must do the same way, or may tune. */
  query: Pick<SearchTuning, "stemming" | "k1" | "nameTiers" | "nameMention" | "prefix" | "prefixWeight" | "vectorWeight" | "vectorFloor">;
  /** How many tools; each is known by its number, 0 to toolCount - 1, in the catalogue's order. */
  toolCount: number;
  /** The tool's number ("0", "1", …) -> the tool. */
  tools: Record<string, IndexedTool>;
  /** term -> "idf tool weight tool weight ...": the tools holding the term and its length-normalised, field-weighted frequency. */
  postings: Record<string, string>;
  /** the first `query.prefix` letters of a term -> "term term ...": the catalogue's terms starting so ("financi" finds "financ"). */
  prefixes: Record<string, string>;
  /** word -> "term weight term weight ...": the catalogue terms a related word leads to, and what it counts there. */
  related: Record<string, string>;
  /** word -> lemma: words taken to their WordNet lemma, not stemmed, because their stem is another word ("news", whose stem is "new"). */
  lemmas: Record<string, string>;
  /** The tools' word vectors (search/../vectors/), when the word-vector table could be read at build time. */
  vectors?: IndexVectors;
}

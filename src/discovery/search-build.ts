/**
 * Building the search index for a catalogue (search.ts ranks with it). It may take its time: it
 * runs when the cache changes, not per query, and reads WordNet and the word-vector table for the
 * catalogue's words (BM25F over the tools' fields: search/build.ts). Kept apart from the query
 * side, which every `mcpx search` loads: a command that finds its index current never loads this.
 */
import type { ToolRecord } from "./records.js";
import { buildSearchIndex } from "./search/build.js";
import type { SearchIndex } from "./search/index-shape.js";
import { type SearchTuning, tune } from "./search/tuning.js";
import { type Lexicon, openWordNet, type Relation } from "./search/wordnet.js";
import { shippedWordVectors } from "./search.js";
import type { WordVectors } from "./vectors/table.js";

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
  const vectors = input.vectors === null || tuning.vectorWeight <= 0 ? undefined : (input.vectors ?? shippedWordVectors());
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

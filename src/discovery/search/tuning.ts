/**
 * The knobs of the ranking, in one place: what each field of a tool weighs, BM25's constants,
 * how much a related word from WordNet counts, and whether names are matched as names. The
 * defaults are the measured best (docs/discovery.md "## Search"); the bench turns each off to
 * show what it contributes.
 */
import type { Relation } from "./wordnet.js";

export interface FieldWeights {
  /** The tool's own name, split into words (create_issue -> create issue). */
  name: number;
  title: number;
  /** The config's name for the server. */
  server: number;
  description: number;
  /** Parameter names of the input schema. */
  parameterName: number;
  /** Parameter descriptions of the input schema. */
  parameterDescription: number;
  /** The server's one-line description (instructions or server info). */
  serverDescription: number;
}

export interface SearchTuning {
  /** Porter stems instead of the words themselves. */
  stemming: boolean;
  /** A word whose stem is an unrelated WordNet word ("news" -> "new") is taken to its lemma instead (needs a lexicon). */
  stemLemmas: boolean;
  fields: FieldWeights;
  /** BM25 term-frequency saturation. */
  k1: number;
  /** BM25 length normalisation, 0 (none) to 1 (full). */
  b: number;
  /** What a query word counts when it reaches a tool only through a related word (0: not followed). */
  relations: Record<Relation, number>;
  /**
   * How much a word common in English (WordNet's sense-tagged corpus) is discounted: a query
   * word counts 1 / (1 + commonness × ln(1 + its count)). A catalogue's own frequencies (idf)
   * cannot tell that "give" or "help" says little, when few tools happen to use them.
   */
  commonness: number;
  /** A query word that reaches no tool itself reaches the catalogue's terms sharing its first `prefix` letters (0: off). */
  prefix: number;
  /** What such a prefix match counts. */
  prefixWeight: number;
  /** Whether a query word the catalogue holds itself also reaches tools through its related words. */
  expandKnownWords: boolean;
  /** Senses of a word looked at in WordNet, most frequent first. */
  senses: number;
  /** Whole-query name matches (exact, folded, typo, prefix) rank before any text match. */
  nameTiers: boolean;
  /** Added per query word that is a tool's whole name ("fetch" in "fetch the page"). */
  nameMention: number;
  /** What the word-vector closeness (a z-score over the catalogue) adds to a tool's text score at most (0: no vectors). */
  vectorWeight: number;
  /** The share of `vectorWeight` a query gets when the catalogue knows all its words; the rest comes with its unknown words. */
  vectorFloor: number;
  /** SIF's a: a word counts a / (a + p(word)) in a text's vector. */
  sif: number;
  /** A tool's vector blended with its server's mean at this share for itself (1: its own only). */
  serverBlend: number;
}

export const DEFAULT_TUNING: SearchTuning = {
  stemming: true,
  stemLemmas: true,
  fields: { name: 3, title: 2, server: 1, description: 1, parameterName: 0.5, parameterDescription: 0.3, serverDescription: 0.3 },
  k1: 1.2,
  b: 0.6,
  relations: { synonym: 0.5, derived: 0.5, broader: 0.3, narrower: 0, similar: 0.3, sibling: 0, broader2: 0, gloss: 0 },
  commonness: 0.15,
  prefix: 5,
  prefixWeight: 0.5,
  expandKnownWords: true,
  senses: 3,
  nameTiers: true,
  nameMention: 2,
  vectorWeight: 2.5,
  vectorFloor: 0.25,
  sif: 0.003,
  serverBlend: 0.5,
};

/** The defaults with some knobs changed (nested `fields` and `relations` merged, not replaced). */
export function tune(changes: TuningChanges = {}): SearchTuning {
  return {
    ...DEFAULT_TUNING,
    ...changes,
    fields: { ...DEFAULT_TUNING.fields, ...changes.fields },
    relations: { ...DEFAULT_TUNING.relations, ...changes.relations },
  };
}

export type TuningChanges = Partial<Omit<SearchTuning, "fields" | "relations">> & {
  fields?: Partial<FieldWeights>;
  relations?: Partial<Record<Relation, number>>;
};

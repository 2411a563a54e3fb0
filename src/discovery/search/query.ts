/**
 * Answering a query from a built index: name tiers first (see names.ts), then BM25 over the
 * precomputed field-weighted frequencies, a query word counting through its best route to a
 * tool (itself, or a related word at that word's weight), plus each tool's closeness to the
 * query in word-vector space when the caller gives the query words' vectors. No I/O and no big
 * module: it runs in a CLI command.
 */
import { closeness, type DecodedVectors, decodeVectors, sifWeight, type TextWord, textVector, vectorIdf } from "../vectors/embed.js";
import type { WordVectors } from "../vectors/table.js";
import type { IndexedTool, SearchIndex } from "./index-shape.js";
import { nameQuery, nameTiers, toolsNamed } from "./names.js";
import { foldName, isStopWord, stem, terms, words } from "./text.js";

export interface SearchHit {
  name: string;
  server: string;
  tool: string;
  description: string;
  score: number;
}

/** Text scores stay far below this (at most MAX_TERMS × the largest idf), so a tier always outranks text. */
const TIER_STEP = 1000;
/** A query is read to this many characters and this many distinct terms: bounded work whatever is sent. */
const MAX_QUERY = 2000;
const MAX_TERMS = 64;
const MAX_LIMIT = 1000;

/** `table`: where the query's word vectors are read, when the index has the tools' (none: the ranking is lexical only). */
export function searchIndex(index: SearchIndex, query: string, limit = 10, table?: Pick<WordVectors, "dims" | "vector">): SearchHit[] {
  const count = Number.isFinite(limit) ? Math.min(MAX_LIMIT, Math.max(0, Math.floor(limit))) : 10;
  const text = typeof query === "string" ? query.slice(0, MAX_QUERY) : "";
  if (count === 0 || text.trim() === "") return [];
  const scores = textScores(index, text);
  if (table) vectorScores(index, text, table, scores);
  if (index.query.nameTiers) {
    for (const [tool, tier] of nameTiers(nameQuery(text), index)) if (tool >= 0 && tool < scores.length) scores[tool]! += tier * TIER_STEP;
  }
  if (index.query.nameMention > 0) mentionedNames(index, text, scores, index.query.nameMention);
  return best(scores, count).flatMap(([i, score]) => {
    const tool: unknown = Object.hasOwn(index.tools, String(i)) ? index.tools[String(i)] : undefined;
    // a damaged file's entry is no hit (never a wrong one)
    if (!Array.isArray(tool) || tool.length !== 4 || !tool.every((field) => typeof field === "string")) return [];
    const [name, server, toolName, description] = tool as IndexedTool;
    return [{ name, server, tool: toolName, description, score: Math.round(score * 1000) / 1000 }];
  });
}

/** Past this many hits a sort costs less than keeping the best in order as they come. */
const KEPT_IN_ORDER = 64;

/** The `count` tools with the highest scores above 0, as [tool, score], best first (equal scores: the tool first in the index first). */
export function best(scores: readonly number[], count: number): Array<[number, number]> {
  const ranked: Array<[number, number]> = [];
  if (count > KEPT_IN_ORDER) {
    scores.forEach((score, i) => {
      if (score > 0) ranked.push([i, score]);
    });
    return ranked.sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, count);
  }
  // tools come in index order, so a later one ties below an earlier one of the same score: it passes only a lower score
  for (let i = 0; i < scores.length; i++) {
    const score = scores[i]!;
    if (!(score > 0) || (ranked.length === count && !(score > ranked[count - 1]![1]))) continue;
    let at = ranked.length === count ? count - 1 : ranked.length;
    while (at > 0 && score > ranked[at - 1]![1]) {
      ranked[at] = ranked[at - 1]!;
      at--;
    }
    ranked[at] = [i, score];
  }
  return ranked;
}

const lemmaMaps = new WeakMap<SearchIndex, ReadonlyMap<string, string>>();

/** The words the index takes to a lemma instead of a stem, as a map made once per index. */
function lemmasOf(index: SearchIndex): ReadonlyMap<string, string> {
  let lemmas = lemmaMaps.get(index);
  if (!lemmas) lemmaMaps.set(index, (lemmas = new Map(Object.entries(index.lemmas ?? {}))));
  return lemmas;
}

const parsed = new WeakMap<SearchIndex, Map<string, Float64Array>>();

/** A term's postings as numbers, split once per index (at most once per term the index holds). */
function postingsOf(index: SearchIndex, term: string): Float64Array | undefined {
  if (!Object.hasOwn(index.postings, term)) return undefined;
  let cache = parsed.get(index);
  if (!cache) parsed.set(index, (cache = new Map()));
  let list = cache.get(term);
  if (!list) cache.set(term, (list = Float64Array.from(index.postings[term]!.split(" "), Number)));
  return list;
}

/** BM25 per tool: for each query term, its best route (direct, or through a related word) to that tool. */
function textScores(index: SearchIndex, query: string): number[] {
  const scores = new Array<number>(index.toolCount).fill(0);
  const k1 = index.query.k1;
  // a word said twice counts once: repetition in a request is emphasis, not a second need
  const distinct = [...new Set(terms(query, index.query.stemming, lemmasOf(index)))].slice(0, MAX_TERMS);
  const { prefix, prefixWeight } = index.query;
  for (const term of distinct) {
    const best = new Map<number, number>();
    const route = (target: string, weight: number) => {
      const list = postingsOf(index, target);
      if (!list) return;
      const idf = list[0]!;
      for (let at = 1; at + 1 < list.length; at += 2) {
        const frequency = list[at + 1]!;
        const value = (weight * idf * frequency * (k1 + 1)) / (frequency + k1);
        const tool = list[at]!;
        if (value > (best.get(tool) ?? 0)) best.set(tool, value);
      }
    };
    route(term, 1);
    if (Object.hasOwn(index.related, term)) {
      const targets = index.related[term]!.split(" ");
      for (let at = 0; at + 1 < targets.length; at += 2) route(targets[at]!, Number(targets[at + 1]));
    }
    const start = term.slice(0, prefix);
    if (prefix > 0 && term.length >= prefix && !Object.hasOwn(index.postings, term) && Object.hasOwn(index.prefixes, start)) {
      for (const target of index.prefixes[start]!.split(" ")) route(target, prefixWeight);
    }
    for (const [tool, value] of best) scores[tool]! += value;
  }
  return scores;
}

/** A query word that is some tool's whole name ("fetch the page", "use read_file on it") points at that tool. */
function mentionedNames(index: SearchIndex, query: string, scores: number[], bonus: number): void {
  const mentioned = new Set(
    query
      .split(/\s+/)
      .map(foldName)
      .filter((word) => word.length >= 3),
  );
  for (const word of mentioned) for (const tool of toolsNamed(index, word)) if (tool >= 0 && tool < scores.length) scores[tool]! += bonus;
}

const decoded = new WeakMap<SearchIndex, DecodedVectors | null>();

/** The index's tool vectors, decoded once per index; null when it has none (or they do not fit its tools). */
function vectorsOf(index: SearchIndex): DecodedVectors | null {
  let vectors = decoded.get(index);
  if (vectors === undefined) decoded.set(index, (vectors = (index.vectors && decodeVectors(index.vectors, index.toolCount)) || null));
  return vectors;
}

/**
 * Adds each tool's closeness to the query in word-vector space (a z-score), at `vectorWeight`
 * times a gate: `vectorFloor` when the catalogue knows every query word, up to 1 as more of the
 * query (by weight) is words no tool holds, where words alone cannot help.
 */
function vectorScores(index: SearchIndex, text: string, table: Pick<WordVectors, "dims" | "vector">, scores: number[]): void {
  const { vectorWeight, vectorFloor } = index.query;
  const vectors = vectorsOf(index);
  if (!vectors || !(vectorWeight > 0) || table.dims !== vectors.dims) return;
  const lemmas = lemmasOf(index);
  const looked = new Map<string, TextWord & { known: boolean }>();
  const queryWords: Array<TextWord & { known: boolean }> = [];
  for (const word of words(text)) {
    if (isStopWord(word)) continue;
    let entry = looked.get(word);
    if (!entry) {
      if (looked.size >= MAX_TERMS) continue;
      const term = index.query.stemming ? (lemmas.get(word) ?? stem(word)) : word;
      const holders = ((postingsOf(index, term)?.length ?? 1) - 1) / 2;
      const idf = vectorIdf(index.toolCount, holders);
      looked.set(word, (entry = { vector: table.vector(word), idf, known: holders > 0 || Object.hasOwn(index.related, term) }));
    }
    queryWords.push(entry);
  }
  let total = 0;
  let unknown = 0;
  for (const { vector, known } of queryWords) {
    const weight = vector ? sifWeight(vector.rank, vectors.sif) : 1;
    total += weight;
    if (!known) unknown += weight;
  }
  const z = closeness(vectors, textVector(queryWords, vectors.dims, vectors.sif));
  if (!z || total === 0) return;
  const weight = vectorWeight * (vectorFloor + (1 - vectorFloor) * (unknown / total));
  z.forEach((value, i) => {
    scores[i] = (scores[i] ?? 0) + weight * value;
  });
}

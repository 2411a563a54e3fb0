/**
 * Building the search index: BM25F over a tool's fields (each field's term frequencies weighted
 * and length-normalised, then summed, so BM25 saturates once per term), and a table from words
 * that are not in the catalogue to words that are, through WordNet, so a query in other words
 * still reaches a tool. Everything a query needs is precomputed here; the result is plain JSON.
 */
import type { JsonObject } from "../../protocol/jsonrpc.js";
import type { ToolRecord } from "../records.js";
import { isStopWord, stem, terms, words } from "./text.js";
import { type FieldWeights, type SearchTuning, tune } from "./tuning.js";
import { catalogueVectors, type IndexVectors, vectorIdf } from "../vectors/embed.js";
import type { WordVector, WordVectors } from "../vectors/table.js";
import type { Lexicon } from "./wordnet.js";
import { nameTables } from "./names.js";
import { INDEX_VERSION, type SearchIndex } from "./index-shape.js";

type Field = keyof FieldWeights;

/** Parameter names and descriptions, nested objects and arrays included, to a bounded depth. */
function parameters(schema: JsonObject | undefined, depth = 0): { names: string[]; descriptions: string[] } {
  const names: string[] = [];
  const descriptions: string[] = [];
  const properties = schema?.properties;
  if (depth > 3 || !properties || typeof properties !== "object" || Array.isArray(properties)) return { names, descriptions };
  for (const [key, value] of Object.entries(properties)) {
    names.push(key);
    if (!value || typeof value !== "object" || Array.isArray(value)) continue;
    const property = value as JsonObject;
    if (typeof property.description === "string") descriptions.push(property.description);
    if (typeof property.title === "string") descriptions.push(property.title);
    const items = property.items;
    const nested = [property, ...(items && typeof items === "object" && !Array.isArray(items) ? [items as JsonObject] : [])];
    for (const inner of nested) {
      const found = parameters(inner, depth + 1);
      names.push(...found.names);
      descriptions.push(...found.descriptions);
    }
  }
  return { names, descriptions };
}

function fieldTexts(tool: ToolRecord, serverDescription: string): Record<Field, string> {
  const schema = parameters(tool.inputSchema);
  return {
    name: tool.tool,
    title: tool.title ?? "",
    server: tool.server,
    description: tool.description,
    parameterName: schema.names.join(" "),
    parameterDescription: schema.descriptions.join(" "),
    serverDescription,
  };
}

export interface BuildOptions {
  tuning?: SearchTuning;
  /** Where related words come from; none: no related words. */
  lexicon?: Lexicon;
  /** Where word vectors come from; none: no vectors (the ranking is lexical only). */
  vectors?: Pick<WordVectors, "dims" | "vector">;
}

export function buildSearchIndex(tools: ToolRecord[], serverDescriptions: Record<string, string>, options: BuildOptions = {}): SearchIndex {
  const tuning = options.tuning ?? tune();
  const fields = (Object.keys(tuning.fields) as Field[]).filter((field) => tuning.fields[field] > 0);
  const texts = tools.map((tool) => fieldTexts(tool, Object.hasOwn(serverDescriptions, tool.server) ? (serverDescriptions[tool.server] ?? "") : ""));
  const lemmas =
    options.lexicon && tuning.stemming && tuning.stemLemmas
      ? stemCollisions(new Set(texts.flatMap((text) => fields.flatMap((field) => words(text[field])))), options.lexicon)
      : new Map<string, string>();
  const asTerm = (word: string) => (tuning.stemming ? (lemmas.get(word) ?? stem(word)) : word);

  // term counts per tool and field, and each field's average length
  const counts = texts.map((text) => new Map(fields.map((field) => [field, countTerms(terms(text[field], tuning.stemming, lemmas))])));
  const lengths = new Map(fields.map((field) => [field, counts.map((byField) => sum(byField.get(field)!.values()))]));
  const average = new Map(fields.map((field) => [field, sum(lengths.get(field)!) / Math.max(1, tools.length)]));

  const postings = new Map<string, number[]>();
  counts.forEach((byField, toolIndex) => {
    const weights = new Map<string, number>();
    for (const field of fields) {
      const length = lengths.get(field)![toolIndex]!;
      const norm = 1 - tuning.b + (tuning.b * length) / (average.get(field)! || 1);
      for (const [term, count] of byField.get(field)!) weights.set(term, (weights.get(term) ?? 0) + (tuning.fields[field] * count) / norm);
    }
    for (const [term, weight] of weights) {
      let list = postings.get(term);
      if (!list) postings.set(term, (list = []));
      list.push(toolIndex, round(weight));
    }
  });
  const vocabulary = new Set<string>();
  // parameter descriptions are the bulk of a catalogue's words and weigh little: their words are not looked up
  const expanded = fields.filter((field) => field !== "parameterDescription");
  for (const text of texts) for (const field of expanded) for (const word of words(text[field])) vocabulary.add(word);
  const relatedWords = new Set<string>();
  const related = options.lexicon ? relatedTerms(vocabulary, options.lexicon, tuning, relatedWords, asTerm) : new Map<string, Map<string, number>>();
  if (!tuning.expandKnownWords) for (const term of postings.keys()) related.delete(term);
  const discount =
    options.lexicon && tuning.commonness > 0 ? commonDiscounts([...vocabulary, ...relatedWords], options.lexicon, tuning, asTerm) : new Map<string, number>();
  for (const [source, targets] of related) {
    const factor = discount.get(source) ?? 1;
    for (const [target, weight] of targets) targets.set(target, round(weight * factor));
  }

  const total = tools.length;
  const withIdf = [...postings].map(([term, list]): [string, string] => {
    const idf = vectorIdf(total, list.length / 2);
    return [term, [round(idf * (discount.get(term) ?? 1)), ...list].join(" ")];
  });
  const vectors =
    options.vectors && tuning.vectorWeight > 0
      ? toolVectors(tools, texts, options.vectors, tuning, (word) => vectorIdf(total, (postings.get(asTerm(word))?.length ?? 0) / 2))
      : undefined;

  return {
    version: INDEX_VERSION,
    query: {
      stemming: tuning.stemming,
      k1: tuning.k1,
      nameTiers: tuning.nameTiers,
      nameMention: tuning.nameMention,
      prefix: tuning.prefix,
      prefixWeight: tuning.prefixWeight,
      vectorWeight: vectors ? tuning.vectorWeight : 0,
      vectorFloor: tuning.vectorFloor,
    },
    toolCount: tools.length,
    tools: Object.fromEntries(tools.map(({ name, server, tool, description }, i) => [String(i), [name, server, tool, summary(description)]])),
    // the folded names here, not per query: folding 1,000 names cost a command milliseconds
    ...nameTables(tools),
    postings: Object.fromEntries(withIdf),
    prefixes: Object.fromEntries([...prefixTable(postings.keys(), tuning.prefix)].map(([start, terms]) => [start, terms.join(" ")])),
    related: Object.fromEntries([...related].map(([word, targets]) => [word, [...targets].flat().join(" ")])),
    lemmas: Object.fromEntries([...lemmas].sort()),
    ...(vectors ? { vectors } : {}),
  };
}

/** Each tool's vector from the words of its name, description and parameter names (what says what it does). */
function toolVectors(
  tools: ToolRecord[],
  texts: Array<Record<Field, string>>,
  table: Pick<WordVectors, "dims" | "vector">,
  tuning: SearchTuning,
  idf: (word: string) => number,
): IndexVectors | undefined {
  const known = new Map<string, WordVector | undefined>();
  const lookup = (word: string) => {
    if (!known.has(word)) known.set(word, table.vector(word));
    return known.get(word);
  };
  const catalogue = texts.map((text, i) => ({
    server: tools[i]!.server,
    words: [text.name, text.description, text.parameterName]
      .flatMap((part) => words(part))
      .filter((word) => !isStopWord(word))
      .map((word) => ({ vector: lookup(word), idf: idf(word) })),
  }));
  return catalogueVectors(catalogue, table.dims, tuning.sif, tuning.serverBlend);
}

/** For each catalogue word, the words WordNet relates to it, as a table from those words back to the catalogue's term. */
function relatedTerms(
  vocabulary: Set<string>,
  lexicon: Lexicon,
  tuning: SearchTuning,
  used: Set<string>,
  asTerm: (word: string) => string,
): Map<string, Map<string, number>> {
  const table = new Map<string, Map<string, number>>();
  for (const word of vocabulary) {
    if (!/^[a-z]{3,}$/.test(word)) continue;
    const target = asTerm(word);
    for (const { word: other, relation } of lexicon.related(word)) {
      const weight = tuning.relations[relation];
      const source = asTerm(other);
      if (!(weight > 0) || source === target || isStopWord(other)) continue;
      used.add(other);
      let targets = table.get(source);
      if (!targets) table.set(source, (targets = new Map()));
      targets.set(target, Math.max(targets.get(target) ?? 0, weight));
    }
  }
  return table;
}

/** term -> its discount as a query word, from how common in English its most common word is. */
function commonDiscounts(words: Iterable<string>, lexicon: Lexicon, tuning: SearchTuning, asTerm: (word: string) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const word of words) {
    if (!/^[a-z]{2,}$/.test(word)) continue;
    const term = asTerm(word);
    counts.set(term, Math.max(counts.get(term) ?? 0, lexicon.frequency(word)));
  }
  const discounts = new Map<string, number>();
  for (const [term, count] of counts) if (count > 0) discounts.set(term, 1 / (1 + tuning.commonness * Math.log(1 + count)));
  return discounts;
}

/**
 * The catalogue's words whose Porter stem is another word that WordNet knows and does not relate
 * to them ("news" stems to "new", "organization" to "organ", "using" to "us"), each with its
 * shortest WordNet lemma, which stands for it instead of the stem, so it stops matching the
 * unrelated word. A stem that is the word's base form ("files" -> "file") or a related word
 * ("recommendations" -> "recommend") is kept.
 */
function stemCollisions(vocabulary: Set<string>, lexicon: Lexicon): Map<string, string> {
  const lemmas = new Map<string, string>();
  if (!lexicon.baseForms) return lemmas;
  for (const word of vocabulary) {
    if (!/^[a-z]{3,}$/.test(word)) continue;
    const stemmed = stem(word);
    if (stemmed === word || !lexicon.baseForms(stemmed).includes(stemmed)) continue;
    const bases = lexicon.baseForms(word);
    if (bases.length === 0 || bases.includes(stemmed)) continue;
    const related = new Set([word, ...bases].flatMap((form) => lexicon.related(form).map((other) => other.word)));
    if (related.has(stemmed)) continue;
    const lemma = bases.reduce((shortest, base) => (base.length < shortest.length ? base : shortest));
    lemmas.set(word, lemma);
    // the lemma itself too, so a query in the base form ("organization") meets the catalogue's inflected one ("organizations")
    if (stem(lemma) !== lemma) lemmas.set(lemma, lemma);
  }
  // and the lemma's other regular forms WordNet takes back to it, so "changing" still meets "changes" (both "change", not "chang")
  for (const lemma of new Set(lemmas.values())) {
    for (const form of inflections(lemma)) if (!lemmas.has(form) && lexicon.baseForms(form).includes(lemma)) lemmas.set(form, lemma);
  }
  return lemmas;
}

/** A word's regular English inflections, to be checked against WordNet (change -> changes, changed, changing; plan -> planned). */
function inflections(lemma: string): string[] {
  if (lemma.endsWith("e")) return [`${lemma}s`, `${lemma}d`, `${lemma.slice(0, -1)}ing`];
  if (/[^aeiou]y$/.test(lemma)) return [`${lemma.slice(0, -1)}ies`, `${lemma.slice(0, -1)}ied`, `${lemma}ing`];
  const forms = [/(s|x|z|ch|sh)$/.test(lemma) ? `${lemma}es` : `${lemma}s`, `${lemma}ed`, `${lemma}ing`];
  if (/[^aeiou][aeiou][bdgmnprt]$/.test(lemma)) forms.push(`${lemma}${lemma.at(-1)}ed`, `${lemma}${lemma.at(-1)}ing`);
  return forms;
}

/** Latin terms at least `length` long, by their first `length` letters. */
function prefixTable(terms: Iterable<string>, length: number): Map<string, string[]> {
  const table = new Map<string, string[]>();
  if (length <= 0) return table;
  for (const term of terms) {
    if (term.length < length || !/^[a-z]+$/.test(term)) continue;
    const key = term.slice(0, length);
    table.set(key, [...(table.get(key) ?? []), term]);
  }
  return table;
}

/** Longest description a hit carries: search answers which tool, the full text is the cache's (`mcpx types`, `mcpx__describe`). */
export const SUMMARY_LENGTH = 240;

/** The description's first paragraph, cut at a word before SUMMARY_LENGTH characters. */
export function summary(description: string): string {
  const first = description
    .trim()
    .split(/\n\s*\n/)[0]!
    .replace(/\s+/g, " ");
  if (first.length <= SUMMARY_LENGTH) return first;
  const cut = first.slice(0, SUMMARY_LENGTH - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > SUMMARY_LENGTH / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.]+$/, "")}…`;
}

function countTerms(list: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const term of list) counts.set(term, (counts.get(term) ?? 0) + 1);
  return counts;
}

function sum(values: Iterable<number>): number {
  let total = 0;
  for (const value of values) total += value;
  return total;
}

/** Four decimals are plenty for a ranking, and keep the JSON small. */
function round(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}

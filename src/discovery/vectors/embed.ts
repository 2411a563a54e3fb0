/**
 * Tools and queries as points in word-vector space, so a request in other words than the tool's
 * still lands near it ("a durable blender" near "kitchen appliances"). A text's vector is the
 * weighted mean of its words' vectors (SIF: a word counts a / (a + p(word)), p its frequency in
 * English from its rank, times its idf in the catalogue), less the catalogue's common direction
 * (what all its tools share says nothing about which one is meant). No I/O: word vectors come in
 * through a `WordVectors`, and the index keeps the tools' vectors as base64 int8.
 */
import { dotProducts } from "./dots.js";
import type { WordVector } from "./table.js";

export interface IndexVectors {
  dims: number;
  /** SIF's a: how fast a frequent word stops counting. */
  sif: number;
  /** The catalogue's common direction (unit length), base64 of float32s. */
  common: string;
  /** Each tool's unit vector ×127 as int8, `dims` per tool in the index's order, base64; all zeros: the tool has none. */
  tools: string;
}

/** Words in a table of this size follow Zipf's law: p(rank) ≈ 1 / ((rank + 1) × ln(1.78 × V)), V the English vocabulary. */
const ZIPF = 1 / Math.log(1.78 * 400_000);

/** How much a word counts in a text's vector, from its rank in English (0 = most frequent). */
export function sifWeight(rank: number, a: number): number {
  return a / (a + ZIPF / (rank + 1));
}

/** BM25's idf of a term `frequency` of `tools` tools hold (0: a word the catalogue lacks, which says the most). */
export function vectorIdf(tools: number, frequency: number): number {
  return Math.log(1 + (tools - frequency + 0.5) / (frequency + 0.5));
}

/** A word of a text: its vector (none when the table lacks it) and its idf in the catalogue (the SIF weight is added here). */
export interface TextWord {
  vector: WordVector | undefined;
  idf: number;
}

/** The weighted mean of the words' vectors, unnormalised; undefined when the table knows none of them. */
export function textVector(words: TextWord[], dims: number, sif: number): Float64Array | undefined {
  const sum = new Float64Array(dims);
  let known = 0;
  for (const { vector, idf } of words) {
    if (!vector || vector.values.length !== dims) continue;
    const weight = sifWeight(vector.rank, sif) * idf;
    for (let d = 0; d < dims; d++) sum[d]! += weight * vector.values[d]!;
    known++;
  }
  return known > 0 ? sum : undefined;
}

export interface CatalogueTool {
  server: string;
  words: TextWord[];
}

/**
 * The tools' vectors for the index: each text's vector less the common direction, then blended
 * half-and-half with its server's mean, so the vectors mostly tell servers (areas) apart and
 * leave the order of a server's near-identical siblings to the words.
 */
export function catalogueVectors(tools: CatalogueTool[], dims: number, sif: number, serverBlend: number): IndexVectors | undefined {
  const raw = tools.map((tool) => textVector(tool.words, dims, sif));
  const common = new Float64Array(dims);
  for (const vector of raw) if (vector) add(common, vector, 1);
  if (!unit(common)) return undefined;
  const own = raw.map((vector) => (vector && unit(add(vector, common, -dot(vector, common))) ? vector : undefined));
  const centres = new Map<string, Float64Array>();
  own.forEach((vector, i) => {
    if (!vector) return;
    const server = tools[i]!.server;
    let centre = centres.get(server);
    if (!centre) centres.set(server, (centre = new Float64Array(dims)));
    add(centre, vector, 1);
  });
  for (const centre of centres.values()) unit(centre);
  const bytes = new Int8Array(dims * tools.length);
  own.forEach((vector, i) => {
    if (!vector) return;
    const blended = add(
      vector.map((value) => value * serverBlend),
      centres.get(tools[i]!.server)!,
      1 - serverBlend,
    );
    if (!unit(blended)) return;
    for (let d = 0; d < dims; d++) bytes[i * dims + d] = Math.round(blended[d]! * 127);
  });
  return {
    dims,
    sif,
    common: Buffer.from(Float32Array.from(common).buffer).toString("base64"),
    tools: Buffer.from(bytes.buffer).toString("base64"),
  };
}

/** The decoded form of an index's vectors, made once per index. */
export interface DecodedVectors {
  dims: number;
  sif: number;
  common: Float32Array;
  tools: Int8Array;
}

export function decodeVectors(vectors: IndexVectors, toolCount: number): DecodedVectors | undefined {
  const common = Buffer.from(vectors.common, "base64");
  const tools = Buffer.from(vectors.tools, "base64");
  const { dims } = vectors;
  if (!(dims > 0) || common.length !== 4 * dims || tools.length !== dims * toolCount) return undefined;
  return {
    dims,
    sif: vectors.sif,
    common: new Float32Array(common.buffer.slice(common.byteOffset, common.byteOffset + common.length)),
    tools: new Int8Array(tools.buffer.slice(tools.byteOffset, tools.byteOffset + tools.length)),
  };
}

/**
 * Each tool's closeness to the query as a z-score over the catalogue (how many spreads above the
 * average tool), so its weight means the same in any catalogue; undefined when the query has no
 * vector or every tool is as close as the others.
 */
export function closeness(vectors: DecodedVectors, query: Float64Array | undefined): Float64Array | undefined {
  if (!query || query.length !== vectors.dims) return undefined;
  const { dims, tools, common } = vectors;
  add(query, Float64Array.from(common), -dot(query, Float64Array.from(common)));
  if (!unit(query)) return undefined;
  // every tool's dot product with the query, at once (dots.ts: in JavaScript this loop cost a search more than the rest of its ranking)
  const scores = dotProducts(tools, dims, query);
  const count = scores.length;
  let mean = 0;
  for (let i = 0; i < count; i++) {
    scores[i] = scores[i]! / 127;
    mean += scores[i]!;
  }
  mean /= count;
  let spread = 0;
  for (const score of scores) spread += (score - mean) ** 2;
  spread = Math.sqrt(spread / count);
  if (!(spread > 1e-9)) return undefined;
  return scores.map((score) => (score - mean) / spread);
}

function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let total = 0;
  for (let i = 0; i < a.length; i++) total += a[i]! * b[i]!;
  return total;
}

/** a += factor × b, in place; returns a. */
function add(a: Float64Array, b: ArrayLike<number>, factor: number): Float64Array {
  for (let i = 0; i < a.length; i++) a[i]! += factor * b[i]!;
  return a;
}

/** Scales a vector to unit length in place; false when it is zero. */
function unit(vector: Float64Array): boolean {
  const length = Math.sqrt(dot(vector, vector));
  if (!(length > 0)) return false;
  for (let i = 0; i < vector.length; i++) vector[i]! /= length;
  return true;
}

/**
 * A query that is a tool's name, or nearly: the match BM25 misses most often (a name is one
 * rare "word" to a text ranker, or several common ones). Tiers, best first; a tool in a tier
 * ranks before every tool in a lower tier, whatever their text scores.
 */
import { foldName } from "./text.js";

export const NAME_TIER = {
  /** `SERVER__TOOL`, exactly. */
  fullExact: 6,
  /** `SERVER__TOOL` in other case or separators ("server tool", "Server-Tool"). */
  fullFolded: 5,
  /** The tool's own name, exactly. */
  toolExact: 4,
  /** The tool's name in other case or separators (camelCase, spaces, dashes). */
  toolFolded: 3,
  /** Within a typo or two of the tool's name or of `SERVER__TOOL`. */
  typo: 2,
  /** The start of the tool's name. */
  prefix: 1,
  none: 0,
} as const;

/** Longest folded query compared letter by letter against names; longer ones are sentences, not names. */
const MAX_NAME = 120;
/** A prefix is looked for among the names that share its first letters, this many. */
const START = 3;

export interface NameQuery {
  exact: string;
  folded: string;
}

/**
 * The catalogue's names as tables a query looks a few entries up in, so that it never reads
 * every name (an index kept on disk looks each entry up in its file: table-file.ts). Each value
 * lists tools by their number in the index.
 */
export interface NameTables {
  /** `=NAME` (SERVER__TOOL as given), `~FOLDED` (it folded), `t=TOOL` (the tool's own name), `t~FOLDED` -> "tool tool …". */
  names: Record<string, string>;
  /** A folded name's length -> "tool folded tool folded …": the names a typo can reach. */
  nameLengths: Record<string, string>;
  /** The first letters of a tool's folded own name -> "tool folded …": the names a prefix can start. */
  nameStarts: Record<string, string>;
}

export function nameQuery(query: string): NameQuery {
  const exact = query.trim();
  return { exact, folded: foldName(exact) };
}

/** The tables of these tools' names (`SERVER__TOOL` and the tool's own), tool `i` being `tools[i]`. */
export function nameTables(tools: ReadonlyArray<{ name: string; tool: string }>): NameTables {
  const names = new Map<string, number[]>();
  const lengths = new Map<string, string[]>();
  const starts = new Map<string, string[]>();
  const add = <T>(table: Map<string, T[]>, key: string, ...values: T[]) => {
    const list = table.get(key);
    if (list) list.push(...values);
    else table.set(key, values);
  };
  tools.forEach(({ name, tool }, i) => {
    const fullFolded = foldName(name);
    const toolFolded = foldName(tool);
    const keys = new Set([`=${name}`, `~${fullFolded}`, `t=${tool}`, `t~${toolFolded}`]);
    for (const key of keys) add(names, key, i);
    for (const folded of new Set([fullFolded, toolFolded])) if (folded.length > 0) add(lengths, String(folded.length), String(i), folded);
    if (toolFolded.length >= START) add(starts, toolFolded.slice(0, START), String(i), toolFolded);
  });
  const asText = <T>(table: Map<string, T[]>) => Object.fromEntries([...table].map(([key, list]) => [key, list.join(" ")]));
  return { names: asText(names), nameLengths: asText(lengths), nameStarts: asText(starts) };
}

/**
 * Each tool whose name the query is, or nearly, with its tier (the best it reaches, with a
 * fraction within the tier: closer typos and longer prefixes rank higher), by tool number.
 */
export function nameTiers(query: NameQuery, tables: NameTables): Map<number, number> {
  const tiers = new Map<number, number>();
  const raise = (tool: number, tier: number) => {
    if (!(tier <= (tiers.get(tool) ?? 0))) tiers.set(tool, tier);
  };
  const named = (key: string, tier: number) => {
    for (const tool of listed(tables.names, key)) raise(Number(tool), tier);
  };
  const { exact, folded } = query;
  named(`=${exact}`, NAME_TIER.fullExact);
  named(`t=${exact}`, NAME_TIER.toolExact);
  // nothing to fold (a name of symbols only) or a sentence, not a name: only the exact names count
  if (folded.length === 0 || folded.length > MAX_NAME) return tiers;
  named(`~${folded}`, NAME_TIER.fullFolded);
  named(`t~${folded}`, NAME_TIER.toolFolded);
  const allowed = typosAllowed(folded.length);
  // only names of a length within reach are compared: a table line for each length
  for (let length = folded.length - allowed; allowed > 0 && length <= folded.length + allowed; length++) {
    const line = listed(tables.nameLengths, String(length));
    for (let at = 0; at + 1 < line.length; at += 2) {
      const distance = editDistance(folded, line[at + 1]!, allowed);
      if (distance <= allowed) raise(Number(line[at]), NAME_TIER.typo + (allowed + 1 - distance) / (allowed + 2));
    }
  }
  if (folded.length >= START) {
    const line = listed(tables.nameStarts, folded.slice(0, START));
    for (let at = 0; at + 1 < line.length; at += 2) {
      const name = line[at + 1]!;
      if (name.startsWith(folded)) raise(Number(line[at]), NAME_TIER.prefix + folded.length / (name.length + 1));
    }
  }
  return tiers;
}

/** The tools whose own name, folded, is `folded` (a query word naming a tool). */
export function toolsNamed(tables: NameTables, folded: string): number[] {
  return listed(tables.names, `t~${folded}`).map(Number);
}

/** A table's entry as its words; none when it has no such key (or a damaged file gives something else). */
function listed(table: Record<string, string>, key: string): string[] {
  const value: unknown = Object.hasOwn(table, key) ? table[key] : undefined;
  return typeof value === "string" && value !== "" ? value.split(" ") : [];
}

/** One typo in a short name, two in a long one, none in a name too short to tell typos from other names. */
function typosAllowed(length: number): number {
  if (length < 4) return 0;
  return length < 9 ? 1 : 2;
}

/** Three rows of the distance table, reused by every call (a query is compared with every name). */
let rows = [new Int32Array(64), new Int32Array(64), new Int32Array(64)];

/**
 * Optimal string alignment distance (a swap of neighbours is one typo), or `bound + 1` once it
 * must exceed `bound`. Only the band of cells within `bound` of the diagonal is computed: a
 * command compares the query with every name, once, in code not yet optimised.
 */
export function editDistance(a: string, b: string, bound: number): number {
  const n = a.length;
  const m = b.length;
  const over = bound + 1;
  if (Math.abs(n - m) > bound) return over;
  // most names of a length near the query's share too few letters with it to be within reach
  if (bagDistance(a, b) > bound) return over;
  if (rows[0]!.length < m + 2) rows = [new Int32Array(m + 2), new Int32Array(m + 2), new Int32Array(m + 2)];
  // three named rows, turned by hand: destructuring goes through the iterator protocol, which the
  // interpreter a command runs in pays for on every row
  let before = rows[0]!;
  let previous = rows[1]!;
  let current = rows[2]!;
  for (let j = 0; j <= m; j++) previous[j] = j;
  for (let i = 1; i <= n; i++) {
    const from = Math.max(1, i - bound);
    const to = Math.min(m, i + bound);
    // The cells left and right of the band are out of reach: more than `bound` typos away.
    current[from - 1] = from === 1 ? i : over;
    if (to < m) current[to + 1] = over;
    let rowBest = current[from - 1]!;
    const ai = a.charCodeAt(i - 1);
    const aBefore = i > 1 ? a.charCodeAt(i - 2) : -1;
    for (let j = from; j <= to; j++) {
      const bj = b.charCodeAt(j - 1);
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (ai === bj ? 0 : 1));
      if (j > 1 && ai === b.charCodeAt(j - 2) && aBefore === bj) value = Math.min(value, before[j - 2]! + 1);
      current[j] = value;
      if (value < rowBest) rowBest = value;
    }
    if (rowBest > bound) return over;
    const spare = before;
    before = previous;
    previous = current;
    current = spare;
  }
  return Math.min(previous[m]!, over);
}

/** Letters counted by their code's low 7 bits: two letters sharing a slot only lower the bound, never raise it. */
const SLOTS = 128;
/** How often each slot occurs in `countedFor` (the query: every name is compared with the same one). */
const wanted = new Int32Array(SLOTS);
let countedFor: string | undefined;
/** A name's slots as they are counted, zero again after each use. */
const seen = new Int32Array(SLOTS);

/**
 * The bag distance of `a` and `b`: the letters of the one that the other lacks (as multisets),
 * the larger count of the two. Every typo (a letter added, dropped or changed) adds at most one
 * to each count and a swap of neighbours adds none, so no string within `bound` typos has a bag
 * distance above `bound`. A walk over each string, where the table costs their product.
 */
export function bagDistance(a: string, b: string): number {
  if (countedFor !== a) {
    wanted.fill(0);
    for (let i = 0; i < a.length; i++) wanted[a.charCodeAt(i) & (SLOTS - 1)]!++;
    countedFor = a;
  }
  let extra = 0;
  for (let i = 0; i < b.length; i++) {
    const slot = b.charCodeAt(i) & (SLOTS - 1);
    if (++seen[slot]! > wanted[slot]!) extra++;
  }
  for (let i = 0; i < b.length; i++) seen[b.charCodeAt(i) & (SLOTS - 1)] = 0;
  // b's letters that a has are b.length - extra; the rest of a's are the ones b lacks
  return Math.max(extra, a.length - (b.length - extra));
}

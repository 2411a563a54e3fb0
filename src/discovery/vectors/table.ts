/**
 * The word-vector table (data/word-vectors/words.bin, made by scripts/word-vectors.mjs from
 * GloVe): 50,000 English words, each 64 int8 numbers and its frequency rank, sorted by word.
 * Opening it reads the sorted words and where each starts (about 0.6 MB, a sixth of the file);
 * a word is then found by a binary search in memory and its vector read at its offset, one small
 * read per word, so a query never loads the 3.7 MB whole.
 *
 * The one module of the vectors that does I/O; the rest takes a `WordVectors`.
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
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

/** The table shipped with mcpx (dist/discovery/vectors/ -> data/word-vectors/). */
export const DEFAULT_TABLE = fileURLToPath(new URL("../../../data/word-vectors/words.bin", import.meta.url));

const MAGIC = "mcpxwv1\n";
const MAX_WORD = 40;
/** Words whose vectors (or absence) a table keeps in memory: about 0.5 MB at most. */
const REMEMBERED = 4096;

/** Opens a table, checking its header and that its sections fit the file; throws when it cannot be read. */
export function openWordVectors(file: string = DEFAULT_TABLE): WordVectors {
  const fd = openSync(file, "r");
  try {
    const size = fstatSync(fd).size;
    const header = read(fd, 0, 16);
    if (header.toString("latin1", 0, 8) !== MAGIC) throw new Error(`${file}: not a word-vector table`);
    const count = header.readUInt32LE(8);
    const dims = header.readUInt32LE(12);
    if (dims === 0 || dims > 1024 || count === 0) throw new Error(`${file}: a table of ${count} words × ${dims} dims`);
    const scales = read(fd, 16, 4 * dims);
    const offsetsAt = 16 + 4 * dims;
    const recordsAt = offsetsAt + 4 * (count + 1);
    const recordBytes = dims + 2;
    const wordsAt = recordsAt + count * recordBytes;
    if (offsetsAt + 4 * (count + 1) > size) throw new Error(`${file}: ${size} bytes, too short for ${count} words`);
    const offsets = read(fd, offsetsAt, 4 * (count + 1));
    const wordBytes = offsets.readUInt32LE(4 * count);
    if (wordsAt + wordBytes !== size) throw new Error(`${file}: ${size} bytes, its header says ${wordsAt + wordBytes}`);
    const sorted = read(fd, wordsAt, wordBytes);
    const scale = Float32Array.from({ length: dims }, (_, d) => scales.readFloatLE(4 * d));
    const wordAt = (i: number): Buffer => {
      const start = offsets.readUInt32LE(4 * i);
      const end = offsets.readUInt32LE(4 * i + 4);
      if (end < start || end - start > MAX_WORD || end > wordBytes) throw new Error(`${file}: damaged at word ${i}`);
      return sorted.subarray(start, end);
    };
    let closed = false;
    const remembered = new Map<string, WordVector | undefined>();
    const find = (word: string): WordVector | undefined => {
      const wanted = Buffer.from(word, "latin1");
      let low = 0;
      let high = count - 1;
      while (low <= high) {
        const mid = (low + high) >>> 1;
        const order = Buffer.compare(wordAt(mid), wanted);
        if (order === 0) {
          const record = read(fd, recordsAt + mid * recordBytes, recordBytes);
          const values = new Float32Array(dims);
          for (let d = 0; d < dims; d++) values[d] = record.readInt8(d) * scale[d]!;
          return { values, rank: record.readUInt16LE(dims) };
        }
        if (order < 0) low = mid + 1;
        else high = mid - 1;
      }
      return undefined;
    };
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

/**
 * A file read a page at a time, on demand, behind the few Buffer methods a table file's reader
 * uses (table-file.ts): `length`, `indexOf` and `lastIndexOf` of a byte, `subarray`. A search
 * reads the index's first line and a few pages of its tables, not the 700 KB of the whole file
 * (reading it whole cost a command about as much as ranking).
 *
 * The descriptor stays open while the file is looked up in, and is closed when nothing refers
 * to the PagedFile any more: the tables are looked up lazily, for as long as their holder lives.
 * A file replaced meanwhile (written atomically, by rename) is still read as it was opened.
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";

/** Small pages: a binary search touches one line of each page it reads. */
const PAGE = 4 * 1024;
/** Read first in one go: a table file's first line (an index's tools and their word vectors, about 160 KB for 527 tools) is read whole. */
const HEAD = 256 * 1024;

/** Closes the descriptor of a PagedFile that is no longer reachable. */
const closing = new FinalizationRegistry<number>((fd) => {
  try {
    closeSync(fd);
  } catch {
    // already closed: nothing to release
  }
});

export interface PagedFile {
  readonly length: number;
  /** The first `byte` at or after `from`, or -1. */
  indexOf(byte: number, from?: number): number;
  /** The last `byte` at or before `from`, or -1. */
  lastIndexOf(byte: number, from: number): number;
  /** The bytes [start, end) (a copy when they span pages past the first read). */
  subarray(start: number, end: number): Buffer;
  /** How the bytes [start, end) order against `key`, as Buffer.compare (a copy made only when they span pages past the first read). */
  compare(key: Buffer, start: number, end: number): number;
}

/** Opens `file` for reading by pages; throws when it cannot be opened. */
export function openPagedFile(file: string): PagedFile {
  const fd = openSync(file, "r");
  let length: number;
  try {
    length = fstatSync(fd).size;
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  const pages = new Map<number, Buffer>();
  let head: Buffer | undefined;
  /** The first read: the first HEAD bytes (fewer when the file was cut short since it was opened). */
  const first = (): Buffer => (head ??= readAt(fd, 0, Math.min(HEAD, length)));
  // every Buffer made costs a command more than the bytes it looks at: pages are made once, and
  // what lies in the first read is looked at there, without one
  const page = (n: number): Buffer => {
    let bytes = pages.get(n);
    if (!bytes) {
      const start = n * PAGE;
      bytes =
        start < HEAD
          ? first().subarray(Math.min(start, first().length), Math.min(start + PAGE, first().length))
          : readAt(fd, start, Math.max(0, Math.min(PAGE, length - start)));
      pages.set(n, bytes);
    }
    return bytes;
  };
  /** The first read, when bytes up to `end` lie within it; else undefined (then they are read by pages). */
  const inHead = (end: number): Buffer | undefined => (end <= HEAD && end <= first().length ? first() : undefined);
  const paged: PagedFile = {
    length,
    indexOf(byte, from = 0) {
      const start = Math.max(0, from);
      if (start < HEAD) {
        const found = first().indexOf(byte, start);
        if (found >= 0 || first().length < HEAD) return found;
      }
      for (let at = Math.max(start, HEAD); at < length; at = (Math.floor(at / PAGE) + 1) * PAGE) {
        const n = Math.floor(at / PAGE);
        const bytes = page(n);
        const found = bytes.indexOf(byte, at - n * PAGE);
        if (found >= 0) return n * PAGE + found;
        if (bytes.length < PAGE) return -1;
      }
      return -1;
    },
    lastIndexOf(byte, from) {
      const start = Math.min(from, length - 1);
      if (start >= 0 && start < first().length) return first().lastIndexOf(byte, start);
      for (let at = start; at >= 0; at = Math.floor(at / PAGE) * PAGE - 1) {
        const n = Math.floor(at / PAGE);
        const bytes = page(n);
        const within = at - n * PAGE;
        if (within >= bytes.length) return -1;
        const found = bytes.lastIndexOf(byte, within);
        if (found >= 0) return n * PAGE + found;
      }
      return -1;
    },
    subarray(start, end) {
      const from = Math.max(0, start);
      const to = Math.min(length, end);
      if (to <= from) return Buffer.alloc(0);
      const within = inHead(to);
      if (within) return within.subarray(from, to);
      const firstPage = Math.floor(from / PAGE);
      const last = Math.floor((to - 1) / PAGE);
      if (firstPage === last) return page(firstPage).subarray(from - firstPage * PAGE, to - firstPage * PAGE);
      const parts: Buffer[] = [];
      for (let n = firstPage; n <= last; n++) parts.push(page(n).subarray(n === firstPage ? from - n * PAGE : 0, n === last ? to - n * PAGE : PAGE));
      return Buffer.concat(parts);
    },
    compare(key, start, end) {
      const from = Math.max(0, start);
      const to = Math.max(from, Math.min(length, end));
      const within = inHead(to);
      if (within) return compareBytes(within, from, to, key);
      const n = Math.floor(from / PAGE);
      const bytes = to > from && Math.floor((to - 1) / PAGE) === n ? page(n) : undefined;
      // a page cut short (the file shrank since it was opened) goes through subarray, which reads what is there
      if (bytes && to - n * PAGE <= bytes.length) return compareBytes(bytes, from - n * PAGE, to - n * PAGE, key);
      return Buffer.compare(paged.subarray(from, to), key);
    },
  };
  closing.register(paged, fd);
  return paged;
}

/** `wanted` bytes of the file at `start`, fewer when it was cut short since it was opened (its reader then finds it damaged). */
function readAt(fd: number, start: number, wanted: number): Buffer {
  // not zero-filled: only the bytes read are kept
  const buffer = Buffer.allocUnsafe(wanted);
  let got = 0;
  while (got < wanted) {
    const read = readSync(fd, buffer, got, wanted - got, start + got);
    if (read === 0) break;
    got += read;
  }
  return buffer.subarray(0, got);
}

/**
 * How `bytes[start, end)` orders against `key`, as Buffer.compare, byte by byte: Buffer's own
 * compare with offsets makes objects on every call (about 400 bytes; a subarray about 100), and a
 * search compares a key at every step of every lookup, which it paid for in garbage collection.
 */
export function compareBytes(bytes: Buffer, start: number, end: number, key: Buffer): number {
  const length = Math.min(end - start, key.length);
  for (let i = 0; i < length; i++) {
    const difference = bytes[start + i]! - key[i]!;
    if (difference !== 0) return difference < 0 ? -1 : 1;
  }
  const rest = end - start - key.length;
  return rest === 0 ? 0 : rest < 0 ? -1 : 1;
}

/**
 * A JSON record whose large tables are looked up where they lie instead of parsed: the search
 * index's per-term tables (postings, related words, prefixes) are nine tenths of it, and a query
 * reads a handful of their entries. Parsing them whole cost a discovery command more than it
 * has to spare.
 *
 * The text: a first line holding the record as JSON, each table replaced by an empty object and
 * its place given in `tables`; then each table as lines `KEY<tab>VALUE` (both JSON), sorted by
 * the bytes of KEY, so a key is found by binary search over the lines. Reading gives the record
 * back with each table as a read-only object that looks its keys up on access (`get`, `in`,
 * `Object.hasOwn`; enumerating it reads the whole table). A record without tables is its JSON on
 * one line, so a file written as plain JSON reads back as it was.
 *
 * Pure but for `readTableFile`, which reads a file's first line and then only the pages of its
 * tables that lookups reach (paged-file.ts): a query needs a few KB of a file of hundreds.
 */
import { isAscii } from "node:buffer";
import { compareBytes, openPagedFile, type PagedFile } from "./paged-file.js";

const NEWLINE = 0x0a;
const TAB = 0x09;

/** Where each table lies in the body (byte offsets after the first line), and the body's length. */
interface Places {
  tables: Record<string, [number, number]>;
  bodyBytes: number;
}

/** The record as text, the named fields of `record[holder]` (objects) stored as tables. */
export function encodeTableFile(record: Record<string, unknown>, holder: string, names: readonly string[]): string {
  const value = record[holder];
  if (!isPlainObject(value)) return JSON.stringify(record);
  const tables: Record<string, [number, number]> = {};
  const rest: Record<string, unknown> = { ...value };
  const sections: Buffer[] = [];
  let offset = 0;
  for (const name of names) {
    const table = value[name];
    if (!isPlainObject(table)) continue;
    const lines = Object.entries(table)
      .map(([key, entry]) => ({ key: Buffer.from(JSON.stringify(key)), entry: JSON.stringify(entry) }))
      .sort((a, b) => Buffer.compare(a.key, b.key))
      .map(({ key, entry }) => `${key.toString()}\t${entry}\n`);
    const section = Buffer.from(lines.join(""));
    tables[name] = [offset, offset + section.length];
    offset += section.length;
    sections.push(section);
    rest[name] = {};
  }
  if (sections.length === 0) return JSON.stringify(record);
  const places: Places = { tables, bodyBytes: offset };
  return `${JSON.stringify({ ...record, [holder]: rest, tablePlaces: places })}\n${Buffer.concat(sections).toString()}`;
}

/** The record `encodeTableFile` wrote to `file`, its tables read page by page when looked up; undefined when it is not one. Throws when the file cannot be opened. */
export function readTableFile(file: string, holder: string): Record<string, unknown> | undefined {
  return decodeTableFile(openPagedFile(file), holder);
}

/** What a table file is read from: its bytes in memory, or a file read page by page. */
type Bytes = Buffer | PagedFile;

/** The record `encodeTableFile` wrote; undefined when the text is not one (damaged, cut short). */
export function decodeTableFile(bytes: Bytes, holder: string): Record<string, unknown> | undefined {
  const newline = bytes.indexOf(NEWLINE);
  const record = parse(text(bytes.subarray(0, newline < 0 ? bytes.length : newline)));
  if (!isPlainObject(record)) return undefined;
  if (!("tablePlaces" in record)) return newline < 0 || newline === bytes.length - 1 ? record : undefined;
  const { tablePlaces: places, ...rest } = record;
  const value = rest[holder];
  const body = newline + 1;
  if (newline < 0 || !isPlaces(places) || places.bodyBytes !== bytes.length - body || !isPlainObject(value)) return undefined;
  const tables: Record<string, unknown> = {};
  for (const [name, [start, end]] of Object.entries(places.tables)) {
    if (!(start >= 0 && start <= end && end <= places.bodyBytes)) return undefined;
    tables[name] = lookedUp(bytes, body + start, body + end);
  }
  return { ...rest, [holder]: { ...value, ...tables } };
}

/** A read-only object whose keys are the lines of `bytes[start, end)`, each found when asked for. */
function lookedUp(bytes: Bytes, start: number, end: number): Record<string, unknown> {
  const found = new Map<string, unknown>();
  const find = (key: string): unknown => {
    if (found.has(key)) return found.get(key);
    const value = search(bytes, start, end, Buffer.from(JSON.stringify(key)));
    found.set(key, value);
    return value;
  };
  const keys = (): string[] => {
    const list: string[] = [];
    for (let at = start; at < end; ) {
      const tab = bytes.indexOf(TAB, at);
      const next = bytes.indexOf(NEWLINE, tab);
      list.push(parse(bytes.subarray(at, tab).toString("utf8")) as string);
      at = next + 1;
    }
    return list;
  };
  return new Proxy(Object.create(null) as Record<string, unknown>, {
    get: (_target, key) => (typeof key === "string" ? find(key) : undefined),
    has: (_target, key) => typeof key === "string" && find(key) !== undefined,
    getOwnPropertyDescriptor: (_target, key) => {
      const value = typeof key === "string" ? find(key) : undefined;
      return value === undefined ? undefined : { value, writable: false, enumerable: true, configurable: true };
    },
    ownKeys: () => keys(),
    set: () => false,
    defineProperty: () => false,
    deleteProperty: () => false,
  });
}

/** Binary search over the sorted lines of `bytes[start, end)` for the one whose key is `key`. */
function search(bytes: Bytes, start: number, end: number, key: Buffer): unknown {
  let low = start;
  let high = end;
  // Invariant: the line sought, if any, starts in [low, high), and low is a line's start.
  while (low < high) {
    const middle = (low + high) >>> 1;
    const line = Math.max(low, bytes.lastIndexOf(NEWLINE, middle - 1) + 1);
    const tab = bytes.indexOf(TAB, line);
    const next = bytes.indexOf(NEWLINE, line);
    if (tab < 0 || next < 0 || tab > next) return undefined; // damaged: not found, never a wrong entry
    const order = compareAt(bytes, line, tab, key);
    if (order === 0) return parse(bytes.subarray(tab + 1, next).toString("utf8"));
    if (order < 0) low = next + 1;
    else high = line;
  }
  return undefined;
}

/** How `bytes[start, end)` orders against `key`, as Buffer.compare, without a Buffer made for it (a search compares a key at every step). */
function compareAt(bytes: Bytes, start: number, end: number, key: Buffer): number {
  return Buffer.isBuffer(bytes) ? compareBytes(bytes, start, end, key) : bytes.compare(key, start, end);
}

/** UTF-8 text; when it is all ASCII (a kept index's first line is), copied as such, without decoding (a quarter of the cost). */
function text(bytes: Buffer): string {
  return isAscii(bytes) ? bytes.toString("latin1") : bytes.toString("utf8");
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isPlaces(value: unknown): value is Places {
  if (!isPlainObject(value) || typeof value.bodyBytes !== "number" || !isPlainObject(value.tables)) return false;
  return Object.values(value.tables).every((place) => Array.isArray(place) && place.length === 2 && place.every((offset) => Number.isInteger(offset)));
}

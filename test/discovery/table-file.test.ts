/**
 * The kept search index's storage (discovery/table-file.ts): its per-term tables are written as
 * sorted lines and looked up by binary search on access, never parsed whole. What is read back
 * is what was written, key by key, whatever the keys hold; a damaged or cut-short file is no record.
 */
import { describe, expect, it } from "vitest";
import { compareBytes } from "../../src/discovery/paged-file.js";
import { decodeTableFile, encodeTableFile } from "../../src/discovery/table-file.js";

const KEYS = [
  "a",
  "ab",
  "b",
  "",
  "Zeta",
  "é",
  "创建",
  "日本語",
  'quote"d',
  "tab\there",
  "line\nbreak",
  "back\\slash",
  "__proto__",
  "constructor",
  "0",
  "10",
  "9",
];

function record() {
  const postings = Object.fromEntries(KEYS.map((key, at) => [key, `${at} ${key.length}`]));
  const related = Object.fromEntries(Array.from({ length: 500 }, (_, at) => [`word${at}`, `term${at % 7} 0.5`]));
  return { version: 2, key: "k", index: { version: 9, tools: [{ name: "s__t" }], postings, related, small: { x: "y" } } };
}

describe("a record with tables looked up in place", () => {
  it("gives back every entry, finds none that was not written, and keeps the other fields", () => {
    const written = record();
    const text = encodeTableFile(written, "index", ["postings", "related", "absent"]);
    const read = decodeTableFile(Buffer.from(text), "index") as typeof written;
    expect(read).toBeDefined();
    expect(read.version).toBe(2);
    expect(read.index.tools).toEqual([{ name: "s__t" }]);
    expect(read.index.small).toEqual({ x: "y" });
    for (const [key, value] of Object.entries(written.index.postings)) {
      expect(read.index.postings[key], JSON.stringify(key)).toBe(value);
      expect(Object.hasOwn(read.index.postings, key)).toBe(true);
    }
    for (let at = 0; at < 500; at++) expect(read.index.related[`word${at}`]).toBe(`term${at % 7} 0.5`);
    for (const missing of ["c", "aa", "word500", "word", "toString", "hasOwnProperty", "é "]) {
      expect(read.index.postings[missing], missing).toBeUndefined();
      expect(Object.hasOwn(read.index.postings, missing)).toBe(false);
      expect(missing in read.index.related).toBe(false);
    }
    expect(Object.fromEntries(Object.entries(read.index.postings))).toEqual(written.index.postings);
    expect(JSON.parse(JSON.stringify(read))).toEqual(written);
  });

  it("stores the tables after a first line that holds the rest", () => {
    const text = encodeTableFile(record(), "index", ["postings", "related"]);
    const first = text.slice(0, text.indexOf("\n"));
    expect(first).toContain('"tools"');
    expect(first).not.toContain("word42");
    expect(text.split("\n").length).toBeGreaterThan(500);
  });

  it("is no record when damaged or cut short", () => {
    const bytes = Buffer.from(encodeTableFile(record(), "index", ["postings", "related"]));
    expect(decodeTableFile(bytes.subarray(0, bytes.length - 3), "index")).toBeUndefined();
    expect(decodeTableFile(Buffer.concat([bytes, Buffer.from("x\n")]), "index")).toBeUndefined();
    expect(decodeTableFile(Buffer.from("{not json\n"), "index")).toBeUndefined();
    expect(decodeTableFile(Buffer.alloc(0), "index")).toBeUndefined();
    // The body's bytes kept but its lines broken: lookups find nothing rather than a wrong entry.
    const broken = Buffer.from(bytes.toString().replace(/\t/g, " "));
    const read = decodeTableFile(broken, "index") as ReturnType<typeof record>;
    expect(read.index.related.word42).toBeUndefined();
  });

  it("reads a record written as plain JSON as it was (one without tables)", () => {
    const plain = { version: 1, key: "k", input: { lines: ["a", "b"] } };
    expect(decodeTableFile(Buffer.from(JSON.stringify(plain)), "input")).toEqual(plain);
    expect(encodeTableFile(plain, "input", [])).toBe(JSON.stringify(plain));
  });
});

describe("compareBytes: the binary search's compare, made where the bytes lie", () => {
  it("orders a slice against a key as Buffer.compare does, on 20,000 slices of random bytes", () => {
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    // few distinct bytes (high ones too), so that equal prefixes and equal slices are common
    const letters = [0x22, 0x61, 0x62, 0x7f, 0xc3, 0xff];
    const bytes = Buffer.from(Array.from({ length: 4096 }, () => letters[next(letters.length)]!));
    for (let k = 0; k < 20_000; k++) {
      const start = next(4000);
      const end = start + next(12);
      const key = Buffer.from(Array.from({ length: next(12) }, () => letters[next(letters.length)]!));
      expect(compareBytes(bytes, start, end, key)).toBe(Buffer.compare(bytes.subarray(start, end), key));
    }
  });
});

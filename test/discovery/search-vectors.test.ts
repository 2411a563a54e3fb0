/**
 * Word vectors in the search: the shipped table read by binary search, a request in words no
 * tool uses (nor their stems, nor their WordNet relatives) still finding its tool, names still
 * first, and every way the table can fail leaving the lexical ranking as it was.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { ToolRecord } from "../../src/discovery/records.js";
import { buildIndex } from "../../src/discovery/search-build.js";
import { INDEX_VERSION, type SearchIndex, search } from "../../src/discovery/search.js";
import { DEFAULT_TABLE, openWordVectors } from "../../src/discovery/vectors/table.js";

function tool(server: string, name: string, description: string): ToolRecord {
  return { server, tool: name, name: `${server}__${name}`, description };
}

const CATALOGUE: ToolRecord[] = [
  tool("shop", "kitchen_store", "Buy kitchen appliances and cookware for your home."),
  tool("travel", "book_flight", "Book airline tickets between airports."),
  tool("weather", "get_forecast", "Weather forecast for a city."),
  tool("music", "play_song", "Play songs by an artist."),
  tool("news", "headlines", "The latest headlines from newspapers."),
];

const names = (index: SearchIndex, query: string, limit = 3, vectors?: null) => search(index, query, limit, vectors).map((hit) => hit.tool);

const scratch = mkdtempSync(path.join(tmpdir(), "mcpx-vectors-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("the word-vector table", () => {
  const table = openWordVectors();
  afterAll(() => table.close());

  it("finds a word by binary search, with its vector and frequency rank, and nothing for a word it lacks", () => {
    const weather = table.vector("weather");
    expect(weather?.values).toHaveLength(table.dims);
    expect(weather!.rank).toBeGreaterThan(table.vector("the")!.rank);
    for (const word of ["zzzzqx", "", "Weather", "naïve", "a".repeat(41)]) expect(table.vector(word)).toBeUndefined();
    // the table's first and last words are found too (the binary search's bounds)
    expect(table.vector("aa")).toBeDefined();
    expect(table.vector("zyuganov")).toBeDefined();
  });

  it("puts words of one meaning near each other", () => {
    const cosine = (a: string, b: string) => {
      const x = table.vector(a)!.values;
      const y = table.vector(b)!.values;
      let dot = 0;
      let xx = 0;
      let yy = 0;
      for (let i = 0; i < x.length; i++) {
        dot += x[i]! * y[i]!;
        xx += x[i]! ** 2;
        yy += y[i]! ** 2;
      }
      return dot / Math.sqrt(xx * yy);
    };
    expect(cosine("rain", "weather")).toBeGreaterThan(cosine("rain", "guitar") + 0.2);
    expect(cosine("toaster", "kitchen")).toBeGreaterThan(cosine("toaster", "airline") + 0.2);
  });

  it("is a small file shipped with the package", () => {
    expect(readFileSync(DEFAULT_TABLE).length).toBeLessThan(4 * 1024 * 1024);
    const files = JSON.parse(readFileSync(path.join(path.dirname(DEFAULT_TABLE), "..", "..", "package.json"), "utf8")).files as string[];
    expect(files).toContain("data/word-vectors");
  });

  it.each([
    ["not a table", Buffer.from("hello, world, this is no table at all")],
    ["an empty file", Buffer.alloc(0)],
  ])("refuses %s with an error", (_, bytes) => {
    const file = path.join(scratch, `bad-${bytes.length}.bin`);
    writeFileSync(file, bytes);
    expect(() => openWordVectors(file)).toThrow();
  });

  it("refuses a table cut short, and a missing one", () => {
    const file = path.join(scratch, "cut.bin");
    copyFileSync(DEFAULT_TABLE, file);
    truncateSync(file, 100_000);
    expect(() => openWordVectors(file)).toThrow(/bytes/);
    expect(() => openWordVectors(path.join(scratch, "missing.bin"))).toThrow();
  });
});

describe("search with word vectors", () => {
  const index = buildIndex({ tools: CATALOGUE });

  it.each([
    ["I need a new toaster", "kitchen_store"],
    ["will it rain tomorrow in Paris", "get_forecast"],
    ["some jazz by Miles Davis", "play_song"],
  ])("finds a tool for %j, which shares no word, stem or WordNet relative with it", (query, expected) => {
    expect(names(index, query, 5, null)).toEqual([]);
    expect(names(index, query, 1)).toEqual([expected]);
  });

  it("keeps a tool's name first whatever the vectors say", () => {
    expect(names(index, "headlines", 1)).toEqual(["headlines"]);
    expect(names(index, "play song", 1)).toEqual(["play_song"]);
    expect(search(index, "kitchen_store", 1)[0]!.score).toBeGreaterThan(1000);
  });

  it.each(["", "?!", "the of and", "constructor", "__proto__", "toString hasOwnProperty", "zzzzqx qqqq", "x".repeat(50_000)])(
    "answers %j without error, in bounded time",
    (query) => {
      const started = performance.now();
      expect(Array.isArray(search(index, query, 5))).toBe(true);
      expect(performance.now() - started).toBeLessThan(500);
    },
  );

  it("keeps the tools' vectors in the index, compactly, and survives JSON", () => {
    expect(index.version).toBe(INDEX_VERSION);
    expect(Buffer.from(index.vectors!.tools, "base64")).toHaveLength(CATALOGUE.length * index.vectors!.dims);
    const parsed = JSON.parse(JSON.stringify(index)) as SearchIndex;
    expect(search(parsed, "will it rain tomorrow in Paris", 3)).toEqual(search(index, "will it rain tomorrow in Paris", 3));
  });
});

describe("search when the table cannot be read", () => {
  const lexical = buildIndex({ tools: CATALOGUE, vectors: null });
  const withVectors = buildIndex({ tools: CATALOGUE });
  const queries = ["I need a new toaster", "book a flight", "weather forecast", "kitchen", "get_forecast"];

  it("builds the lexical index when there is no table at build time", () => {
    expect(lexical.vectors).toBeUndefined();
    expect(lexical.query.vectorWeight).toBe(0);
    for (const query of queries) expect(search(lexical, query, 5)).toEqual(search(lexical, query, 5, null));
  });

  it("ranks by words alone when there is no table at query time", () => {
    const stripped: SearchIndex = { ...withVectors, query: { ...withVectors.query } };
    delete stripped.vectors;
    for (const query of queries) expect(search(withVectors, query, 5, null)).toEqual(search(stripped, query, 5, null));
    expect(search(withVectors, "book a flight", 5, null).map((hit) => hit.tool)).toEqual(search(lexical, "book a flight", 5).map((hit) => hit.tool));
  });

  it("ranks by words alone when the table is damaged after it was opened", () => {
    const file = path.join(scratch, "damaged.bin");
    copyFileSync(DEFAULT_TABLE, file);
    const table = openWordVectors(file);
    truncateSync(file, 64);
    expect(search(withVectors, "book a flight", 5, table)).toEqual(search(withVectors, "book a flight", 5, null));
    table.close();
  });

  it("ignores an index's vectors that do not fit its tools (a damaged index) and ranks by words", () => {
    const damaged: SearchIndex = { ...withVectors, vectors: { ...withVectors.vectors!, tools: "AAAA" } };
    expect(search(damaged, "book a flight", 5)).toEqual(search(withVectors, "book a flight", 5, null));
  });
});

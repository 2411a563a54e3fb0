/**
 * The search index as `mcpx search` reads it: kept on disk (cache-index.ts), its first line
 * parsed and every table looked up in the file page by page (table-file.ts, paged-file.ts). On
 * the 527 LiveMCPTool tools, a file larger than the first read, every query gives the hits the
 * index gives in memory: names exact and mistyped (the name tables), prefixes, and the graded
 * natural-language queries (the term tables and the tools').
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { goldenSet, liveMcpToolSet, NAME_VARIANTS } from "../../bench/search-eval.mjs";
import { INDEX_TABLES } from "../../src/discovery/cache-index.js";
import { search, type SearchIndex } from "../../src/discovery/search.js";
import { buildIndex } from "../../src/discovery/search-build.js";
import { encodeTableFile, readTableFile } from "../../src/discovery/table-file.js";
import { TOOL_SEARCH_DATA } from "../helpers/tool-search-data.js";

const dir = mkdtempSync(join(tmpdir(), "mcpx-index-kept-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The index written as the cache keeps it, and read back as a command does. */
function kept(index: SearchIndex): { read: SearchIndex; bytes: number } {
  const file = join(dir, `${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, encodeTableFile({ version: 1, index }, "index", INDEX_TABLES));
  const record = readTableFile(file, "index") as { index: SearchIndex } | undefined;
  if (!record) throw new Error("the kept index did not read back");
  return { read: record.index, bytes: statSync(file).size };
}

describe.skipIf(!TOOL_SEARCH_DATA)("the search index as kept on disk", () => {
  it("gives the same hits as in memory for every LiveMCPTool name, as typed and mistyped, and for prefixes", () => {
    const { tools } = liveMcpToolSet(TOOL_SEARCH_DATA!);
    const built = buildIndex({ tools });
    const { read, bytes } = kept(built);
    // past the first read (256 KB): the tables are read by pages
    expect(bytes).toBeGreaterThan(512 * 1024);
    const queries = new Set<string>();
    for (const tool of tools) {
      queries.add(tool.name);
      for (const make of Object.values(NAME_VARIANTS)) {
        const query = make(tool.tool);
        if (query !== undefined) queries.add(query);
      }
      queries.add(tool.tool.slice(0, Math.max(3, Math.floor(tool.tool.length / 2))));
    }
    expect(queries.size).toBeGreaterThan(2000);
    for (const query of queries) expect(search(read, query, 5), query).toEqual(search(built, query, 5));
  }, 120_000);

  it("gives the same hits as in memory for the graded natural-language queries", () => {
    const { tools, queries } = goldenSet(TOOL_SEARCH_DATA!);
    const built = buildIndex({ tools });
    const { read } = kept(built);
    for (const { query } of queries) expect(search(read, query, 10), query).toEqual(search(built, query, 10));
  }, 60_000);
});

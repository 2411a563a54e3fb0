/**
 * The search's quality on the shared tool-search data (../shared/data/tool-search, read in
 * place), held at the figures so they cannot quietly fall: graded natural-language
 * queries over 45 real tools, every one of the 527 LiveMCPTool tools found first by its name
 * (exact, and as people mistype it), and MetaTool's 20,614 one-tool queries. Metrics and data
 * loading are bench/search-eval.mjs's, so the bench prints what this test checks.
 */
import { describe, expect, it } from "vitest";
import { goldenMetrics, goldenSet, hitMetrics, liveMcpToolSet, metaToolSet, nameMetrics, type Rank } from "../../bench/search-eval.mjs";
import { buildIndex } from "../../src/discovery/search-build.js";
import { type SearchIndex, search } from "../../src/discovery/search.js";
import { TOOL_SEARCH_DATA } from "../helpers/tool-search-data.js";

const rank =
  (index: SearchIndex): Rank =>
  (query, limit) =>
    search(index, query, limit).map((hit) => hit.name);

describe.skipIf(!TOOL_SEARCH_DATA)("search quality on the shared data", () => {
  const dir = TOOL_SEARCH_DATA!;

  it("finds the tool for graded natural-language queries: Recall@5 >= 0.85, MRR >= 0.72 (mcpproxy-go BM25 .681/.568, FTS5 .727/.631)", () => {
    const { tools, queries } = goldenSet(dir);
    const metrics = goldenMetrics(queries, rank(buildIndex({ tools })));
    expect(metrics.r5).toBeGreaterThanOrEqual(0.85);
    expect(metrics.mrr).toBeGreaterThanOrEqual(0.72);
  }, 60_000);

  it("ranks every LiveMCPTool tool first by its exact name, its SERVER__TOOL, and near-exact forms of its name", () => {
    const { tools } = liveMcpToolSet(dir);
    expect(tools).toHaveLength(527);
    const { result, misses } = nameMetrics(tools, rank(buildIndex({ tools })));
    expect(misses).toEqual({ exact: [], upper: [], spaces: [], dashes: [], camel: [], snake: [], typo: [], dropped: [] });
    expect(result.exact!.asked).toBe(527);
    expect(result.full).toEqual({ asked: 527, first: 1 });
    for (const variant of ["spaces", "camel", "typo"]) expect(result[variant]!.asked).toBeGreaterThan(300);
  }, 60_000);

  it("finds MetaTool's tool in the first five for 70% of its 20,614 queries (FTS5 0.618-0.647), word vectors fused with the words", () => {
    const { tools, queries } = metaToolSet(dir);
    expect(queries).toHaveLength(20_614);
    expect(hitMetrics(queries, rank(buildIndex({ tools }))).hit5).toBeGreaterThanOrEqual(0.7);
  }, 120_000);
});

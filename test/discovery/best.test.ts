// The best hits of a query (search/query.ts `best`) as a full sort gives them: highest score
// first, equal scores in index order, nothing at or below 0; kept in order as they come for a
// small limit, sorted for a large one.
import { describe, expect, it } from "vitest";
import { best } from "../../src/discovery/search/query.js";

function sorted(scores: readonly number[], count: number): Array<[number, number]> {
  const ranked: Array<[number, number]> = [];
  scores.forEach((score, i) => {
    if (score > 0) ranked.push([i, score]);
  });
  return ranked.sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, count);
}

describe("best", () => {
  it("agrees with a full sort for every limit, with many equal scores, zeros, negatives and NaN", () => {
    let seed = 7;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let round = 0; round < 300; round++) {
      const scores = Array.from({ length: next(200) }, () => [0, -1, Number.NaN, 1, 2, 2.5, next(1000) / 7][next(7)]!);
      for (const count of [1, 2, 3, 10, 63, 64, 65, 100, 1000]) expect(best(scores, count)).toEqual(sorted(scores, count));
    }
  });

  it("keeps the first of equal scores", () => {
    expect(best([1, 3, 3, 2, 3], 2)).toEqual([
      [1, 3],
      [2, 3],
    ]);
  });
});

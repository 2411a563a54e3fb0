// The banded edit distance name tiers use (search/names.ts) against the full table it replaces:
// for every pair and bound, the same distance when within the bound, and bound + 1 beyond it.
import { describe, expect, it } from "vitest";
import { bagDistance, editDistance } from "../../src/discovery/search/names.js";

/** Optimal string alignment distance over the whole table: the reference. */
function fullTable(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = d[i]!;
      row[j] = Math.min(d[i - 1]![j]! + 1, row[j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/** A small deterministic generator: the same pairs every run. */
function* pairs(count: number, letters = "abcd"): Generator<[string, string, number]> {
  let seed = 12345;
  const next = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const word = (): string => Array.from({ length: next(13) }, () => [...letters][next([...letters].length)]).join("");
  for (let k = 0; k < count; k++) yield [word(), word(), next(4)];
}

describe("editDistance (banded)", () => {
  it("agrees with the full table on 20,000 pairs of short words over a small alphabet", () => {
    const wrong: string[] = [];
    for (const [a, b, bound] of pairs(20_000)) {
      const expected = Math.min(fullTable(a, b), bound + 1);
      const got = editDistance(a, b, bound);
      if (got !== expected) wrong.push(`${a} ${b} bound ${bound}: ${got}, expected ${expected}`);
    }
    expect(wrong.slice(0, 5)).toEqual([]);
  });

  it("agrees with the full table over letters that share a slot of the bag bound (é and i: 128 apart)", () => {
    const wrong: string[] = [];
    for (const [a, b, bound] of pairs(20_000, "aeiéx9")) {
      const expected = Math.min(fullTable(a, b), bound + 1);
      const got = editDistance(a, b, bound);
      if (got !== expected) wrong.push(`${a} ${b} bound ${bound}: ${got}, expected ${expected}`);
    }
    expect(wrong.slice(0, 5)).toEqual([]);
  });

  it("the bag distance is never above the distance, and tells most names of a query's length apart", () => {
    for (const [a, b] of pairs(20_000, "abcdefgh")) expect(bagDistance(a, b)).toBeLessThanOrEqual(fullTable(a, b));
    expect(bagDistance("sendanemail", "getweathers")).toBeGreaterThan(2);
    expect(bagDistance("sendemail", "sendemial")).toBe(0);
    expect(bagDistance("sendemail", "sendmail")).toBe(1);
  });

  it("counts a swap of neighbours as one typo and stops past the bound", () => {
    expect(editDistance("sendemail", "sendemial", 2)).toBe(1);
    expect(editDistance("createissue", "createissues", 1)).toBe(1);
    expect(editDistance("listfiles", "readfile", 2)).toBe(3);
    // a longer name after a shorter one: the rows kept between calls grow
    expect(editDistance("a".repeat(90), `${"a".repeat(89)}b`, 2)).toBe(1);
  });
});

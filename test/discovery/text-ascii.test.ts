// words and foldName (search/text.ts) take ASCII text through ASCII patterns: the same words and
// folded names as the Unicode patterns give, which stay the reference here.
import { describe, expect, it } from "vitest";
import { foldName, words } from "../../src/discovery/search/text.js";

/** The Unicode-only forms, as text.ts had them before its ASCII patterns. */
function referenceWords(text: string): string[] {
  const out: string[] = [];
  for (const run of text.match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (/\p{Script=Han}/u.test(run)) {
      const chars = [...run];
      if (chars.length === 1) out.push(run);
      else for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
      continue;
    }
    const parts = run.match(/\p{Lu}+(?=\p{Lu}\p{Ll})|\p{Lu}?\p{Ll}+|\p{Lu}+|\p{N}+|[\p{L}\p{N}]+/gu) ?? [run];
    for (const part of parts) if (part.length <= 40) out.push(part.toLowerCase());
  }
  return out;
}
const referenceFold = (name: string): string => name.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");

/** Deterministic texts: every pair of printable ASCII characters, then random runs weighted to letters, digits and separators. */
function* texts(): Generator<string> {
  const printable = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i));
  for (const a of printable) for (const b of printable) yield a + b;
  let seed = 777;
  const next = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const alphabet = "aBcDeFxYzHTTP019_- ./:\t\n";
  for (let k = 0; k < 5000; k++) yield Array.from({ length: next(30) }, () => alphabet[next(alphabet.length)]).join("");
  // not ASCII, or ASCII only once lower-cased (the Kelvin sign is "k")
  yield* ["Ünïcode wörds", "天气预报 weather", "\u212Aelvin", "getÉtatHTTP2", "İstanbul", "naïve-café_menu", "\u{1D400}\u{1D401}c", "\u{1F600}smile"];
}

describe("search text: ASCII patterns", () => {
  it("give the words and folded names the Unicode patterns give", () => {
    let compared = 0;
    for (const text of texts()) {
      expect(words(text), JSON.stringify(text)).toEqual(referenceWords(text));
      expect(foldName(text), JSON.stringify(text)).toBe(referenceFold(text));
      compared++;
    }
    expect(compared).toBeGreaterThan(14_000);
  });
});

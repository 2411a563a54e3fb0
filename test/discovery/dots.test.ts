/**
 * The WebAssembly dot products (discovery/vectors/dots.ts) give what the JavaScript loop they
 * replace gave, to the bit: the same float64 products summed in the same order.
 */
import { describe, expect, it } from "vitest";
import { dotProducts } from "../../src/discovery/vectors/dots.js";

/** The loop embed.ts's closeness ran before: each tool's Σ tools[d] × query[d], in order. */
function dotsInJavaScript(tools: Int8Array, dims: number, query: Float64Array): Float64Array {
  const count = tools.length / dims;
  const out = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    let total = 0;
    for (let d = 0; d < dims; d++) total += tools[i * dims + d]! * query[d]!;
    out[i] = total;
  }
  return out;
}

/** A repeatable sequence (mulberry32), so a failure can be run again. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function catalogue(count: number, dims: number, seed: number): { tools: Int8Array; query: Float64Array } {
  const next = random(seed);
  const tools = Int8Array.from({ length: count * dims }, () => Math.round(next() * 254) - 127);
  const query = Float64Array.from({ length: dims }, () => (next() - 0.5) * Math.exp(next() * 4 - 2));
  return { tools, query };
}

describe("dotProducts", () => {
  it("equals the JavaScript loop bit for bit, for catalogues of many sizes", () => {
    for (const [count, dims, seed] of [
      [1, 64, 1],
      [527, 64, 2],
      [3, 7, 3],
      [100, 300, 4],
    ] as const) {
      const { tools, query } = catalogue(count, dims, seed);
      const got = dotProducts(tools, dims, query);
      const want = dotsInJavaScript(tools, dims, query);
      expect(got.length).toBe(count);
      expect(Array.from(got)).toEqual(Array.from(want));
    }
  });

  it("grows its memory for a catalogue larger than one page, and still answers a small one after", () => {
    const big = catalogue(20_000, 64, 5); // 1.3 MB of tools: twenty pages
    expect(Array.from(dotProducts(big.tools, 64, big.query))).toEqual(Array.from(dotsInJavaScript(big.tools, 64, big.query)));
    const small = catalogue(10, 64, 6);
    expect(Array.from(dotProducts(small.tools, 64, small.query))).toEqual(Array.from(dotsInJavaScript(small.tools, 64, small.query)));
  });

  it("gives a result of its own, not a view a later call overwrites", () => {
    const first = catalogue(50, 64, 7);
    const kept = dotProducts(first.tools, 64, first.query);
    const copy = Array.from(kept);
    const second = catalogue(50, 64, 8);
    dotProducts(second.tools, 64, second.query);
    expect(Array.from(kept)).toEqual(copy);
  });
});

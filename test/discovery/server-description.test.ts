/**
 * A server's one line, the same wherever discovery shows or indexes it: `mcpx ls` and the
 * cache, `mcpx__servers`, the host instructions, and the text search ranks a server by. Before
 * this rule was one, the cache took the first line and the gateway the first sentence, so
 * `mcpx search` and `mcpx__search` ranked the same catalogue differently.
 */
import { describe, expect, it } from "vitest";
import { serverDescription } from "../../src/discovery/tool-records.js";

describe("a server's one-line description", () => {
  it("is the first sentence of the first line with words in it, a heading's #s dropped", () => {
    expect(serverDescription("\n\n## Weather. Forecasts by city.\nUse get_forecast.", undefined)).toBe("Weather.");
    expect(serverDescription("Reads files. Writes them too.", { name: "fs" })).toBe("Reads files.");
    expect(serverDescription("No full stop on this line\nSecond line.", undefined)).toBe("No full stop on this line");
  });

  it("falls back to serverInfo's description, then its title; never its bare name", () => {
    expect(serverDescription(undefined, { name: "w", title: "Weather", description: "Forecasts for any city." })).toBe("Forecasts for any city.");
    expect(serverDescription("  \n ", { name: "w", title: "Weather" })).toBe("Weather");
    expect(serverDescription(null, { name: "w" })).toBe("");
    expect(serverDescription(undefined, undefined)).toBe("");
  });

  it("is bounded, whatever the upstream sends", () => {
    const line = serverDescription("x".repeat(10_000), undefined);
    expect(line.length).toBe(160);
    expect(line.endsWith("…")).toBe(true);
    expect(serverDescription("y".repeat(100), undefined, 40)).toHaveLength(40);
  });
});

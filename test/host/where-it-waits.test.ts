/** Messages point people only at the answering surfaces this process has. */
import { describe, expect, it } from "vitest";
import { otherSurfaces } from "../../src/host/where-it-waits.js";

describe("where else a person can answer", () => {
  it("names the web page and REST API when this process serves them (serve --http)", () => {
    expect(otherSurfaces(true, "q1")).toBe("`mcpx elicit show q1`, mcpx's web page or its REST API");
  });

  it("over stdio names the terminal and `mcpx ui`, never a page that is not running", () => {
    const text = otherSurfaces(false);
    expect(text).toContain("`mcpx elicit`");
    expect(text).toContain("`mcpx ui`");
    expect(text).not.toMatch(/web page|REST/);
  });
});

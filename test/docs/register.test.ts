/**
 * The elicitation register in docs/elicitation.md says, row by row, which tests prove it. A row
 * that names a test file that does not exist proves nothing: every name must be a real file,
 * and every row that is done or partial must name at least one. The same holds for every test
 * file any docs page names as its proof.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/mcpx.js";

interface Row {
  id: string;
  status: string;
  tests: string[];
}

function registerRows(): Row[] {
  const text = readFileSync(join(ROOT, "docs", "elicitation.md"), "utf8");
  return text
    .split("\n")
    .filter((line) => /^\| ELI-\d+ \|/.test(line))
    .map((line) => {
      const cells = line.split("|").map((cell) => cell.trim());
      const proved = cells.at(-2) ?? "";
      return {
        id: cells[1]!,
        status: cells.at(-3) ?? "",
        tests: [...proved.matchAll(/`([^`]+)`/g)].map((match) => match[1]!.split(" ")[0]!),
      };
    });
}

describe("the elicitation register", () => {
  const rows = registerRows();

  it("has its rows", () => {
    expect(rows.length).toBeGreaterThanOrEqual(33);
  });

  it.each(rows.map((row) => [row.id, row] as const))("%s names tests that exist", (_id, row) => {
    if (row.status.startsWith("done") || row.status.startsWith("partial")) expect(row.tests.length).toBeGreaterThan(0);
    for (const file of row.tests) expect(existsSync(join(ROOT, file)), `${row.id}: ${file}`).toBe(true);
  });
});

describe("the docs", () => {
  it.each(["security.md", "protocol.md", "configuration.md", "interface.md", "elicitation.md", "scripts.md"])("%s names only test files that exist", (page) => {
    const text = readFileSync(join(ROOT, "docs", page), "utf8");
    const named = [...text.matchAll(/`(test\/[^`\s]+\.test\.ts)`/g)].map((match) => match[1]!);
    for (const file of named) expect(existsSync(join(ROOT, file)), `${page}: ${file}`).toBe(true);
  });
});

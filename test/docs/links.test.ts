/**
 * The docs point at each other: a link to a page that was folded into another, or to a section
 * that was renamed, leads a reader nowhere. Every relative Markdown link in README.md,
 * ARCHITECTURE.md and docs/*.md must name a file that exists, and an anchor into a page must be
 * one of that page's headings (as GitHub makes them); every page of docs/ named in the docs or
 * in a source, test or bench file must exist.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/mcpx.js";

const PAGES = [
  "README.md",
  "ARCHITECTURE.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];

/** The text outside fenced code blocks (examples there are not links). */
function prose(text: string): string {
  return text.replace(/^```[\s\S]*?^```/gm, "");
}

/** GitHub's anchor for a heading: lower case, punctuation but `-` and `_` dropped, spaces made `-`. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

function anchorsOf(file: string): Set<string> {
  const headings = prose(readFileSync(file, "utf8"))
    .split("\n")
    .filter((line) => /^#{1,6} /.test(line));
  return new Set(headings.map((line) => slug(line.replace(/^#+ /, ""))));
}

function linksOf(page: string): string[] {
  return [...prose(readFileSync(join(ROOT, page), "utf8")).matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1]!)
    .filter((target) => !/^[a-z]+:/i.test(target));
}

function filesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (name === "node_modules" || name === "fixtures") return [];
    return statSync(join(ROOT, path)).isDirectory() ? filesUnder(path) : /\.(ts|mjs|md)$/.test(name) ? [path] : [];
  });
}

describe("links between the docs", () => {
  it.each(PAGES)("%s links only to files and sections that exist", (page) => {
    const broken: string[] = [];
    for (const target of linksOf(page)) {
      const [path = "", anchor] = target.split("#");
      const file = path === "" ? join(ROOT, page) : join(ROOT, dirname(page), path);
      if (!existsSync(file)) broken.push(`${target}: no such file`);
      else if (anchor !== undefined && file.endsWith(".md") && !anchorsOf(file).has(anchor))
        broken.push(`${target}: no such section in ${relative(ROOT, file)}`);
    }
    expect(broken).toEqual([]);
  });

  it("names only docs pages that exist, in the docs and in source, test and bench files", () => {
    const files = [...PAGES, ...filesUnder("src"), ...filesUnder("test"), ...filesUnder("bench")];
    const missing = files.flatMap((file) =>
      [...readFileSync(join(ROOT, file), "utf8").matchAll(/(?<![\w/.])docs\/([a-z0-9-]+\.md)\b/g)]
        .filter((match) => !existsSync(join(ROOT, "docs", match[1]!)))
        .map((match) => `${file}: docs/${match[1]}`),
    );
    expect(missing).toEqual([]);
  });
});

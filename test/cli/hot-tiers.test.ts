/**
 * The hot commands' compiler tiers (cli/hot-tiers.ts): after `baselineTiersOnly` V8 optimises
 * nothing, however hot a loop gets, and after `everyTier` it optimises again. The second half
 * is what failed with `--max-opt=1` (raising it again left TurboFan off, so the first search
 * after a catalogue change built its index 40% slower). Runs the built module in a Node of its
 * own with `--trace-opt`, which prints each optimisation V8 completes.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/mcpx.js";

const TIERS = pathToFileURL(join(ROOT, "dist", "cli", "hot-tiers.js")).href;

const SCRIPT = `
const { baselineTiersOnly, everyTier } = await import(${JSON.stringify(TIERS)});
function loopBefore(n) { let t = 0; for (let i = 0; i < n; i++) t += Math.sqrt(i); return t; }
function loopAfter(n) { let t = 0; for (let i = 0; i < n; i++) t += Math.sqrt(i); return t; }
baselineTiersOnly();
for (let k = 0; k < 300; k++) loopBefore(100000);
everyTier();
for (let k = 0; k < 300; k++) loopAfter(100000);
`;

function traced(): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ["--trace-opt", "--input-type=module", "-e", SCRIPT], { timeout: 60_000 }, (error, stdout) =>
      error ? reject(error) : resolve(stdout),
    );
  });
}

describe("the hot commands' compiler tiers", () => {
  it("optimise nothing after baselineTiersOnly, and optimise again after everyTier", async () => {
    const trace = await traced();
    const optimised = (name: string) => trace.split("\n").filter((line) => line.includes("completed optimizing") && line.includes(name)).length;
    expect(optimised("loopBefore")).toBe(0);
    expect(optimised("loopAfter")).toBeGreaterThan(0);
  }, 60_000);
});

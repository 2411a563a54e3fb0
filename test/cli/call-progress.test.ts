/**
 * `mcpx call` shows the upstream's progress on stderr, as hosts see it: plain lines when stderr
 * is not a terminal (the last state at least, at a bounded rate), a bar on a terminal.
 */
import { describe, expect, it } from "vitest";
import { nodeServer, writeConfig } from "../helpers/mcpx.js";
import { runMcpx } from "../helpers/upstreams.js";
import { progressBar, progressText } from "../../src/cli/call-progress.js";

const config = writeConfig({ mcpServers: { work: nodeServer("progress-server.mjs") } });

describe("mcpx call's progress", () => {
  it("with totals: a plain line with the count, the percentage and the message; the result on stdout", async () => {
    const run = await runMcpx(["call", "work.steps", "--config", config.file], config);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe("all steps done\n");
    expect(run.stderr).toMatch(/^mcpx: work\.steps: 4\/4 \(100%\) step 4 of 4$/m);
    expect(run.stderr.split("\n").filter((line) => line.startsWith("mcpx: work.steps:")).length).toBeLessThanOrEqual(4);
  });

  it("without a total: the message and the count, upstream text inert", async () => {
    const run = await runMcpx(["call", "work.busy", "--config", config.file], config);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe("busy done (token present)\n");
    expect(run.stderr).toMatch(/^mcpx: work\.busy: indexing \\x1b\[2Jfiles \(2\)$/m);
    expect(run.stderr).not.toContain("\x1b");
  });
});

describe("the progress bar and line", () => {
  it("draws a bar where there is a total, clamped, and text otherwise", () => {
    expect(progressBar({ progress: 1, total: 4, message: "step 1" }, 8)).toBe("[##------] 25% 1/4 step 1");
    expect(progressBar({ progress: 9, total: 4 }, 8)).toBe("[########] 100% 9/4");
    expect(progressBar({ progress: 3, message: "warming up" }, 8)).toBe("warming up (3)");
    expect(progressText({ progress: 2, total: 4 })).toBe("2/4 (50%)");
    expect(progressText({ progress: 7 })).toBe("progress 7");
  });
});

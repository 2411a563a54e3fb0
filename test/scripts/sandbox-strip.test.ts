/**
 * Where a script's TypeScript is stripped (scripts/run-script.ts): a short source in the process
 * starting the run (sucrase loaded there once, so a spare worker loads without it), a long one
 * in the run's worker, so a host's multi-megabyte script never holds that process's event loop.
 * Both read the same: the value, and a syntax error's line.
 */
import { describe, expect, it } from "vitest";
import { STRIPPED_HERE_CHARS, startScript } from "../../src/scripts/run-script.js";
import { DEFAULT_SCRIPT_LIMITS, type ScriptEnvelope } from "../../src/scripts/types.js";

const run = async (code: string): Promise<ScriptEnvelope> =>
  (
    await startScript({ code, language: "ts", filename: "strip.ts", args: [] }, [], async () => ({ content: [] }), {
      ...DEFAULT_SCRIPT_LIMITS,
      timeoutMs: 60_000,
    })
  ).done;

/** `lines` typed lines before the script's end, each a statement TypeScript must strip. */
const typed = (lines: number, end: string): string => `${"void (1 as number);\n".repeat(lines)}${end}`;

describe("stripping a script's TypeScript", () => {
  it.each([
    ["short, in this process", 10],
    ["long, in the worker", Math.ceil((2 * STRIPPED_HERE_CHARS) / 20)],
  ])(
    "%s: the value, and a syntax error on its own line",
    async (_where, lines) => {
      const ok = await run(typed(lines, "const m: string = 'x';\nreturn m + 1;"));
      expect(ok).toMatchObject({ ok: true, value: "x1" });
      const broken = await run(typed(lines, "const = 2;"));
      expect(broken).toMatchObject({ ok: false, error: { kind: "syntax", line: lines + 1 } });
    },
    60_000,
  );

  it("a script of megabytes keeps this process's event loop free while it is stripped", async () => {
    const code = typed(100_000, "return 1;"); // 2 MB: about a second of sucrase on a loaded machine
    let last = performance.now();
    let longest = 0;
    const tick = setInterval(() => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
    }, 5);
    try {
      const envelope = await run(code);
      expect(envelope).toMatchObject({ ok: true, value: 1 });
    } finally {
      clearInterval(tick);
    }
    expect(longest).toBeLessThan(250);
  }, 60_000);
});

/**
 * A warm `mcpx exec`: a plain exec line with a daemon serving its config runs from
 * dist/cli/exec-warm.cjs, required by main.cjs (cli/exec-line.ts), without commander or the
 * cold bundle, and answers exactly as commander's `exec` does through the same daemon
 * (`--runtime sandbox`, the default said aloud, is commander's line): stdout, stderr, exit
 * code and the --json envelope, for a script that prints, one that throws, one that does not
 * parse, and one whose tool call asks a question (exit 75 and the input-required document).
 * Every module a run loads is listed by a preload (test/fixtures/module-log.mjs).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, type TempConfig } from "../helpers/mcpx.js";
import { runLogged } from "../helpers/module-log.js";
import { runMcpx } from "../helpers/upstreams.js";
import { type InputRequired, mcpxOnPath, runShell } from "../broker-e2e/support.js";
import { askingStdio } from "../relay/support.js";
import { daemonConfig, recordOf, stopDaemons } from "./daemon-support.js";

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  /** The files of dist/ and node_modules/ it loaded, as paths under the project. */
  files: string[];
}

let config: TempConfig;
beforeAll(() => {
  // The run's deadline counts while its question waits: long enough for this machine.
  config = daemonConfig({ ask: askingStdio() }, { scripts: { timeoutSeconds: 300 } });
});
afterAll(stopDaemons);

async function mcpx(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  const { modules, ...run } = await runLogged(args, config, { env, timeoutMs: 60_000 });
  const files = modules
    .map((module) => module.replace(/^cjs:/, "").replace(/^file:\/\//, ""))
    .filter((file) => file.includes("/dist/") || file.includes("/node_modules/"))
    .map((file) => file.slice(file.indexOf(file.includes("/dist/") ? "/dist/" : "/node_modules/") + 1));
  return { ...run, files: [...new Set(files)].sort() };
}

/** Each run's own ids, timings and times, which differ between any two runs. */
const settled = (text: string): string =>
  text
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g, "<time>")
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "<id>")
    .replace(/"durationMs": *\d+/g, '"durationMs": 0');

/**
 * The same line through the fast path and through commander's `exec`; both through the daemon.
 * `scriptArgs` go last: they may hold `--`.
 */
async function bothWays(code: string, options: string[], scriptArgs: string[] = []): Promise<{ fast: Run; commander: Run }> {
  const fast = await mcpx(["exec", code, "--config", config.file, ...options, ...scriptArgs]);
  const commander = await mcpx(["exec", code, "--config", config.file, ...options, "--runtime", "sandbox", ...scriptArgs]);
  // A run that waits on a question follows the store with tsc's modules (import()), never commander.
  expect(fast.files, fast.stderr).toContain("dist/cli/exec-warm.cjs");
  expect(fast.files.filter((file) => /program\.bundle|cold-|commander/.test(file))).toEqual([]);
  expect(commander.files).toContain("dist/cli/program.bundle.js");
  expect(commander.files).not.toContain("dist/cli/exec-warm.cjs");
  return { fast, commander };
}

const same = ({ code, stdout, stderr }: Run) => ({ code, stdout: settled(stdout), stderr: settled(stderr) });

const PRINTS = 'console.log(textOf(await typed.echo({ label: "hi" }))); console.error("to stderr"); return { args }';
const THROWS = 'const n: number = 2;\nconsole.log("before");\nthrow new Error("broke at " + n);';
const ASKS = 'console.log("asking");\nconst answer = await ask.ask_form({ message: "Which name?" });\nreturn textOf(answer);';

describe("a warm mcpx exec", () => {
  it("with no daemon, the plain line is commander's, which starts one; then it is the fast path's", async () => {
    const cold = await mcpx(["exec", "return 1", "--config", config.file]);
    expect(cold.code, cold.stderr).toBe(0);
    expect(cold.stdout).toBe("1\n");
    expect(cold.files).toContain("dist/cli/program.bundle.js");
    expect(recordOf(config)).toBeDefined();
    const warm = await mcpx(["exec", "return 1", "--config", config.file]);
    expect(warm.code, warm.stderr).toBe(0);
    expect(warm.stdout).toBe("1\n");
    expect(warm.files).toEqual(["dist/cli/exec-warm.cjs", "dist/cli/main.cjs"]);
  }, 90_000);

  it("MCPX_NO_DAEMON=1 leaves the running daemon alone: the plain line is commander's (--no-daemon's runner)", async () => {
    await mcpx(["exec", "return 1", "--config", config.file]); // the daemon, warm
    const alone = await mcpx(["exec", "return 2", "--config", config.file], { MCPX_NO_DAEMON: "1" });
    expect(alone.code, alone.stderr).toBe(0);
    expect(alone.stdout).toBe("2\n");
    expect(alone.files).toContain("dist/cli/program.bundle.js");
  }, 90_000);

  it.each([
    ["prints and returns", PRINTS, ["a", "--", "-b"], 0],
    ["throws", THROWS, [], 1],
    ["does not parse", "const = 1;", [], 1],
  ])(
    "a script that %s: what commander's exec says, plain and --json",
    async (_what, code, args, exit) => {
      await mcpx(["exec", "return 1", "--config", config.file]); // the daemon, warm
      const plain = await bothWays(code, [], args);
      expect(plain.fast.files).toEqual(["dist/cli/exec-warm.cjs", "dist/cli/main.cjs"]);
      expect(plain.fast.code, plain.fast.stderr).toBe(exit);
      expect(same(plain.fast)).toEqual(same(plain.commander));
      const json = await bothWays(code, ["--json"], args);
      expect(json.fast.code).toBe(exit);
      expect(same(json.fast)).toEqual(same(json.commander));
      const envelope = JSON.parse(json.fast.stdout) as { ok: boolean };
      expect(envelope.ok).toBe(exit === 0);
    },
    90_000,
  );

  it("prints what the script printed and returned, with its args after --", async () => {
    await mcpx(["exec", "return 1", "--config", config.file]); // the daemon, warm
    const { fast } = await bothWays(PRINTS, [], ["a", "--", "-b"]);
    const [echoed, ...returned] = fast.stdout.split("\n");
    expect(echoed).toBe('{"label":"hi"}');
    expect(JSON.parse(returned.join("\n"))).toEqual({ args: ["a", "-b"] });
    expect(fast.stderr).toBe("to stderr\n");
  }, 90_000);

  it("a script whose tool call asks a question: exit 75 and the run's input-required document, as commander's", async () => {
    await mcpx(["exec", "return 1", "--config", config.file]); // the daemon, warm
    const fast = await mcpx(["exec", ASKS, "--config", config.file]);
    expect(fast.code, fast.stderr).toBe(75);
    expect(fast.files.filter((file) => /program\.bundle|cold-|commander/.test(file))).toEqual([]);
    const document = JSON.parse(fast.stdout) as InputRequired;
    expect(document).toMatchObject({ status: "input-required", collectWith: `mcpx result ${document.callId}` });
    expect(document.questions).toMatchObject([{ server: "ask", message: "Which name?" }]);
    // Answered and collected first: a second question to "ask" while this one waits could not be told apart.
    const answered = await runShell(document.questions[0]!.respondWith.replace("<fill in: text>", "Ada"), config, mcpxOnPath());
    expect(answered.code, answered.stderr).toBe(0);
    const collected = await runMcpx(["result", document.callId], config);
    expect(collected.code, collected.stderr).toBe(0);
    expect(collected.stdout).toBe('asking\n{"action":"accept","content":{"name":"Ada"}}\n');

    const commander = await mcpx(["exec", ASKS, "--config", config.file, "--runtime", "sandbox"]);
    expect(commander.files).toContain("dist/cli/program.bundle.js");
    expect(same(fast)).toEqual(same(commander));
  }, 120_000);

  it("is the build's: exec-warm.cjs is run-daemon.js with what it imports statically", () => {
    const inputs = JSON.parse(readFileSync(join(ROOT, "dist", "cli", "exec-warm.inputs.json"), "utf8")) as string[];
    expect(inputs).toContain("cli/run-daemon.js");
    expect(inputs).toContain("cli/daemon-send.js");
    expect(inputs.filter((input) => /^cli\/(program|context|call|serve)\.js$/.test(input) || input.includes("node_modules"))).toEqual([]);
  });

  it("the daemon's sandbox worker loads no sucrase (the daemon's main thread makes the script JavaScript, once loaded)", () => {
    // worker.js and every chunk it imports statically, as the build wrote them.
    const seen = new Set<string>();
    const imported: string[] = [];
    const visit = (file: string): void => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const [, specifier] of readFileSync(join(ROOT, "dist", "cli", file), "utf8").matchAll(/(?:^|\n)import [^;]*?from "([^"]+)"/g)) {
        if (specifier!.startsWith("./")) visit(specifier!.slice(2));
        else imported.push(specifier!);
      }
    };
    visit("worker.js");
    expect(imported).toContain("quickjs-emscripten-core");
    expect(imported).not.toContain("sucrase");
  });
});

/**
 * The plain `mcpx exec` line main.ts reads without commander (cli/exec-line.ts): every line it
 * reads, commander's own `exec` (cli/run-commands.ts, the definition `mcpx` runs) reads the same
 * way; every other line it leaves to commander, whose help, errors and options stay the only ones.
 */
import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { execLine } from "../../src/cli/exec-line.js";
import { registerRun } from "../../src/cli/run-commands.js";
import type { RunFlags } from "../../src/cli/run-command.js";

/** What commander's `exec` hands its action for `args`, as an ExecLine; the action itself is replaced. */
async function commanderReads(args: readonly string[]): Promise<unknown> {
  const program = new Command("mcpx").exitOverride();
  registerRun(program);
  let read: unknown;
  const exec = program.commands.find((command) => command.name() === "exec")!;
  exec.exitOverride().action((code: string, scriptArgs: string[], flags: RunFlags) => {
    // What a plain line leaves at its default: the daemon, the sandbox, no check.
    expect(flags.daemon).toBe(true);
    expect(flags.runtime).toBeUndefined();
    expect(flags.typecheck).toBeUndefined();
    expect(flags.cached).toBeUndefined();
    read = {
      code,
      args: scriptArgs,
      options: { ...(flags.config !== undefined ? { config: flags.config } : {}), ...(flags.json ? { json: true } : {}) },
    };
  });
  await program.parseAsync(["node", "mcpx", ...args]);
  return read;
}

const CODE = 'console.log(textOf(await echo.echo({ text: "hi" })))';

const PLAIN: readonly string[][] = [
  ["exec", CODE],
  ["exec", "return args", "a", "b c"],
  ["exec", "return 1", "--json"],
  ["exec", "--json", "return 1", "x"],
  ["exec", "return 1", "--config", "a.json"],
  ["exec", "-c", "b.json", "return 1"],
  ["exec", "return args", "--config=c.json", "k", "--json"],
  ["exec", "return 1", "--config=", "x"],
  ["exec", "return args", "--", "-x", "--json", "--config", "d.json"],
  ["exec", "return args", "--json", "--", "--"],
  ["exec", "--", "return args", "-n"],
  ["exec", "return args", "-"],
  ["exec", " return 1 "],
];

const LEFT: readonly string[][] = [
  [],
  ["execx", "return 1"],
  ["call", "echo.echo"],
  ["run", "script.ts"],
  ["exec"],
  ["exec", "--json"],
  ["exec", "-"],
  ["exec", "-", "a"],
  ["exec", ""],
  ["exec", "  "],
  ["exec", "--", "-"],
  ["exec", "return 1", "--help"],
  ["exec", "return 1", "-h"],
  ["exec", "return 1", "--no-daemon"],
  ["exec", "return 1", "--typecheck"],
  ["exec", "return 1", "--typecheck", "--cached"],
  ["exec", "return 1", "--runtime", "sandbox"],
  ["exec", "return 1", "--runtime=node"],
  ["exec", "return 1", "--json", "--json"],
  ["exec", "return 1", "-c"],
  ["exec", "return 1", "-c", "--json"],
  ["exec", "return 1", "-ca.json"],
  ["exec", "return 1", "-c", "a.json", "--config", "b.json"],
  ["exec", "return 1", "-5"],
  ["exec", "-1"],
];

describe("execLine: the plain exec line read without commander", () => {
  it("reads each plain line as commander's exec does", async () => {
    for (const args of PLAIN) {
      const line = execLine(args);
      expect(line, args.join(" ")).toBeDefined();
      expect(line, args.join(" ")).toEqual(await commanderReads(args));
    }
    expect(execLine(["exec", "return args", "a", "--json", "-c", "x.json", "--", "--json"])).toEqual({
      code: "return args",
      args: ["a", "--json"],
      options: { json: true, config: "x.json" },
    });
  });

  it("leaves every other line to commander", () => {
    for (const args of LEFT) expect(execLine(args), args.join(" ")).toBeUndefined();
  });
});

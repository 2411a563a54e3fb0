/**
 * The plain `mcpx call` line main.ts reads without commander (cli/call-line.ts): every line it
 * reads, commander's own `call` (cli/daemon-commands.ts, the definition `mcpx` runs) reads the
 * same way; every other line it leaves to commander, whose help and errors stay the only ones.
 */
import { rmSync } from "node:fs";
import { Command } from "commander";
import { afterAll, describe, expect, it } from "vitest";
import { callLine } from "../../src/cli/call-line.js";
import { registerDaemon } from "../../src/cli/daemon-commands.js";
import { writeConfig } from "../helpers/mcpx.js";
import { runMcpx } from "../helpers/upstreams.js";

/** What commander's `call` hands its action for `args`, as a CallLine; the action itself is replaced. */
async function commanderReads(args: readonly string[]): Promise<unknown> {
  const program = new Command("mcpx").exitOverride();
  registerDaemon(program);
  let read: unknown;
  const call = program.commands.find((command) => command.name() === "call")!;
  call.exitOverride().action((target: string, toolArgs: string[], options: { config?: string; json?: boolean; daemon?: boolean }) => {
    expect(options.daemon).toBe(true);
    read = {
      target,
      args: toolArgs,
      options: { ...(options.config !== undefined ? { config: options.config } : {}), ...(options.json ? { json: true } : {}) },
    };
  });
  await program.parseAsync(["node", "mcpx", ...args]);
  return read;
}

const PLAIN: readonly string[][] = [
  ["call", "echo.echo"],
  ["call", "echo.echo", '{"text":"hi"}'],
  ["call", "echo__echo", "a=1", "b=two words", "--json"],
  ["call", "--json", "echo.echo", "-", "x=-1"],
  ["call", "echo.echo", "{}", "--config", "a.json"],
  ["call", "-c", "b.json", "echo.echo", "{}"],
  ["call", "echo.echo", "--config=c.json", "k=v", "--json"],
  ["call", "echo.echo", "--config=", "{}"],
];

const LEFT: readonly string[][] = [
  [],
  ["callx", "echo.echo"],
  ["ls"],
  ["call"],
  ["call", "--json"],
  ["call", "-c", "a.json"],
  ["call", "echo.echo", "--help"],
  ["call", "echo.echo", "-h"],
  ["call", "echo.echo", "--no-daemon"],
  ["call", "echo.echo", "--json", "--json"],
  ["call", "echo.echo", "--json=1"],
  ["call", "echo.echo", "-c"],
  ["call", "echo.echo", "-c", "--json"],
  ["call", "echo.echo", "-ca.json"],
  ["call", "echo.echo", "-c", "a.json", "--config", "b.json"],
  ["call", "echo.echo", "--", "-x"],
  ["call", "echo.echo", "--limit", "3"],
  ["call", "echo.echo", "-5"],
];

describe("callLine: the plain call line read without commander", () => {
  it("reads each plain line as commander's call does", async () => {
    for (const args of PLAIN) {
      const line = callLine(args);
      expect(line, args.join(" ")).toBeDefined();
      expect(line, args.join(" ")).toEqual(await commanderReads(args));
    }
    expect(callLine(["call", "echo.echo", "a=1", "--json", "-c", "x.json"])).toEqual({
      target: "echo.echo",
      args: ["a=1"],
      options: { json: true, config: "x.json" },
    });
  });

  it("leaves every other line to commander", () => {
    for (const args of LEFT) expect(callLine(args), args.join(" ")).toBeUndefined();
  });

  describe("on the command line, what it leaves is commander's", () => {
    const config = writeConfig({ mcpServers: {} });
    afterAll(() => rmSync(config.dir, { recursive: true, force: true }));

    it("a missing target, an unknown option: commander's errors and exit 2", async () => {
      const missing = await runMcpx(["call"], config);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain("error: missing required argument 'target'");
      const unknown = await runMcpx(["call", "echo.echo", "--bogus", "--config", config.file], config);
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toContain("error: unknown option '--bogus'");
      const help = await runMcpx(["call", "--help"], config);
      expect(help.code).toBe(0);
      expect(help.stdout).toContain("Usage: mcpx call [options] <target> [arguments...]");
    });
  });
});

/**
 * A corrupt or unusable question store is a clear error when mcpx starts, naming the file or
 * directory, never a stack trace and never a crash in the middle of a call: `mcpx serve` (stdio
 * and HTTP) exits non-zero at once, and so do `mcpx call` and `mcpx elicit list`.
 */
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MCPX_BIN, type TempConfig } from "../helpers/mcpx.js";
import { askingStdio } from "../relay/support.js";
import { brokerConfig, stateDirOf } from "./support.js";

interface Exit {
  code: number | null;
  stderr: string;
}

/** Run mcpx with stdin held open (as a host would), bounded: a process that does not exit fails the test. */
function runUntilExit(args: string[], config: TempConfig, env: NodeJS.ProcessEnv, timeoutMs = 10_000): Promise<Exit> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MCPX_BIN, ...args], { env: { ...config.env, ...env }, stdio: ["pipe", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`mcpx ${args.join(" ")} did not exit within ${timeoutMs} ms; stderr:\n${stderr}`));
    }, timeoutMs);
    child.once("exit", (code) => {
      clearTimeout(timer);
      child.stdin.destroy();
      resolve({ code, stderr });
    });
  });
}

/** Every command that opens the store, each expected to stop at once with the clear message. */
async function expectClearRefusal(config: TempConfig, env: NodeJS.ProcessEnv, names: RegExp): Promise<void> {
  const commands = [
    ["serve", "--config", config.file],
    ["serve", "--http", "--port", "0", "--config", config.file],
    ["call", "ask.ask_form", "{}", "--config", config.file],
    ["elicit", "list"],
    ["result", "some-call-id"],
  ];
  for (const args of commands) {
    const run = await runUntilExit(args, config, env);
    expect(run.code, `mcpx ${args.join(" ")}: ${run.stderr}`).toBe(1);
    expect(run.stderr, args.join(" ")).toMatch(names);
    expect(run.stderr).not.toMatch(/\n\s+at /); // no stack trace
    expect(run.stderr).not.toMatch(/unexpected error/);
  }
}

describe("an unusable question store", () => {
  it("a corrupt mcpx.db: every command refuses at start, naming the file", async () => {
    const config = brokerConfig({ ask: askingStdio() });
    const dir = stateDirOf(config);
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = join(dir, "mcpx.db");
    writeFileSync(file, "this is not an SQLite database, just garbage ".repeat(200), { mode: 0o600 });

    await expectClearRefusal(config, {}, new RegExp(`mcpx: the question store ${file} cannot be used: .*move the file aside`));
  });

  it("a state dir that cannot be created (under a regular file): every command refuses at start, naming it", async () => {
    const config = brokerConfig({ ask: askingStdio() });
    const blocker = join(config.dir, "not-a-directory");
    writeFileSync(blocker, "");
    const dir = join(blocker, "state");

    await expectClearRefusal(config, { MCPX_STATE_DIR: dir }, new RegExp(`mcpx: cannot use the state directory ${dir}`));
  });
});

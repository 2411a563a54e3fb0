/** Stopping a detached `mcpx call` (its runner, or the command following it) stops its upstream. */
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SqliteStore } from "../../src/broker/sqlite/sqlite-store.js";
import { MCPX_BIN, nodeServer, writeConfig, type TempConfig } from "../helpers/mcpx.js";
import { isAlive } from "../helpers/upstreams.js";

async function until<T>(what: string, probe: () => T | undefined, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** `mcpx call typed.hang` off a terminal; resolves once the upstream is in the call. */
async function hangingCall(config: TempConfig, pidFile: string) {
  const child = spawn(process.execPath, [MCPX_BIN, "call", "typed.hang", "--config", config.file], { env: config.env, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const upstreamPid = await until("the upstream's pid", () =>
    existsSync(pidFile) && readFileSync(pidFile, "utf8") !== "" ? Number(readFileSync(pidFile, "utf8")) : undefined,
  );
  const store = SqliteStore.open(config.env.MCPX_STATE_DIR!);
  const [callId] = await store.calls.idsStartingWith("", 2);
  const runnerPid = (await store.calls.get(callId!))!.runnerPid!;
  await store.close();
  return { child, exited, stderr: () => stderr, upstreamPid, runnerPid, callId: callId! };
}

describe("stopping a detached mcpx call", () => {
  it("SIGTERM to the runner fails the call and stops the upstream process", async () => {
    const config = writeConfig({});
    const pidFile = join(config.dir, "upstream.pid");
    writeFileConfig(config, pidFile);
    const call = await hangingCall(config, pidFile);
    try {
      process.kill(call.runnerPid, "SIGTERM");
      expect(await call.exited).toBe(1);
      expect(call.stderr()).toContain("the call was stopped (SIGTERM) before it finished");
      await until("the upstream to be gone", () => (isAlive(call.upstreamPid) ? undefined : true));
      await until("the runner to be gone", () => (isAlive(call.runnerPid) ? undefined : true));
    } finally {
      call.child.kill("SIGKILL");
      for (const pid of [call.runnerPid, call.upstreamPid]) if (isAlive(pid)) process.kill(pid, "SIGKILL");
    }
  });

  it("Ctrl-C (SIGINT) at the mcpx call command stops the runner and the upstream too", async () => {
    const config = writeConfig({});
    const pidFile = join(config.dir, "upstream.pid");
    writeFileConfig(config, pidFile);
    const call = await hangingCall(config, pidFile);
    try {
      call.child.kill("SIGINT");
      expect(await call.exited).toBe(1);
      expect(call.stderr()).toContain(`mcpx: stopping call ${call.callId}`);
      await until("the upstream to be gone", () => (isAlive(call.upstreamPid) ? undefined : true));
      await until("the runner to be gone", () => (isAlive(call.runnerPid) ? undefined : true));
    } finally {
      call.child.kill("SIGKILL");
      for (const pid of [call.runnerPid, call.upstreamPid]) if (isAlive(pid)) process.kill(pid, "SIGKILL");
    }
  });
});

function writeFileConfig(config: TempConfig, pidFile: string): void {
  const server = nodeServer("typed-args-server.mjs", [], { env: { TYPED_PID_FILE: pidFile } });
  const text = JSON.stringify({ mcpServers: { typed: server } });
  writeFileSync(config.file, text);
}

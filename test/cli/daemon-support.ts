/**
 * For the daemon's tests: configs whose commands use the daemon (no `MCPX_NO_DAEMON`), its
 * discovery file as another process reads it, and clean-up that stops every daemon a test started.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readDaemonRecord, type DaemonRecord } from "../../src/cli/daemon-file.js";
import { MCPX_BIN, nodeServer, writeConfig, type TempConfig } from "../helpers/mcpx.js";
import { isAlive, runMcpx, type CliRun } from "../helpers/upstreams.js";

const started: TempConfig[] = [];

/** A config for the typed-args fixture (and `extra` servers); its commands use the daemon. */
export function daemonConfig(servers: Record<string, object> = {}, top: object = {}): TempConfig {
  const config = writeConfig({ mcpServers: { typed: nodeServer("typed-args-server.mjs"), ...servers }, ...top });
  delete config.env.MCPX_NO_DAEMON;
  started.push(config);
  return config;
}

export function stateOf(config: TempConfig): string {
  return config.env.MCPX_STATE_DIR!;
}

/** The discovery file's path (the one `daemon-*.json` in the state dir), if there is one. */
export function recordFile(config: TempConfig): string | undefined {
  let names: string[];
  try {
    names = readdirSync(stateOf(config));
  } catch {
    return undefined;
  }
  const name = names.find((entry) => /^daemon-[0-9a-f]{16}\.json$/.test(entry));
  return name ? join(stateOf(config), name) : undefined;
}

export function recordOf(config: TempConfig): DaemonRecord | undefined {
  const file = recordFile(config);
  return file ? readDaemonRecord(file) : undefined;
}

export function modeOf(file: string): number {
  return statSync(file).mode & 0o777;
}

/** How many daemons were started for this config (each says so once in the shared log). */
export function daemonsStarted(config: TempConfig): number {
  const log = readdirSync(stateOf(config)).find((entry) => /^daemon-[0-9a-f]{16}\.log$/.test(entry));
  if (!log) return 0;
  return readFileSync(join(stateOf(config), log), "utf8")
    .split("\n")
    .filter((line) => line.startsWith("mcpx: daemon for ")).length;
}

export function callEcho(config: TempConfig, label: string, ...rest: string[]): Promise<CliRun> {
  return runMcpx(["call", "typed.echo", JSON.stringify({ label }), "--config", config.file, ...rest], config);
}

/** Poll `probe` until it gives a value (bounded): for what another process does in its own time. */
export async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * Stop every daemon the tests of this file started (by their records): SIGTERM, which a daemon
 * takes as `mcpx daemon stop`'s request (it stops its upstreams and removes its record), and
 * SIGKILL for one still there after a while. No command process: a test's clean-up is not what
 * it tests (the stop command has a test of its own).
 */
export async function stopDaemons(): Promise<void> {
  await Promise.all(started.splice(0).map(stopDaemonOf));
}

async function stopDaemonOf(config: TempConfig): Promise<void> {
  const record = recordOf(config);
  if (record?.kind !== "daemon" || !isAlive(record.pid)) return;
  process.kill(record.pid, "SIGTERM");
  const gone = await until("the daemon to stop", () => (isAlive(record.pid) ? undefined : true), 10_000).catch(() => false);
  if (!gone && isAlive(record.pid)) process.kill(record.pid, "SIGKILL");
}

/**
 * A daemon for the tests that only use a running one (not about starting, staleness or
 * stopping it): started once by `beforeAll` with a first call, stopped by `afterAll`. The typed
 * server writes its pid to `pidFile` when its `hang` tool is called.
 */
export async function startSharedDaemon(): Promise<{ config: TempConfig; pidFile: string; stop: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), "mcpx-daemon-shared-"));
  const pidFile = join(dir, "hang.pid");
  const config = writeConfig({ mcpServers: { typed: nodeServer("typed-args-server.mjs", [], { env: { TYPED_PID_FILE: pidFile } }) } });
  delete config.env.MCPX_NO_DAEMON;
  const first = await callEcho(config, "first");
  if (first.code !== 0) throw new Error(`the shared daemon did not start: ${first.stderr}`);
  return { config, pidFile, stop: () => stopDaemonOf(config) };
}

/** A command as a child process whose output is collected, to signal it mid-call. */
export function spawnMcpx(args: string[], config: TempConfig, cwd?: string) {
  const child = spawn(process.execPath, [MCPX_BIN, ...args], { env: config.env, stdio: ["ignore", "pipe", "pipe"], ...(cwd ? { cwd } : {}) });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, exited, stdout: () => stdout, stderr: () => stderr };
}

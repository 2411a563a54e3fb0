/**
 * Finding the mcpx that serves this config's commands, or starting one: the process in the
 * discovery file when it is alive, runs this very config and this build of mcpx; else a
 * `mcpx daemon` started now, detached. A stale record is replaced (a live daemon of a changed
 * config is stopped first). Commands starting together start one daemon: whoever creates the
 * lock file (O_EXCL) starts it, the others wait for its record.
 */
import { closeSync, openSync, readFileSync, rmSync, statSync, truncateSync, writeSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { stateDir } from "../broker/state-path.js";
import { findConfigPath } from "../config/config-path.js";
import { processAlive } from "../util/process.js";
import { daemonRequest } from "./daemon-client.js";
import { daemonPaths, type DaemonPaths, type DaemonRecord, readDaemonRecord, staleness } from "./daemon-file.js";
import { CliError } from "./exit.js";

const BIN = fileURLToPath(new URL("../../bin/mcpx.js", import.meta.url));

/** Set in a command's environment: run in-process as `--no-daemon` does. */
export const NO_DAEMON_ENV = "MCPX_NO_DAEMON";
const POLL_MS = 20;
/** How long a new daemon may take to listen (it loads mcpx and binds; upstreams start after). */
const START_TIMEOUT_MS = 20_000;
/** A lock older than this is left by a command that died while starting a daemon. */
const LOCK_STALE_MS = START_TIMEOUT_MS + 5_000;
/** How long a stopped daemon may take to stop its upstreams and exit. */
const STOP_TIMEOUT_MS = 10_000;
/** The daemon's log is cut when a new one starts and it has grown past this. */
const MAX_LOG_BYTES = 1024 * 1024;

export function daemonWanted(noDaemon: boolean | undefined): boolean {
  return noDaemon !== true && process.env[NO_DAEMON_ENV] !== "1";
}

/** The process a command goes through: where its files are, its record, and whether the config's warnings were said here. */
export interface Reached {
  configFile: string;
  paths: DaemonPaths;
  record: DaemonRecord;
  /** The config's warnings were said here already (a cold start read it). */
  warned: boolean;
}

/**
 * The process serving the config `configOption` names, started when none does. `cold` runs
 * first then (the command's config and arguments checked here, so a bad one is the same error
 * as ever and starts nothing).
 */
export async function daemonFor(configOption: string | undefined, cold: () => Promise<void>): Promise<Reached> {
  const configFile = findConfigPath(configOption);
  const paths = daemonPaths(stateDir(), configFile);
  const found = await usable(paths, configFile);
  if (!found) await cold();
  return { configFile, paths, record: found ?? (await reachDaemon(configFile, paths)), warned: !found };
}

/**
 * The process already serving the config `configOption` names, for a line main.ts read itself
 * (call-line.ts, exec-line.ts); undefined, having done nothing, when none does or
 * `MCPX_NO_DAEMON` says not to use one (commander's turn then).
 */
export async function servingDaemon(configOption: string | undefined): Promise<Reached | undefined> {
  if (!daemonWanted(false)) return undefined;
  const configFile = findConfigPath(configOption);
  const paths = daemonPaths(stateDir(), configFile);
  const record = await usable(paths, configFile);
  return record && { configFile, paths, record, warned: false };
}

/** The record of a process serving this config now, starting a daemon when there is none. */
export async function reachDaemon(configFile: string, paths: DaemonPaths): Promise<DaemonRecord> {
  return (await usable(paths, configFile)) ?? startUnderLock(configFile, paths);
}

/** The recorded process when it can serve; a stale one is cleared away (a daemon of another config stopped). */
export async function usable(paths: DaemonPaths, configFile: string): Promise<DaemonRecord | undefined> {
  const record = readDaemonRecord(paths.file);
  if (!record) return undefined;
  const why = staleness(record, configFile);
  if (!why) return record;
  if (why !== "gone" && record.kind === "daemon") await stopDaemon(record);
  forget(paths.file, record);
  return undefined;
}

/** Ask a daemon to stop and wait (bounded) until it has; one that will not is sent SIGTERM. */
export async function stopDaemon(record: DaemonRecord): Promise<void> {
  try {
    await daemonRequest(record, "POST", "/stop", { body: {}, timeoutMs: 5_000 });
  } catch {
    // not answering: the signal below
  }
  if (await until(() => !processAlive(record.pid), STOP_TIMEOUT_MS)) return;
  try {
    process.kill(record.pid, "SIGTERM");
  } catch {
    return; // gone meanwhile
  }
  await until(() => !processAlive(record.pid), STOP_TIMEOUT_MS);
}

/** The record is removed if it still names this process (not a successor's). */
export function forget(file: string, record: DaemonRecord): void {
  if (readDaemonRecord(file)?.pid === record.pid) rmSync(file, { force: true });
}

async function startUnderLock(configFile: string, paths: DaemonPaths): Promise<DaemonRecord> {
  try {
    const { ensurePrivateDir } = await import("../broker/state-dir.js"); // the cold path only
    ensurePrivateDir(dirname(paths.lock));
  } catch (error) {
    throw new CliError((error as Error).message);
  }
  const deadline = Date.now() + START_TIMEOUT_MS + LOCK_STALE_MS;
  while (!takeLock(paths.lock)) {
    // Another command is starting one: its record is what this command uses too.
    const started = await usable(paths, configFile);
    if (started) return started;
    if (Date.now() > deadline) throw new CliError(`timed out waiting for another mcpx command to start the daemon (lock ${paths.lock})`);
    await sleep(POLL_MS);
  }
  try {
    return (await usable(paths, configFile)) ?? (await startDaemon(configFile, paths));
  } finally {
    rmSync(paths.lock, { force: true });
  }
}

/** Create the lock (O_EXCL) with this pid in it; a lock whose holder is gone, or too old, is taken over. */
function takeLock(lock: string): boolean {
  try {
    const fd = openSync(lock, "wx", 0o600);
    writeSync(fd, String(process.pid));
    closeSync(fd);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw new CliError(`cannot create ${lock}: ${(error as Error).message}`);
  }
  let holder = Number.NaN;
  let age = 0;
  try {
    holder = Number(readFileSync(lock, "utf8"));
    age = Date.now() - statSync(lock).mtimeMs;
  } catch {
    return false; // released meanwhile: try again
  }
  // A holder still writing its pid reads as NaN for a moment: only an old lock is taken then.
  if ((Number.isInteger(holder) && holder > 0 && !processAlive(holder)) || age > LOCK_STALE_MS) rmSync(lock, { force: true });
  return false;
}

async function startDaemon(configFile: string, paths: DaemonPaths): Promise<DaemonRecord> {
  cutLog(paths.log);
  const { spawn } = await import("node:child_process"); // the cold path only
  const log = openSync(paths.log, "a", 0o600);
  const env = { ...process.env };
  delete env[NO_DAEMON_ENV];
  const absolute = resolve(configFile); // it runs in the config's folder, not this command's
  const child = spawn(process.execPath, [BIN, "daemon", "--config", absolute], {
    detached: true,
    cwd: dirname(absolute),
    stdio: ["ignore", "ignore", log],
    env,
  });
  closeSync(log);
  let exited: number | null | undefined;
  child.once("exit", (code) => (exited = code));
  child.unref();
  const pid = child.pid;
  const ready = await until(() => exited !== undefined || (pid !== undefined && readDaemonRecord(paths.file)?.pid === pid), START_TIMEOUT_MS);
  const record = readDaemonRecord(paths.file);
  if (ready && record && record.pid === pid) {
    process.stderr.write(`mcpx: started a daemon for ${configFile} (pid ${pid}); it keeps the servers warm and exits when idle\n`);
    return record;
  }
  if (pid !== undefined && processAlive(pid)) process.kill(pid, "SIGTERM");
  throw new CliError(`the mcpx daemon did not start${exited !== undefined ? ` (it exited with ${exited})` : ""}; its log is ${paths.log}:\n${tail(paths.log)}`);
}

function cutLog(file: string): void {
  try {
    if (statSync(file).size > MAX_LOG_BYTES) truncateSync(file, 0);
  } catch {
    // no log yet
  }
}

function tail(file: string): string {
  try {
    return readFileSync(file, "utf8").trimEnd().split("\n").slice(-5).join("\n");
  } catch {
    return "(empty)";
  }
}

/** Poll `done` until it holds (true) or `timeoutMs` passes (false). */
async function until(done: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) return false;
    await sleep(POLL_MS);
  }
  return true;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

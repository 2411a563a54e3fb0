/**
 * Helpers for tests of mcpx's upstream side: HTTP fixtures as child processes, the event
 * records stdio fixtures write, mcpx's structured log, one-shot CLI runs, and process liveness.
 */
import { execFile, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fixture, MCPX_BIN, type TempConfig } from "./mcpx.js";
import type { ServerReport } from "../../src/cli/servers.js";

export interface HttpFixture {
  url: string;
  pid: number;
  close(): Promise<void>;
}

/** Start an HTTP fixture (with `args`, e.g. `--http`) that prints `LISTENING <url>` on stdout once it listens. */
export async function startHttpFixture(script: string, env: NodeJS.ProcessEnv = {}, args: string[] = []): Promise<HttpFixture> {
  const child = spawn(process.execPath, [fixture(script), ...args], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const close = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill("SIGKILL");
    await exited;
  };
  const url = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    const timer = setTimeout(() => reject(new Error(`${script} did not start listening\n${stderr}`)), 10_000);
    lines.on("line", (line) => {
      const match = /^LISTENING (\S+)$/.exec(line);
      if (!match?.[1]) return;
      clearTimeout(timer);
      resolve(match[1]);
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited with code ${code} before listening\n${stderr}`));
    });
  }).catch(async (error: unknown) => {
    await close();
    throw error;
  });
  return { url, pid: child.pid!, close };
}

export type RecordEvent = { event: string; pid: number } & Record<string, unknown>;

/** A fresh path for a fixture's event record (FAULTY_RECORD), inside the test's temp dir. */
export function recordPath(config: TempConfig, name = "record.jsonl"): string {
  return join(config.dir, name);
}

/** The events a fixture has recorded so far. */
export function readRecord(file: string): RecordEvent[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as RecordEvent);
}

/**
 * Wait (bounded) until the record holds an event matching `predicate`. The record is a file
 * written by another process, so this polls it; the bound keeps a missing event from hanging.
 */
export async function waitForRecord(file: string, predicate: (event: RecordEvent) => boolean, timeoutMs = 10_000): Promise<RecordEvent> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = readRecord(file).find(predicate);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no matching event in ${file}; recorded: ${JSON.stringify(readRecord(file))}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export type LogRecord = { level: string; msg: string } & Record<string, unknown>;

/** mcpx's stderr parsed as its structured log (lines that are not JSON are skipped). */
export function logRecords(stderr: string): LogRecord[] {
  const records: LogRecord[] = [];
  for (const line of stderr.split("\n")) {
    if (!line.startsWith("{")) continue;
    try {
      records.push(JSON.parse(line) as LogRecord);
    } catch {
      // a partial last line
    }
  }
  return records;
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run one mcpx command to completion (`node bin/mcpx.js ...`) with the config's environment. */
export function runMcpx(args: string[], config: TempConfig, env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(process.execPath, [MCPX_BIN, ...args], { env: { ...config.env, ...env }, timeout: 30_000 }, (error, stdout, stderr) => {
      const code = error && typeof error.code === "number" ? error.code : error ? -1 : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** Is a process with this pid still running? (A zombie, dead but not yet reaped, is not.) */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return true; // no /proc: trust the signal check
  }
}

/** The text of a tools/call result's first content block. */
export function firstText(frame: Record<string, unknown>): string {
  const result = frame.result as { content?: Array<{ type: string; text?: string }> } | undefined;
  const block = result?.content?.[0];
  if (block?.type !== "text") throw new Error(`expected a text result, got ${JSON.stringify(frame)}`);
  return block.text ?? "";
}

/** All the text of a tool result (as an SDK client returns it), its text blocks joined. */
export function textOf(result: unknown): string {
  return (result as { content: Array<{ text?: string }> }).content.map((block) => block.text ?? "").join("");
}

/** `mcpx servers --json` output, by server name. */
export function parseServers(stdout: string): Map<string, ServerReport> {
  return new Map((JSON.parse(stdout) as ServerReport[]).map((report) => [report.name, report]));
}

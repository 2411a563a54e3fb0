/**
 * Running the real mcpx in tests: a temp config and state dir, `mcpx serve` over stdio or
 * HTTP as a child process, and raw JSON-RPC clients that record every frame mcpx sends.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));
export const MCPX_BIN = join(ROOT, "bin", "mcpx.js");
export const FIXTURES = join(ROOT, "test", "fixtures");

export function fixture(name: string): string {
  return join(FIXTURES, name);
}

export interface TempConfig {
  dir: string;
  file: string;
  /** Environment for mcpx processes using this config: a private state dir. */
  env: NodeJS.ProcessEnv;
}

/**
 * Write a config into a fresh temp dir (with its own state dir). Commands run in-process
 * (`MCPX_NO_DAEMON=1`, as `--no-daemon`), so no test leaves a daemon behind; the daemon's own
 * tests (test/cli/daemon*.test.ts) take that variable out.
 */
export function writeConfig(config: object): TempConfig {
  const dir = mkdtempSync(join(tmpdir(), "mcpx-test-"));
  const file = join(dir, "mcpx.json");
  writeFileSync(file, JSON.stringify(config, null, 2));
  return { dir, file, env: { ...process.env, MCPX_STATE_DIR: join(dir, "state"), MCPX_LOG_LEVEL: "debug", MCPX_NO_DAEMON: "1" } };
}

/** A stdio upstream entry running one of the test fixtures with node. */
export function nodeServer(script: string, args: string[] = [], extra: object = {}): object {
  return { command: process.execPath, args: [fixture(script), ...args], ...extra };
}

export interface RunningMcpx {
  child: ChildProcessWithoutNullStreams;
  /** Everything mcpx wrote to stderr so far (its log). */
  stderr(): string;
  /** Wait until the log contains `text` (bounded). */
  waitForLog(text: string | RegExp, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

function run(args: string[], config: TempConfig): RunningMcpx & { stdoutLines: AsyncIterable<string> } {
  const child = spawn(process.execPath, [MCPX_BIN, ...args, "--config", config.file], {
    env: config.env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let log = "";
  const waiters: Array<() => void> = [];
  child.stderr.on("data", (chunk: Buffer) => {
    log += chunk.toString("utf8");
    for (const waiter of waiters.splice(0)) waiter();
  });
  const waitForLog = (text: string | RegExp, timeoutMs = 15_000): Promise<void> =>
    new Promise((resolvePromise, reject) => {
      const matches = (): boolean => (typeof text === "string" ? log.includes(text) : text.test(log));
      const timer = setTimeout(() => reject(new Error(`mcpx never logged ${String(text)}; log so far:\n${log}`)), timeoutMs);
      const check = (): void => {
        if (matches()) {
          clearTimeout(timer);
          resolvePromise();
        } else waiters.push(check);
      };
      check();
    });
  const close = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((done) => child.once("exit", () => done()));
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 8_000);
    await exited;
    clearTimeout(timer);
  };
  return { child, stderr: () => log, waitForLog, close, stdoutLines: lines(child.stdout) };
}

/** The stream's lines. Only each new chunk is searched for a newline: a frame of megabytes arrives in many chunks. */
async function* lines(stream: NodeJS.ReadableStream): AsyncIterable<string> {
  let partial: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    let start = 0;
    let at: number;
    while ((at = chunk.indexOf(0x0a, start)) !== -1) {
      partial.push(chunk.subarray(start, at));
      yield Buffer.concat(partial).toString("utf8");
      partial = [];
      start = at + 1;
    }
    if (start < chunk.length) partial.push(chunk.subarray(start));
  }
}

/** `mcpx serve --http --port 0`; resolves once it prints its URL. */
export async function startMcpxHttp(config: TempConfig, extraArgs: string[] = []): Promise<RunningMcpx & { url: URL }> {
  const running = run(["serve", "--http", "--port", "0", ...extraArgs], config);
  await running.waitForLog(/serving MCP at (\S+)/);
  const match = /serving MCP at (\S+)/.exec(running.stderr());
  return { ...running, url: new URL(match![1]!) };
}

/** The args that launch `mcpx serve` over stdio, for SDK `StdioClientTransport`s. */
export function stdioServeParams(config: TempConfig): { command: string; args: string[]; env: Record<string, string> } {
  return {
    command: process.execPath,
    args: [MCPX_BIN, "serve", "--config", config.file],
    env: Object.fromEntries(Object.entries(config.env).filter((entry): entry is [string, string] => entry[1] !== undefined)),
  };
}

/** A raw JSON-RPC client on mcpx's stdio: sends frames, records every frame mcpx sends. */
export class RawStdioHost {
  readonly frames: Array<Record<string, unknown>> = [];
  readonly running: RunningMcpx;
  #waiters: Array<() => void> = [];

  constructor(config: TempConfig) {
    const running = run(["serve"], config);
    this.running = running;
    void (async () => {
      for await (const line of running.stdoutLines) {
        this.frames.push(JSON.parse(line) as Record<string, unknown>);
        for (const waiter of this.#waiters.splice(0)) waiter();
      }
    })();
  }

  send(frame: unknown): void {
    this.running.child.stdin.write(`${typeof frame === "string" ? frame : JSON.stringify(frame)}\n`);
  }

  /** Wait for a frame matching `predicate` (bounded). */
  waitFor(predicate: (frame: Record<string, unknown>) => boolean, timeoutMs = 15_000): Promise<Record<string, unknown>> {
    return new Promise((resolvePromise, reject) => {
      const timer = setTimeout(
        () =>
          reject(new Error(`no matching frame from mcpx; frames: ${JSON.stringify(this.frames).slice(0, 2000)}\nlog: ${this.running.stderr().slice(-2000)}`)),
        timeoutMs,
      );
      const check = (): void => {
        const found = this.frames.find(predicate);
        if (found) {
          clearTimeout(timer);
          resolvePromise(found);
        } else this.#waiters.push(check);
      };
      check();
    });
  }

  /** Send a request and wait for its answer. */
  async request(id: number | string, method: string, params?: object): Promise<Record<string, unknown>> {
    this.send({ jsonrpc: "2.0", id, method, ...(params ? { params } : {}) });
    return this.waitFor((frame) => frame.id === id && !("method" in frame));
  }

  async initialize(protocolVersion = "2025-11-25", capabilities: object = {}): Promise<Record<string, unknown>> {
    const answer = await this.request("init", "initialize", { protocolVersion, capabilities, clientInfo: { name: "raw-test-host", version: "1.0.0" } });
    this.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    return answer;
  }

  close(): Promise<void> {
    this.running.child.stdin.end();
    return this.running.close();
  }
}

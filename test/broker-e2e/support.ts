/**
 * Shared set-up for the end-to-end broker tests: a real gateway (`mcpx serve`, `mcpx call`)
 * in front of the asking fixture, the shared question store read the way another process
 * would, the CLI and REST surfaces as a person would use them, and a pseudo-terminal.
 */
import { chmodSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { spawn } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SqliteStore } from "../../src/broker/sqlite/sqlite-store.js";
import { viewOf, type QuestionView } from "../../src/broker/view.js";
import { deliveryOf } from "../../src/broker/delivery.js";
import type { QuestionRecord } from "../../src/broker/types.js";
import { MCPX_BIN, writeConfig, type TempConfig } from "../helpers/mcpx.js";
import { runMcpx, type CliRun } from "../helpers/upstreams.js";

/** A question as the surfaces show it, its delivery by this machine's processes (one machine here). */
const localView = (record: QuestionRecord) => viewOf(record, Date.now(), deliveryOf(record));

export type { QuestionView };

/** Long enough that no question expires while a test answers it; tests of expiry set their own. */
export const TTL_SECONDS = 60;

/** The document `mcpx call` and `mcpx exec` print when they stop on a question (exit 75). */
export interface InputRequired {
  status: string;
  callId: string;
  collectWith: string;
  questions: Array<Record<string, unknown> & { id: string; respondWith: string }>;
}

/** A config with these upstreams and elicitation settings (a private state dir comes with it). */
export function brokerConfig(servers: Record<string, object>, elicitation: object = {}): TempConfig {
  return writeConfig({ mcpServers: servers, elicitation: { ttlSeconds: TTL_SECONDS, ...elicitation } });
}

export function stateDirOf(config: TempConfig): string {
  return config.env.MCPX_STATE_DIR!;
}

/** Every question in the store, as every surface shows it (read directly, like another process). */
export async function storedQuestions(config: TempConfig): Promise<QuestionView[]> {
  const store = SqliteStore.open(stateDirOf(config));
  try {
    return (await store.questions.list(true)).map((record) => localView(record));
  } finally {
    await store.close();
  }
}

/**
 * Wait (bounded) for a question in the store matching `predicate`. The store is a file written
 * by another process, so this polls it; the bound keeps a missing question from hanging.
 */
export async function waitForQuestion(config: TempConfig, predicate: (view: QuestionView) => boolean, timeoutMs = 15_000): Promise<QuestionView> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await storedQuestions(config)).find(predicate);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no matching question in the store; it holds ${JSON.stringify(await storedQuestions(config), null, 2)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A pending question from `server` (optionally with this message). */
export function pendingFrom(server: string, message?: string): (view: QuestionView) => boolean {
  return (view) => view.state === "pending" && view.server === server && (message === undefined || view.message === message);
}

/** `mcpx elicit list --all --json` as a child process. */
export async function elicitListAll(config: TempConfig): Promise<QuestionView[]> {
  const run = await runMcpx(["elicit", "list", "--all", "--json"], config);
  if (run.code !== 0) throw new Error(`mcpx elicit list failed (${run.code}): ${run.stderr}`);
  return JSON.parse(run.stdout) as QuestionView[];
}

/** `mcpx elicit <args>` as a child process. */
export function elicit(config: TempConfig, ...args: string[]): Promise<CliRun> {
  return runMcpx(["elicit", ...args], config);
}

/** The REST API of an `mcpx serve --http` or `mcpx ui`, with its token. */
export class Rest {
  constructor(
    readonly base: URL,
    readonly token: string,
  ) {}

  /** From the log of `mcpx serve --http` or `mcpx ui`: the API's address and the file with its token. */
  static fromLog(log: string): Rest {
    const match = /REST API at (\S+): send .* with the token in (\S+)/.exec(log);
    if (!match?.[1] || !match[2]) throw new Error(`no REST API line in the log:\n${log}`);
    return new Rest(new URL("/", match[1]), readFileSync(match[2], "utf8").trim());
  }

  async get(path: string): Promise<{ status: number; body: any }> {
    const response = await fetch(new URL(path, this.base), {
      headers: { authorization: `Bearer ${this.token}` },
      signal: AbortSignal.timeout(10_000),
    });
    return { status: response.status, body: await response.json() };
  }

  async answer(id: string, body: object): Promise<{ status: number; body: any }> {
    const response = await fetch(new URL(`/v1/questions/${id}/answer`, this.base), {
      method: "POST",
      headers: { authorization: `Bearer ${this.token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    return { status: response.status, body: await response.json() };
  }
}

/** A directory holding an `mcpx` command (this checkout's), to put on PATH for printed command lines. */
export function mcpxOnPath(): string {
  const dir = mkdtempSync(join(tmpdir(), "mcpx-bin-"));
  const file = join(dir, "mcpx");
  writeFileSync(file, `#!/bin/sh\nexec '${process.execPath}' '${MCPX_BIN}' "$@"\n`);
  chmodSync(file, 0o755);
  return dir;
}

/** Run a printed command line through /bin/sh, with `mcpx` on PATH and the config's state dir. */
export function runShell(line: string, config: TempConfig, bin: string): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn("/bin/sh", ["-c", line], {
      env: { ...config.env, PATH: `${bin}:${process.env.PATH ?? ""}` },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.once("error", reject);
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr });
    });
  });
}

/**
 * The pids of a process's children (Linux /proc; elsewhere none). A test that SIGKILLs an mcpx
 * process kills these after it: the upstreams that mcpx would have stopped itself.
 */
export function childPids(parent: number): number[] {
  const children: number[] = [];
  let entries: string[] = [];
  try {
    entries = readdirSync("/proc").filter((entry) => /^\d+$/.test(entry));
  } catch {
    return [];
  }
  for (const entry of entries) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === parent) children.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return children;
}

/** SIGKILL these pids, ignoring those already gone. */
export function killAll(pids: number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

export { hasScript, onTerminal } from "../helpers/terminal.js";

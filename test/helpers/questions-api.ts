/**
 * For tests of the REST API and the web page: `mcpx ui` as a child process, a broker of the
 * test's own on the same state dir (another process, as far as mcpx is concerned), and quick
 * ways to open questions in it.
 */
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Broker } from "../../src/broker/broker.js";
import { SqliteStore } from "../../src/broker/sqlite/sqlite-store.js";
import type { QuestionRecord } from "../../src/broker/types.js";
import type { JsonObject } from "../../src/protocol/jsonrpc.js";
import { questionFromRequest, type QuestionMethod } from "../../src/render/question.js";
import { silentLogger } from "../../src/util/log.js";
import { MCPX_BIN } from "./mcpx.js";

export function tempStateDir(): string {
  return join(mkdtempSync(join(tmpdir(), "mcpx-api-")), "state");
}

export interface RunningUi {
  /** The page's base address (no code). */
  base: URL;
  /** The API token, from the state dir. */
  token: string;
  /** The one-time page link it printed. */
  link: URL;
  pid: number;
  stderr(): string;
  close(): Promise<void>;
}

/** `mcpx ui --port 0` on `stateDir`; resolves once it prints the page URL. */
export async function startUi(stateDir: string, args: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<RunningUi> {
  const child = spawn(process.execPath, [MCPX_BIN, "ui", "--port", "0", ...args], {
    env: { ...process.env, MCPX_STATE_DIR: stateDir, MCPX_LOG_LEVEL: "debug", ...env },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let log = "";
  const printed = new Promise<URL>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`mcpx ui printed no URL; log:\n${log}`)), 15_000);
    child.stderr.on("data", (chunk: Buffer) => {
      log += chunk.toString("utf8");
      const match = /mcpx: questions at (\S+)/.exec(log);
      if (match) {
        clearTimeout(timer);
        resolve(new URL(match[1]!));
      }
    });
    child.once("exit", (code) => reject(new Error(`mcpx ui exited (${code}); log:\n${log}`)));
  });
  const url = await printed;
  return {
    base: new URL("/", url),
    token: readFileSync(join(stateDir, "api-token"), "utf8").trim(),
    link: url,
    pid: child.pid!,
    stderr: () => log,
    close: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((done) => child.once("exit", () => done()));
      child.kill("SIGTERM");
      await exited;
    },
  };
}

/** A broker of the test's own on a state dir. */
export function openBroker(stateDir: string): { store: SqliteStore; broker: Broker; close(): Promise<void> } {
  const store = SqliteStore.open(stateDir);
  const broker = new Broker(store, silentLogger);
  return {
    store,
    broker,
    close: async () => {
      await broker.stop();
      await store.close();
    },
  };
}

/** Open a question as if the upstream `server` had sent `method` with `params` during `tool`. */
export async function ask(
  broker: Broker,
  method: QuestionMethod,
  params: JsonObject,
  options: { server?: string; tool?: string; ttlSeconds?: number; hostSession?: string } = {},
): Promise<QuestionRecord> {
  const question = questionFromRequest(randomUUID(), options.server ?? "demo", method, params);
  if (!question) throw new Error(`not a question: ${method} ${JSON.stringify(params)}`);
  const origin = { tool: options.tool ?? "demo__book", ...(options.hostSession ? { hostSession: options.hostSession } : {}) };
  const record = await broker.open(question, origin, options.ttlSeconds ?? 300);
  // As `mcpx serve` does: once it is settled, hand the answer over and record its delivery.
  void broker
    .wait(record.id)
    .then((settled) => broker.delivered(settled.id))
    .catch(() => {}); // the store may be closed by then
  return record;
}

export function askForm(
  broker: Broker,
  message: string,
  requestedSchema: JsonObject,
  options: { server?: string; tool?: string; hostSession?: string } = {},
): Promise<QuestionRecord> {
  return ask(broker, "elicitation/create", { mode: "form", message, requestedSchema }, options);
}

export function askUrl(broker: Broker, message: string, url: string): Promise<QuestionRecord> {
  return ask(broker, "elicitation/create", { mode: "url", message, url, elicitationId: randomUUID() });
}

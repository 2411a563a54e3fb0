/**
 * Shared set-up for the broker tests: a private state dir per test, a store and broker on it,
 * questions built the way the gateway builds them, and other processes (test/fixtures/
 * broker-child.mjs, running dist/) that touch the same store.
 */
import type { Clock } from "../../src/broker/clock.js";
import { spawn, type SpawnOptions } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Broker } from "../../src/broker/broker.js";
import { SqliteStore } from "../../src/broker/sqlite/sqlite-store.js";
import type { QuestionRecord } from "../../src/broker/types.js";
import type { JsonObject } from "../../src/protocol/jsonrpc.js";
import { questionFromRequest, type Question } from "../../src/render/question.js";
import { silentLogger } from "../../src/util/log.js";
import { fixture } from "../helpers/mcpx.js";

/** A fresh directory under the system temp dir; the state dir is `<it>/state` (not yet created). */
export function tempRoot(): string {
  return mkdtempSync(join(tmpdir(), "mcpx-broker-"));
}

export function tempStateDir(): string {
  return join(tempRoot(), "state");
}

export interface OpenBroker {
  dir: string;
  store: SqliteStore;
  broker: Broker;
  close(): Promise<void>;
}

/** A store and broker on `dir` (a fresh state dir by default). */
export function openBroker(dir = tempStateDir(), clock?: Clock): OpenBroker {
  const store = SqliteStore.open(dir);
  const broker = new Broker(store, silentLogger, clock ? { clock } : {});
  return {
    dir,
    store,
    broker,
    close: async () => {
      await broker.stop();
      await store.close();
    },
  };
}

/** A clock that moves only when told to. */
export function manualClock(start = Date.parse("2026-12-01T10:00:00.000Z")): Clock & { advance(ms: number): void } {
  let now = start;
  return { now: () => now, advance: (ms) => void (now += ms) };
}

let counter = 0;
function nextId(): string {
  counter += 1;
  return `q-${process.pid}-${counter}`;
}

export function question(method: string, params: JsonObject, server = "files", id = nextId()): Question {
  const built = questionFromRequest(id, server, method, params);
  if (!built) throw new Error(`not a question: ${method} ${JSON.stringify(params)}`);
  return built;
}

/** A form elicitation with the given properties (and required fields). */
export function form(properties: JsonObject, required: string[] = [], server = "files"): Question {
  return question(
    "elicitation/create",
    { message: "Tell me", requestedSchema: { type: "object", properties, ...(required.length ? { required } : {}) } },
    server,
  );
}

export function urlQuestion(server = "files"): Question {
  return question("elicitation/create", { mode: "url", message: "Sign in", url: "https://example.com/login", elicitationId: "e-1" }, server);
}

/** The form most tests use: a required name, an age, an email, and a colour from an enum. */
export function profileForm(server = "files"): Question {
  return form(
    {
      name: { type: "string" },
      age: { type: "integer" },
      email: { type: "string", format: "email" },
      colour: { type: "string", enum: ["red", "green"], default: "green" },
    },
    ["name"],
    server,
  );
}

/** Settle `promise` or fail after `ms`: every wait in these tests is bounded. */
export function within<T>(promise: Promise<T>, ms: number, what = "the event"): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export interface ChildResult {
  ok: boolean;
  code?: string;
  message?: string;
  record?: QuestionRecord | null;
  token?: string;
}

interface Child {
  /** Resolves once a gated child is ready to act. */
  ready: Promise<void>;
  /** Let a gated child act. */
  go(): void;
  result: Promise<ChildResult>;
}

/** Start test/fixtures/broker-child.mjs; its result is the one JSON line it prints. */
function startChild(args: string[], options: SpawnOptions = {}): Child {
  const child = spawn(process.execPath, [fixture("broker-child.mjs"), ...args], { ...options, stdio: ["pipe", "pipe", "pipe"] });
  let out = "";
  let err = "";
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  child.stdout!.on("data", (chunk: Buffer) => {
    out += chunk.toString();
    if (out.startsWith("READY\n")) markReady();
  });
  child.stderr!.on("data", (chunk: Buffer) => (err += chunk.toString()));
  const result = new Promise<ChildResult>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => {
      markReady(); // a child that failed before getting ready must not hold the others up
      const line = out.trim().split("\n").pop() ?? "";
      try {
        resolve(JSON.parse(line) as ChildResult);
      } catch {
        reject(new Error(`broker-child ${args.join(" ")} exited ${code} without a result: ${out}${err}`));
      }
    });
  });
  return { ready, go: () => child.stdin!.end("go\n"), result };
}

/** Run one child to completion. */
export function runChild(args: string[], options: SpawnOptions = {}): Promise<ChildResult> {
  const child = startChild(args, options);
  child.go();
  return child.result;
}

/** Run several gated children (args that include "gated"): all get ready, then all act at once. */
export async function raceChildren(argsList: string[][]): Promise<ChildResult[]> {
  const children = argsList.map((args) => startChild(args));
  await Promise.all(children.map((child) => child.ready));
  for (const child of children) child.go();
  return Promise.all(children.map((child) => child.result));
}

/** The pid of a process that has exited (and, so soon after, not been reused). */
export function deadPid(): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
    child.on("error", reject);
    child.on("exit", () => resolve(child.pid!));
  });
}

export const isRoot = typeof process.getuid === "function" && process.getuid() === 0;

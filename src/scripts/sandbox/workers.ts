/**
 * The sandbox's worker threads, one per run, never reused (a run's worker is ended with it).
 * One spare is kept loaded once a run has ended (or `warmSandbox()` asked for it), so the next
 * run starts in a few milliseconds instead of loading QuickJS first (sucrase is the main
 * thread's: source.ts). An idle spare never keeps the process alive.
 */
import { Worker } from "node:worker_threads";
import { DEFAULT_SCRIPT_LIMITS } from "../types.js";
import type { FromWorker } from "./messages.js";
import type { WorkerData } from "./wasm-memory.js";

/**
 * A second fence around the worker's own (Node) heap; QuickJS's heap has its own limit. The
 * stack is several times QuickJS's (engine.ts STACK_BYTES): each QuickJS frame takes room on
 * both, and QuickJS must run out first to end a deep recursion with a clear error.
 */
export const WORKER_LIMITS = { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 32, stackSizeMb: 8 };

interface Spare {
  worker: Worker;
  ready: Promise<void>;
  /** The memory limit it was made for (its wasm memory's maximum follows it). */
  memoryBytes: number;
}

let spare: Spare | undefined;

/** A worker for a run: the spare when there is one made for its memory limit (loaded or loading), else a new one. */
export function takeWorker(memoryBytes: number): Worker {
  const taken = spare?.memoryBytes === memoryBytes ? spare : spawn(memoryBytes);
  if (taken === spare) spare = undefined;
  const { worker } = taken;
  worker.ref();
  // Read (and drop) what it writes only now: an idle spare's streams would keep the process alive.
  worker.stdout.resume();
  worker.stderr.resume();
  return worker;
}

/**
 * Load a spare now for runs of this memory limit, if there is none (after a run, and for a
 * server about to run scripts).
 */
export function warmSandbox(memoryBytes = DEFAULT_SCRIPT_LIMITS.memoryBytes): void {
  if (spare?.memoryBytes === memoryBytes) return;
  if (spare) void spare.worker.terminate();
  spare = spawn(memoryBytes);
}

/** The spare, once it is loaded (starting one if there is none). */
export function spareReady(memoryBytes = DEFAULT_SCRIPT_LIMITS.memoryBytes): Promise<void> {
  warmSandbox(memoryBytes);
  return spare!.ready;
}

/** End the spare (measuring a cold start, shutting down). */
export async function dropSpare(): Promise<void> {
  const dropped = spare;
  spare = undefined;
  await dropped?.worker.terminate();
}

function spawn(memoryBytes: number): Spare {
  const workerData: WorkerData = { memoryBytes };
  // Its stdout is not the process's: on `mcpx serve` over stdio that is the host's channel.
  const worker = new Worker(workerUrl(), { workerData, resourceLimits: WORKER_LIMITS, stdout: true, stderr: true });
  worker.unref();
  const ready = new Promise<void>((resolve, reject) => {
    const onMessage = (message: FromWorker) => {
      if (message?.type !== "ready") return;
      worker.off("message", onMessage);
      resolve();
    };
    worker.on("message", onMessage);
    worker.once("error", reject);
    worker.once("exit", () => reject(new Error("the sandbox worker ended before it was ready")));
  });
  ready.catch(() => {});
  const forget = () => {
    if (spare?.worker === worker) spare = undefined;
  };
  worker.once("error", forget);
  worker.once("exit", forget);
  return { worker, ready, memoryBytes };
}

/**
 * worker.js beside this module. Loaded from the TypeScript sources (the tests do), it is the
 * built one under dist/: a worker thread of Node 20 runs no TypeScript.
 */
export function workerUrl(): URL {
  const here = new URL("./worker.js", import.meta.url);
  if (!import.meta.url.endsWith(".ts")) return here;
  const href = here.href;
  const at = href.lastIndexOf("/src/");
  return new URL(`${href.slice(0, at)}/dist/${href.slice(at + "/src/".length)}`);
}

/**
 * What the sandbox costs, measured (the bench reports it; `bench/scripts.mjs` imports this from
 * dist/): a run's start with no worker loaded (cold) and with the spare loaded (warm), each tool
 * call's overhead (a caller that answers at once), and the memory a loaded worker adds to the
 * process (RSS), idle and in the middle of a run.
 */
import { startScript } from "../run-script.js";
import { DEFAULT_SCRIPT_LIMITS, type ScriptServer, type ToolCaller } from "../types.js";
import { dropSpare, spareReady } from "./workers.js";

export interface SandboxMeasurements {
  /** Start to end of `return 1` with no worker loaded, ms (median). */
  coldStartMs: number;
  /** The same with the spare worker loaded, ms (median). */
  warmStartMs: number;
  /** Per tool call, beyond the caller's own time, ms. */
  perCallMs: number;
  /** RSS a loaded, idle worker adds, bytes (the process's RSS moves with its own GC: a rough figure). */
  idleWorkerRssBytes: number;
  /** RSS a worker adds in the middle of a run, bytes. */
  runningWorkerRssBytes: number;
}

const SERVERS: ScriptServer[] = [{ variable: "bench", server: "bench", tools: [{ fn: "noop", tool: "noop", structured: false }] }];
const NOOP: ToolCaller = async () => ({ content: [{ type: "text", text: "ok" }] });

export async function measureSandbox(options: { rounds?: number; calls?: number } = {}): Promise<SandboxMeasurements> {
  const rounds = options.rounds ?? 5;
  const calls = options.calls ?? 200;
  const cold: number[] = [];
  const warm: number[] = [];
  for (let i = 0; i < rounds; i++) {
    await dropSpare();
    cold.push(await timed("return 1", NOOP));
    await spareReady();
    warm.push(await timed("return 1", NOOP));
  }
  await spareReady();
  const withCalls = await timed(`for (let i = 0; i < ${calls}; i++) await bench.noop({});`, NOOP);
  const perCallMs = Math.max(0, (withCalls - median(warm)) / calls);

  const idle: number[] = [];
  for (let i = 0; i < 3; i++) {
    await dropSpare();
    const rss = process.memoryUsage().rss;
    await spareReady();
    idle.push(process.memoryUsage().rss - rss);
  }
  await dropSpare();
  const before = process.memoryUsage().rss;
  let during = before;
  const sampling: ToolCaller = async () => {
    during = process.memoryUsage().rss;
    return { content: [] };
  };
  await timed("const data = []; for (let i = 0; i < 1000; i++) data.push({ i, text: 'x'.repeat(100) }); await bench.noop({});", sampling);
  return {
    coldStartMs: median(cold),
    warmStartMs: median(warm),
    perCallMs,
    idleWorkerRssBytes: Math.max(0, median(idle)),
    runningWorkerRssBytes: Math.max(0, during - before),
  };
}

async function timed(code: string, caller: ToolCaller): Promise<number> {
  const started = performance.now();
  const run = await startScript({ code, language: "ts", filename: "bench.ts", args: [] }, SERVERS, caller, DEFAULT_SCRIPT_LIMITS);
  const envelope = await run.done;
  if (!envelope.ok) throw new Error(`the measuring script failed: ${envelope.error?.message}`);
  return performance.now() - started;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

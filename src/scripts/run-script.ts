/**
 * Runs one script in the sandbox (scripts/sandbox/): a QuickJS interpreter (WebAssembly) on a
 * worker thread of its own, whose only way out is `caller`. The run starts at once; the event
 * loop of the caller never waits on the script, whatever it does. The source is made
 * JavaScript here (sandbox/source.ts, sucrase), imported on the first run or warm-up, so a
 * process that never runs a script never loads sucrase, and a spare worker loads without it;
 * a long source is the worker's to make JavaScript (STRIPPED_HERE_CHARS).
 */
import { SandboxRun } from "./sandbox/sandbox-run.js";
import { warmSandbox as loadSpare } from "./sandbox/workers.js";
import type { RunningScript, ScriptLimits, ScriptServer, ScriptSource, ToolCaller } from "./types.js";

const sources = () => import("./sandbox/source.js");

/**
 * The longest source made JavaScript here; a longer one is the worker's to strip. sucrase takes
 * about half a millisecond per KiB on a loaded machine, and a 4 MB script (what a host may send)
 * would hold this process's event loop for seconds.
 */
export const STRIPPED_HERE_CHARS = 16 * 1024;

export async function startScript(source: ScriptSource, servers: readonly ScriptServer[], caller: ToolCaller, limits: ScriptLimits): Promise<RunningScript> {
  const program = source.code.length <= STRIPPED_HERE_CHARS ? (await sources()).programOf(source) : undefined;
  return new SandboxRun(source, program, servers, caller, limits);
}

/**
 * A spare worker loaded now for runs of this memory limit, and sucrase with it, its first
 * transform made (that one costs several times a later one), for a process about to run scripts.
 */
export function warmSandbox(memoryBytes?: number): void {
  loadSpare(memoryBytes);
  sources()
    .then(({ programOf }) => programOf({ code: "const n: number = 1;", language: "ts" }))
    .catch(() => {});
}

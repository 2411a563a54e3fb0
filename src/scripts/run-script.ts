/**
 * Runs one script in the sandbox (scripts/sandbox/): a QuickJS interpreter (WebAssembly) on a
 * worker thread of its own, whose only way out is `caller`. The run starts at once; the event
 * loop of the caller never waits on the script, whatever it does.
 */
import { SandboxRun } from "./sandbox/sandbox-run.js";
import type { RunningScript, ScriptLimits, ScriptServer, ScriptSource, ToolCaller } from "./types.js";

export { warmSandbox } from "./sandbox/workers.js";

export async function startScript(source: ScriptSource, servers: readonly ScriptServer[], caller: ToolCaller, limits: ScriptLimits): Promise<RunningScript> {
  return new SandboxRun(source, servers, caller, limits);
}

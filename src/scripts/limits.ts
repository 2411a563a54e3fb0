/** The config's `scripts` section as the limits one run gets. Pure. */
import type { Config } from "../config/types.js";
import type { ScriptLimits } from "./types.js";

export function scriptLimits(scripts: Config["scripts"]): ScriptLimits {
  return {
    memoryBytes: scripts.memoryMb * 1024 * 1024,
    timeoutMs: scripts.timeoutSeconds * 1000,
    outputBytes: scripts.outputKb * 1024,
    maxCalls: scripts.maxCalls,
  };
}

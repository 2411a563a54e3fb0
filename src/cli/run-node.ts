import type { ScriptSource } from "../scripts/types.js";
import { CliError } from "./exit.js";
import type { RunFlags } from "./run-command.js";

export async function runInNode(_source: ScriptSource, _flags: RunFlags): Promise<number> {
  throw new CliError("--runtime node is not built yet");
}

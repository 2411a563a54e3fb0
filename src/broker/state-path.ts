/**
 * Where the state directory is: `$MCPX_STATE_DIR`, else `$XDG_STATE_HOME/mcpx`, else
 * `~/.local/state/mcpx`. Apart from making it private (state-dir.ts) so that a command that only
 * reads a file there (a warm `mcpx call`) loads nothing more.
 */
import { homedir } from "node:os";
import { join } from "node:path";

export function stateDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.MCPX_STATE_DIR) return env.MCPX_STATE_DIR;
  if (env.XDG_STATE_HOME) return join(env.XDG_STATE_HOME, "mcpx");
  return join(homedir(), ".local", "state", "mcpx");
}

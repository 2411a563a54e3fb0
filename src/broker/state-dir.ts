/**
 * The state directory shared by every mcpx process of the user: `$MCPX_STATE_DIR`, else
 * `$XDG_STATE_HOME/mcpx`, else `~/.local/state/mcpx`. Private to the user (0700).
 */
import { chmodSync, mkdirSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { GatewayError } from "../protocol/errors.js";

export function stateDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.MCPX_STATE_DIR) return env.MCPX_STATE_DIR;
  if (env.XDG_STATE_HOME) return join(env.XDG_STATE_HOME, "mcpx");
  return join(homedir(), ".local", "state", "mcpx");
}

/** Create the directory if needed and make sure only the user can enter it. */
export function ensurePrivateDir(dir: string): string {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    if ((statSync(dir).mode & 0o077) !== 0) chmodSync(dir, 0o700);
  } catch (error) {
    throw new GatewayError("STORE_UNAVAILABLE", `cannot use the state directory ${dir}: ${(error as Error).message}`);
  }
  return dir;
}

/**
 * The state directory shared by every mcpx process of the user: `$MCPX_STATE_DIR`, else
 * `$XDG_STATE_HOME/mcpx`, else `~/.local/state/mcpx`. Private to the user (0700), and so is
 * every file in it (0600).
 *
 * What is ours and merely too open is tightened. What belongs to another user is refused:
 * mcpx cannot make it private, and writing into it would share questions and answers (or hand
 * over files, when run with sudo) across users.
 */
import { chmodSync, mkdirSync, statSync, type Stats } from "node:fs";
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
  let stats: Stats;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    stats = statSync(dir);
  } catch (error) {
    throw new GatewayError("STORE_UNAVAILABLE", `cannot use the state directory ${dir}: ${(error as Error).message}`);
  }
  refuseIfNotOurs(dir, stats, "the state directory");
  tighten(dir, stats, 0o700, "the state directory");
  return dir;
}

/** A file of the state dir, when it exists: refuse it if another user owns it, else make it 0600. */
export function ensurePrivateFile(path: string): void {
  let stats: Stats;
  try {
    stats = statSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return; // created later, 0600
    throw new GatewayError("STORE_UNAVAILABLE", `cannot use ${path}: ${(error as Error).message}`);
  }
  refuseIfNotOurs(path, stats, "the file");
  tighten(path, stats, 0o600, "the file");
}

function refuseIfNotOurs(path: string, stats: Stats, what: string): void {
  const uid = process.getuid?.();
  if (uid === undefined || stats.uid === uid) return;
  throw new GatewayError(
    "STORE_UNAVAILABLE",
    `${what} ${path} belongs to another user (uid ${stats.uid}, you are uid ${uid}); mcpx keeps questions and answers ` +
      "private to one user and will not use it. Run mcpx as that user, or point MCPX_STATE_DIR at a directory of your own.",
    { path },
  );
}

function tighten(path: string, stats: Stats, mode: number, what: string): void {
  if ((stats.mode & 0o077) === 0) return;
  try {
    chmodSync(path, mode);
  } catch (error) {
    throw new GatewayError("STORE_UNAVAILABLE", `${what} ${path} is open to other users and cannot be made private: ${(error as Error).message}`, { path });
  }
}

/**
 * The state directory shared by every mcpx process of the user: `$MCPX_STATE_DIR`, else
 * `$XDG_STATE_HOME/mcpx`, else `~/.local/state/mcpx`. Private to the user (0700), and so is
 * every file in it (0600): every process makes it so when it first opens the directory.
 *
 * What is ours and merely too open is tightened. What belongs to another user is refused:
 * mcpx cannot make it private, and writing into it would share questions and answers (or hand
 * over files, when run with sudo) across users.
 */
import { chmodSync, lstatSync, mkdirSync, readdirSync, rmSync, statSync, type Stats } from "node:fs";
import { join, relative, resolve } from "node:path";
import { GatewayError } from "../protocol/errors.js";

export { stateDir } from "./state-path.js";

/** The API token that guards REST and the web page. */
export const TOKEN_FILE = "api-token";
/** The key that signs the `requestState` mcpx gives modern hosts (an HMAC key; never leaves the state dir). */
export const REQUEST_STATE_KEY_FILE = "request-state-key";
/** Files of the state dir that are credentials: one others could read may have leaked, so it is replaced, never kept. */
const CREDENTIAL_FILES = new Set([TOKEN_FILE, REQUEST_STATE_KEY_FILE]);

/** Where a line for the person goes (stderr: stdout is the protocol in stdio mode). */
export type Say = (line: string) => void;
const onStderr: Say = (line) => {
  try {
    process.stderr.write(`mcpx: ${line}\n`);
  } catch {
    // A closed stderr must not stop mcpx from using its state dir.
  }
};

/** Walking the state dir stays bounded whatever is left in it. */
const SWEEP_DEPTH = 4;
const SWEEP_ENTRIES = 10_000;
const NAMED_IN_A_LINE = 5;
/** State dirs this process already swept: every process does it once, at start. */
const swept = new Set<string>();

/**
 * Create the directory if needed and make sure only the user can enter it. The first time in
 * a process, everything in it is made private too (issue 13: files left loose stayed loose
 * until the command that wrote them ran again), and each change is said on stderr.
 *
 * `sweep: false` (`mcpx ls` and `search`, which must cost about one Node start: the sweep's
 * lstat of every file was a twentieth of a search, issue 14) makes the directory private but
 * leaves what is in it to the next process that sweeps (any other mcpx command, the daemon);
 * later calls in this process do not sweep either. Those commands write only 0600 files, and
 * nobody else can enter the directory once it is 0700, which is checked here every time.
 */
export function ensurePrivateDir(dir: string, say: Say = onStderr, options: { sweep?: boolean } = {}): string {
  let stats: Stats;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    stats = statSync(dir);
  } catch (error) {
    throw new GatewayError("STORE_UNAVAILABLE", `cannot use the state directory ${dir}: ${(error as Error).message}`);
  }
  refuseIfNotOurs(dir, stats, "the state directory");
  tighten(dir, stats, 0o700, "the state directory");
  const key = resolve(dir);
  if (!swept.has(key)) {
    swept.add(key);
    if (options.sweep !== false) sweep(dir, say);
  }
  return dir;
}

/**
 * Everything of ours under `dir` made private: folders 0700, files 0600; a credential others
 * could read replaced. Symbolic links are not followed and another user's entries are left to
 * the refusal when mcpx uses them.
 */
function sweep(dir: string, say: Say): void {
  const tightened: string[] = [];
  let budget = SWEEP_ENTRIES;
  const visit = (folder: string, depth: number): void => {
    let names: string[];
    try {
      names = readdirSync(folder);
    } catch {
      return; // gone, or unreadable: nothing of it is used then
    }
    for (const name of names) {
      if (--budget < 0) return;
      const path = join(folder, name);
      let stats: Stats;
      try {
        stats = lstatSync(path);
      } catch {
        continue;
      }
      if (!isOurs(stats) || stats.isSymbolicLink()) continue;
      if (stats.isDirectory()) {
        if (loose(stats) && chmodQuietly(path, 0o700)) tightened.push(`${relative(dir, path)} (${octal(stats)})`);
        if (depth < SWEEP_DEPTH) visit(path, depth + 1);
      } else if (stats.isFile() && loose(stats)) {
        if (folder === dir && CREDENTIAL_FILES.has(name)) retireLeaked(path, say);
        else if (chmodQuietly(path, 0o600)) tightened.push(`${relative(dir, path)} (${octal(stats)})`);
      }
    }
  };
  visit(dir, 1);
  if (tightened.length === 0) return;
  const named = tightened.slice(0, NAMED_IN_A_LINE).join(", ");
  const more = tightened.length > NAMED_IN_A_LINE ? ` and ${tightened.length - NAMED_IN_A_LINE} more` : "";
  say(
    `made ${tightened.length === 1 ? "1 entry" : `${tightened.length} entries`} of the state directory ${dir} private (only you may read them now): ${named}${more}`,
  );
}

/**
 * A credential file of ours that others could read or write may have leaked: it is removed,
 * and a new one is made where it is next needed (`token.ts`: created whole, first one wins).
 * Said on stderr.
 */
export function replaceIfLeaked(path: string, say: Say = onStderr): void {
  let stats: Stats;
  try {
    stats = lstatSync(path);
  } catch {
    return; // not there yet
  }
  if (isOurs(stats) && stats.isFile() && loose(stats)) retireLeaked(path, say);
}

function retireLeaked(path: string, say: Say): void {
  // Under a lock, and checked again under it: processes starting together decide on what they
  // saw a moment ago, and the fresh credential another one just made must never be retired.
  withLock(`${path}.replacing`, () => {
    let stats: Stats;
    try {
      stats = lstatSync(path);
    } catch {
      return; // already retired
    }
    if (!isOurs(stats) || !stats.isFile() || !loose(stats)) return;
    rmSync(path, { force: true });
    say(
      `${path} was open to other users (mode ${octal(stats)}), so it may have leaked: it is replaced with a new one. ` +
        "A running mcpx serve or ui keeps the old one until it restarts.",
    );
  });
}

/** How long to wait for another process's lock, and when one is left by a process that died. */
const LOCK_WAIT_MS = 5_000;
const LOCK_STEP_MS = 10;

/** Run `work` holding a lock directory (mkdir is atomic); a lock older than the wait is taken over. */
function withLock(lock: string, work: () => void): void {
  const until = Date.now() + LOCK_WAIT_MS;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      mkdirSync(lock, { mode: 0o700 });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      if (Date.now() > until) {
        rmSync(lock, { recursive: true, force: true });
        continue;
      }
      Atomics.wait(pause, 0, 0, LOCK_STEP_MS);
    }
  }
  try {
    work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function isOurs(stats: Stats): boolean {
  const uid = process.getuid?.();
  return uid === undefined || stats.uid === uid;
}

function loose(stats: Stats): boolean {
  return (stats.mode & 0o077) !== 0;
}

function octal(stats: Stats): string {
  return (stats.mode & 0o777).toString(8).padStart(4, "0");
}

function chmodQuietly(path: string, mode: number): boolean {
  try {
    chmodSync(path, mode);
    return true;
  } catch {
    return false; // what mcpx uses is checked again, with a clear error, when it is opened
  }
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

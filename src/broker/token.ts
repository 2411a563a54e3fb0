/**
 * Secrets kept in the state dir (0600), created on first use and shared by every mcpx process
 * of the user: the API token that guards REST and the web page, and the key that signs the
 * `requestState` of modern hosts' multi round-trip calls.
 */
import { randomBytes } from "node:crypto";
import { linkSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensurePrivateDir, ensurePrivateFile, REQUEST_STATE_KEY_FILE, replaceIfLeaked, TOKEN_FILE } from "./state-dir.js";

export { REQUEST_STATE_KEY_FILE, TOKEN_FILE };

export function apiToken(dir: string): string {
  return privateSecret(dir, TOKEN_FILE);
}

/** 32 random bytes, hex: the HMAC key for `requestState`, shared by the user's mcpx processes. */
export function requestStateKey(dir: string): Buffer {
  return Buffer.from(requestStateSecret(dir), "hex");
}

/** The same key as its file holds it (hex): what the store's `secrets.get("request-state-key")` answers. */
export function requestStateSecret(dir: string): string {
  return privateSecret(dir, REQUEST_STATE_KEY_FILE);
}

/** A secret kept in `file` of the state dir (0600), created on first use. */
export function privateSecret(dir: string, file: string): string {
  ensurePrivateDir(dir);
  const path = join(dir, file);
  // One left readable by others may have leaked: it is replaced (and the person told why). One
  // another user owns is refused, since that user could know it.
  replaceIfLeaked(path);
  ensurePrivateFile(path);
  const existing = readToken(path);
  if (existing) return existing;
  // Written whole to a temp file, then linked into place: the link fails when another process
  // got there first, and no process ever reads a half-written (empty) token.
  const token = randomBytes(32).toString("hex");
  const temp = `${path}.${process.pid}.${randomBytes(4).toString("hex")}`;
  writeFileSync(temp, `${token}\n`, { mode: 0o600, flag: "wx" });
  try {
    linkSync(temp, path);
    return token;
  } catch {
    // Another process created it first: use theirs. A damaged one (empty, truncated) is replaced.
    const theirs = readToken(path);
    if (theirs) return theirs;
    renameSync(temp, path);
    return readToken(path) ?? token;
  } finally {
    rmSync(temp, { force: true });
  }
}

function readToken(path: string): string | undefined {
  try {
    const token = readFileSync(path, "utf8").trim();
    return token.length >= 32 ? token : undefined;
  } catch {
    return undefined; // not there yet
  }
}

/**
 * The API token that guards REST and the web page: random, kept in the state dir (0600),
 * created on first use and shared by every mcpx process of the user.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensurePrivateDir } from "./state-dir.js";

export const TOKEN_FILE = "api-token";

export function apiToken(dir: string): string {
  ensurePrivateDir(dir);
  const path = join(dir, TOKEN_FILE);
  try {
    const existing = readFileSync(path, "utf8").trim();
    if (existing.length >= 32) return existing;
  } catch {
    // not there yet
  }
  const token = randomBytes(32).toString("hex");
  try {
    writeFileSync(path, token + "\n", { mode: 0o600, flag: "wx" });
    return token;
  } catch {
    // Another process created it first: use theirs.
    return readFileSync(path, "utf8").trim();
  }
}

export function tokenMatches(expected: string, given: string | undefined): boolean {
  if (!given) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

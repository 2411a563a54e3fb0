/**
 * Where the schema cache lives in the state directory, and how its files are written: private
 * (dirs 0700, files 0600) and atomically (a temporary file renamed over the old one), so a
 * reader in another process sees the old entry or the new one, never half of one.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The cache's folder under the state directory. */
export const CACHE_FOLDER = "discovery";

export function entriesDir(stateDir: string): string {
  return join(stateDir, CACHE_FOLDER, "entries");
}

export function indexesDir(stateDir: string): string {
  return join(stateDir, CACHE_FOLDER, "indexes");
}

/** Where `catalog`'s counted lines are kept (cache-catalog.ts). */
export function catalogsDir(stateDir: string): string {
  return join(stateDir, CACHE_FOLDER, "catalogs");
}

export function entryFile(stateDir: string, key: string): string {
  return join(entriesDir(stateDir), `${key}.json`);
}

/** Temporary files this process made: with the pid and the time, a name no other writer uses (and `wx` refuses one that exists). */
let written = 0;

/** Write `text` to `file` whole or not at all, readable by the user only. */
export function writePrivateAtomically(file: string, text: string): void {
  const dir = file.slice(0, file.lastIndexOf("/"));
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.${Date.now()}.${++written}.tmp`;
  try {
    writeFileSync(temporary, text, { mode: 0o600, flag: "wx" });
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/** The parsed JSON of a file, or undefined when it is missing or unreadable (a cache miss, not an error). */
export function readJsonFile(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Bound a folder of JSON files: past `max`, the ones written longest ago are removed. */
export function keepNewest(dir: string, max: number): void {
  const names = readdirSync(dir).filter((name) => name.endsWith(".json"));
  if (names.length <= max) return;
  const byAge = names.map((name) => ({ name, mtime: statSync(join(dir, name)).mtimeMs })).sort((a, b) => a.mtime - b.mtime);
  for (const { name } of byAge.slice(0, names.length - max)) rmSync(join(dir, name), { force: true });
}

/**
 * What a `mcpx search` found true, kept for the next one: with the config kept under this key
 * (hot-config.ts: its file's stat and this build) and the schema cache at this generation, the
 * servers' view is the same, so the search index made for this key is current, and these are
 * when each server was read. A search that finds its stamp true reads neither the config, nor
 * the summary, nor the servers' views, and compares the index's key as text: those cost it
 * about a tenth of its time (issue 14).
 *
 * Stamped only when nothing but those decides the answer: the config is kept (no `${…}`, no
 * secret in it, hot-config.ts), and no server is never read (a search would read it, or the
 * shared store would be asked). Anything else changed (the config file, an entry written, a new
 * build) makes the stamp false, and the search goes the whole way and stamps again.
 */
import { join } from "node:path";
import { CACHE_FOLDER, keepNewest, readJsonFile, writePrivateAtomically } from "../discovery/cache-files.js";
import { currentGeneration } from "../discovery/cache-summary.js";
import { fastHash } from "../discovery/hash.js";

/** Bumped when a stamp's shape or meaning changes. */
const STAMP_VERSION = 1;
/** Stamps kept at most (one per config file used). */
export const MAX_STAMPS = 50;

export interface SearchStamp {
  version: typeof STAMP_VERSION;
  /** The key the config is kept under (hot-config.ts). */
  config: string;
  /** The schema cache's generation (cache-summary.ts). */
  generation: string;
  /** The config as named in it (`config.file`): its search index is kept under it. */
  configFile: string;
  /** The servers' view's `indexKey`: the index made for it. */
  indexKey: string;
  /** Each server's last good read (ISO 8601), or null. */
  readAt: Record<string, string | null>;
  /** What checking the config warned of, said again each run. */
  warnings: string[];
}

export function stampsDir(stateDir: string): string {
  return join(stateDir, CACHE_FOLDER, "stamps");
}

function stampFile(stateDir: string, resolvedConfig: string): string {
  return join(stampsDir(stateDir), `${fastHash(resolvedConfig)}.json`);
}

/** The stamp of the config file `resolvedConfig`, when it is true now for a config kept under `configKey`; else undefined. */
export function readStamp(stateDir: string, resolvedConfig: string, configKey: string): SearchStamp | undefined {
  const stamp = readJsonFile(stampFile(stateDir, resolvedConfig));
  if (!isStamp(stamp) || stamp.config !== configKey) return undefined;
  return stamp.generation === currentGeneration(stateDir) ? stamp : undefined;
}

/** Keep it for the next search. Not kept (a full disk, say): the next search goes the whole way, which is slower, never wrong. */
export function writeStamp(stateDir: string, resolvedConfig: string, stamp: Omit<SearchStamp, "version">): void {
  try {
    writePrivateAtomically(stampFile(stateDir, resolvedConfig), JSON.stringify({ version: STAMP_VERSION, ...stamp }));
    keepNewest(stampsDir(stateDir), MAX_STAMPS);
  } catch {
    // said above
  }
}

function isStamp(value: unknown): value is SearchStamp {
  if (typeof value !== "object" || value === null) return false;
  const stamp = value as Partial<SearchStamp>;
  return (
    stamp.version === STAMP_VERSION &&
    typeof stamp.config === "string" &&
    typeof stamp.generation === "string" &&
    typeof stamp.configFile === "string" &&
    typeof stamp.indexKey === "string" &&
    typeof stamp.readAt === "object" &&
    stamp.readAt !== null &&
    Array.isArray(stamp.warnings) &&
    stamp.warnings.every((warning) => typeof warning === "string")
  );
}

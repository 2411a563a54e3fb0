/**
 * The config of `mcpx ls` and `mcpx search`, kept checked in the state directory: reading,
 * parsing and checking seventy servers' config cost a search a sixth of its time (issue 14), and
 * most runs read the same file as the run before. A config is kept only when nothing but its own
 * text, its place and this build decide what it checks to:
 *
 * - no `${…}` in it (no variable, no host's reference, so no value from the environment, the
 *   working directory or a prompt) and no `envFile` (no other file read): so nothing but the
 *   file's own text is ever stored, and no secret of the environment lands on disk;
 * - it checked without an error (an error is said each time, from the file);
 * - it holds no secret written in it (mayHoldSecret): no copy of one is made.
 *
 * It is used when its key is the same: the file as named and as resolved (messages name it as
 * named, relative paths in it resolve from its folder), the file's device, inode, size, and
 * modification and change times in nanoseconds (taken before the text is read, so an edit after
 * it leaves the key stale, never the config), and this build (the size and time of the
 * `main.cjs` the build writes, else of the module that runs: a new build checks again). A file
 * changed less than SETTLED_MS before it was read is not kept: another edit within its file
 * system's time resolution would not change the key.
 */
import { statSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { ensurePrivateDir, stateDir } from "../broker/state-dir.js";
import { findConfigPath } from "../config/config-path.js";
import type { Config } from "../config/types.js";
import type { CheckedConfig } from "../config/validate.js";
import { CACHE_FOLDER, keepNewest, readJsonFile, writePrivateAtomically } from "../discovery/cache-files.js";
import { fastHash } from "../discovery/hash.js";

/** Bumped when what is kept changes shape. */
const KEPT_VERSION = 1;
/** Configs kept at most (one per config file used); past that, the ones written longest ago go. */
export const MAX_KEPT_CONFIGS = 50;
/** The coarsest file times in use (FAT's 2 s; Linux's are a few milliseconds apart). */
export const SETTLED_MS = 2_000;

interface Kept {
  version: typeof KEPT_VERSION;
  key: string;
  checked: CheckedConfig;
}

/**
 * The hot commands' state directory, made private but not swept: that is left to the other
 * commands (broker/state-dir.ts says why). The hot commands write only 0600 files into it.
 */
export function hotStateDir(): string {
  return ensurePrivateDir(stateDir(), undefined, { sweep: false });
}

export function keptConfigsDir(stateDir: string): string {
  return join(stateDir, CACHE_FOLDER, "configs");
}

/** The config `--config explicit` names, from what is kept in `stateDir` when it is current; else read, checked, and kept when it may be. */
export async function hotConfig(explicit: string | undefined, stateDir: string, now: () => number = Date.now): Promise<Config> {
  return (await hotConfigKept(explicit, stateDir, now)).config;
}

/** A config as the hot commands take it, and the key it is kept under (undefined when it may not be kept: it is checked every run). */
export interface HotConfig {
  config: Config;
  /** The config file, resolved. */
  resolved: string;
  keptAs: string | undefined;
  /** What checking it warned of (said on stderr already). */
  warnings: readonly string[];
}

/**
 * hotConfig, saying whether the config is kept, and under what key: what a later run may take as
 * the same config (search-stamp.ts). `identity`: the file's, when the caller has it already.
 */
export async function hotConfigKept(
  explicit: string | undefined,
  stateDir: string,
  now: () => number = Date.now,
  identity: ConfigIdentity = configIdentity(explicit),
): Promise<HotConfig> {
  const { file, resolved, key } = identity;
  const stored = keptConfigFile(stateDir, resolved);
  const kept = key ? readJsonFile(stored) : undefined;
  if (isKept(kept) && kept.key === key?.text) {
    for (const warning of kept.checked.warnings) process.stderr.write(`mcpx: warning: ${warning}\n`);
    return { config: kept.checked.config, resolved, keptAs: kept.key, warnings: kept.checked.warnings };
  }
  // the readers and checkers load only now: a kept config needs none of them
  const [{ configFrom }, { readConfigText }, { checkConfigText }] = await Promise.all([
    import("./context.js"),
    import("../config/document.js"),
    import("../config/read-config.js"),
  ]);
  let text = "";
  let checked: CheckedConfig | undefined;
  const config = await configFrom(
    async () => {
      text = readConfigText(file);
      checked = await checkConfigText(text, file);
      return checked;
    },
    { rules: false },
  );
  const keepIt = key && checked && keepable(text) && !mayHoldSecret(checked.config) && now() - key.changedMs >= SETTLED_MS;
  const keptAs = keepIt && checked && keep(stored, { version: KEPT_VERSION, key: key.text, checked }) ? key.text : undefined;
  return { config, resolved, keptAs, warnings: checked?.warnings ?? [] };
}

/** The config file as named and resolved, and the key a config kept for it must have (undefined when the file cannot be looked at). */
export interface ConfigIdentity {
  file: string;
  resolved: string;
  key: { text: string; changedMs: number } | undefined;
}

/** The identity of the config file `--config explicit` names. */
export function configIdentity(explicit: string | undefined): ConfigIdentity {
  const file = findConfigPath(explicit);
  const resolved = resolve(file);
  return { file, resolved, key: configKey(file, resolved) };
}

function keptConfigFile(stateDir: string, resolved: string): string {
  return join(keptConfigsDir(stateDir), `${fastHash(resolved)}.json`);
}

/** Words that name a credential, in a key or an argument. */
const CREDENTIAL = /secret|token|passw|passphrase|credential|api[-_]?key|private[-_]?key|bearer|cookie|auth/i;

/**
 * Whether the checked config may hold a secret written in it: a server's env or header value, a
 * URL's user info or query, a value under a key or an argument that names a credential. Such a
 * config is checked every time, never copied: a secret stays in the one file its owner knows of,
 * and goes from disk when they take it out of that file.
 */
export function mayHoldSecret(value: unknown, key = ""): boolean {
  if (typeof value === "string") {
    if (CREDENTIAL.test(key) || (key === "args" && CREDENTIAL.test(value))) return true;
    return /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(value) || (/^[a-z][a-z0-9+.-]*:\/\//i.test(value) && value.includes("?"));
  }
  if (Array.isArray(value)) return value.some((item) => mayHoldSecret(item, key));
  if (typeof value !== "object" || value === null) return false;
  const entries = Object.entries(value);
  if ((key === "env" || key === "headers") && entries.length > 0) return true;
  return entries.some(([name, inner]) => mayHoldSecret(inner, name));
}

/** Only a text that reads nothing else: no `${…}` reference, no envFile. */
export function keepable(text: string): boolean {
  return !text.includes("${") && !text.includes("envFile");
}

/** What a kept config must have been made for; undefined when the file cannot be looked at (then it is read, and says why). */
function configKey(file: string, resolved: string): { text: string; changedMs: number } | undefined {
  const stats = statSync(resolved, { bigint: true, throwIfNoEntry: false });
  const code = build();
  if (!stats || code === undefined) return undefined;
  const text = JSON.stringify([file, resolved, ...[stats.dev, stats.ino, stats.size, stats.mtimeNs, stats.ctimeNs].map(String), code]);
  return { text, changedMs: Math.max(Number(stats.mtimeNs / 1_000_000n), Number(stats.ctimeNs / 1_000_000n)) };
}

/**
 * This build: the size and time of `main.cjs`, which the build writes beside the hot scripts
 * (every hot command, whichever script runs it, keys on the same file: keyed on its own script,
 * `types` and `ls` each found the other's kept config stale and checked the file again); without
 * it (tsc's modules, the tests' sources), the module that runs. Undefined when it cannot be told.
 */
function build(): string | undefined {
  const entry = statSync(new URL("./main.cjs", import.meta.url), { bigint: true, throwIfNoEntry: false });
  const stats = entry ?? statSync(fileURLToPath(import.meta.url), { bigint: true, throwIfNoEntry: false });
  return stats ? `${stats.size}:${stats.mtimeNs}` : undefined;
}

function isKept(value: unknown): value is Kept {
  if (typeof value !== "object" || value === null) return false;
  const kept = value as Partial<Kept>;
  return kept.version === KEPT_VERSION && typeof kept.key === "string" && typeof kept.checked?.config === "object" && Array.isArray(kept.checked?.warnings);
}

/** Whether it is kept. */
function keep(file: string, kept: Kept): boolean {
  const text = JSON.stringify(kept);
  // only what JSON gives back as it was (a config is plain data; this keeps it so)
  if (!isDeepStrictEqual(JSON.parse(text), kept)) return false;
  try {
    writePrivateAtomically(file, text);
    keepNewest(file.slice(0, file.lastIndexOf("/")), MAX_KEPT_CONFIGS);
    return true;
  } catch {
    // not kept: the next run checks the file again, which is slower, never wrong
    return false;
  }
}

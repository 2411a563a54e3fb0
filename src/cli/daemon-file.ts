/**
 * The discovery file of the mcpx process that serves commands for one config: a `mcpx daemon`,
 * or a `mcpx serve --http` on loopback. It lives in the state directory (0600, as everything
 * there), one per config file, and says where the process listens and the credential its
 * routes need. Light on purpose: a warm `mcpx call` reads it and sends one request.
 */
import { closeSync, fstatSync, openSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, type BigIntStats } from "node:fs";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { processAlive } from "../util/process.js";
import { IMPLEMENTATION } from "../version.js";

export interface DaemonRecord {
  /** `daemon`: started for commands, exits when idle. `serve`: a person's `mcpx serve --http`. */
  kind: "daemon" | "serve";
  pid: number;
  port: number;
  /** The bearer token its `/v1/daemon` routes take (random, made by that process). */
  credential: string;
  configFile: string;
  /** sha256 of the config file's bytes when it was read. */
  configHash: string;
  /**
   * The config file's stat (device, inode, size, mtime and ctime in ns) when those bytes were
   * read, written only once the file had been left alone for QUIET_MS: a command whose stat of
   * the file is the same knows the content is, without hashing it (configSeen says why).
   */
  configStat?: string;
  version: string;
  startedAt: string;
}

/** Why a recorded process cannot serve this command: it is gone, runs another config, or another mcpx. */
export type Staleness = "gone" | "config changed" | "other version";

/** The files of one config's daemon: discovery, its start lock and its log. */
export interface DaemonPaths {
  file: string;
  lock: string;
  log: string;
}

/**
 * `<key>` is FNV-1a (64 bits) of the config file's absolute path: a name, not a secret, so no
 * cryptographic hash (loading node:crypto costs a warm `mcpx call` a fifth of Node's start).
 */
export function daemonPaths(stateDir: string, configFile: string): DaemonPaths {
  const base = join(stateDir, `daemon-${fnv1a64(resolve(configFile))}`);
  return { file: `${base}.json`, lock: `${base}.lock`, log: `${base}.log` };
}

const FNV_PRIME = 0x100000001b3n;

/** FNV-1a over the UTF-16 code units, 16 hex digits. */
function fnv1a64(text: string): string {
  let hash = 0xcbf29ce484222325n;
  for (let at = 0; at < text.length; at++) hash = BigInt.asUintN(64, (hash ^ BigInt(text.charCodeAt(at))) * FNV_PRIME);
  return hash.toString(16).padStart(16, "0");
}

/** node:crypto, loaded only where a hash or a secret is made: a warm call that finds the config unchanged by its stat needs neither. */
function nodeCrypto(): typeof import("node:crypto") {
  return createRequire(import.meta.url)("node:crypto") as typeof import("node:crypto");
}

function sha256(bytes: Buffer): string {
  return nodeCrypto().createHash("sha256").update(bytes).digest("hex");
}

/** The hash that says a daemon runs this very config; undefined when the file cannot be read. */
export function configHash(configFile: string): string | undefined {
  try {
    return sha256(readFileSync(configFile));
  } catch {
    return undefined;
  }
}

/**
 * How long a config file must have been left alone before its stat may stand for its content.
 * A write sets the file's ctime to the clock's time rounded down to the file system's
 * granularity (a few ms on ext4, 2 s on FAT): a file whose ctime was this old when its bytes
 * were read cannot be written again with that ctime (the granularity, and a second for clocks).
 */
export const QUIET_MS = 3_000;

/**
 * What a daemon records of the config it runs: the hash of the bytes read, and the file's stat
 * when the file had not changed for QUIET_MS before they were read and did not change while they
 * were (its stat the same before and after). Any later write then gives the file another ctime,
 * so a command that finds the same stat knows the bytes are the same (git's "racily clean"
 * rule, for the same reason: a write within the same clock tick as the read could otherwise
 * leave size and times as they were). Undefined when the file cannot be read.
 */
export function configSeen(configFile: string, now = Date.now()): { hash: string; stat?: string } | undefined {
  let fd: number;
  try {
    fd = openSync(configFile, "r");
  } catch {
    return undefined;
  }
  try {
    const before = fstatSync(fd, { bigint: true });
    const hash = sha256(readFileSync(fd));
    const stat = fingerprint(before);
    const quiet = stat === fingerprint(fstatSync(fd, { bigint: true })) && before.ctimeNs / 1_000_000n <= BigInt(now - QUIET_MS);
    return quiet ? { hash, stat } : { hash };
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

function fingerprint(stat: BigIntStats): string {
  return `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`;
}

/** Is the config file what `record`'s daemon read? By its stat when the record has one that can stand for the bytes, else by their hash. */
export function sameConfig(record: Pick<DaemonRecord, "configHash" | "configStat">, configFile: string): boolean {
  if (record.configStat !== undefined) {
    const now = statSync(configFile, { bigint: true, throwIfNoEntry: false });
    if (now && fingerprint(now) === record.configStat) return true;
  }
  return configHash(configFile) === record.configHash;
}

export function newCredential(): string {
  return nodeCrypto().randomBytes(32).toString("hex");
}

/** The record, or undefined when there is none or it is not one (a torn or foreign file). */
export function readDaemonRecord(file: string): DaemonRecord | undefined {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, "utf8"));
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  const record = value as Partial<DaemonRecord>;
  const valid =
    (record.kind === "daemon" || record.kind === "serve") &&
    Number.isInteger(record.pid) &&
    Number.isInteger(record.port) &&
    typeof record.credential === "string" &&
    record.credential.length >= 32 &&
    typeof record.configFile === "string" &&
    typeof record.configHash === "string" &&
    (record.configStat === undefined || typeof record.configStat === "string") &&
    typeof record.version === "string" &&
    typeof record.startedAt === "string";
  return valid ? (record as DaemonRecord) : undefined;
}

/** Written whole (a private temp file renamed into place): a reader never sees half a record. */
export function writeDaemonRecord(file: string, record: DaemonRecord): void {
  const temp = `${file}.${process.pid}.${nodeCrypto().randomBytes(4).toString("hex")}`;
  writeFileSync(temp, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600, flag: "wx" });
  renameSync(temp, file);
}

/** Remove the record if it is still this process's (a successor's is left alone). */
export function removeOwnRecord(file: string, pid = process.pid): void {
  if (readDaemonRecord(file)?.pid === pid) rmSync(file, { force: true });
}

/**
 * This mcpx: its version and when its build was made, so a daemon left from before a rebuild
 * or an upgrade is replaced rather than asked to run code that is no longer on disk.
 */
export function buildVersion(): string {
  let built = "";
  try {
    built = `+${Math.trunc(statSync(new URL("./main.js", import.meta.url)).mtimeMs)}`;
  } catch {
    // not built the usual way (tests run the sources): the version alone
  }
  return `${IMPLEMENTATION.version}${built}`;
}

/** Why `record` cannot serve a command for `configFile`; undefined when it can. */
export function staleness(record: DaemonRecord, configFile: string): Staleness | undefined {
  if (!processAlive(record.pid)) return "gone";
  if (record.version !== buildVersion()) return "other version";
  if (!sameConfig(record, configFile)) return "config changed";
  return undefined;
}

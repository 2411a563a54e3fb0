/**
 * The discovery file of the mcpx process that serves commands for one config: a `mcpx daemon`,
 * or a `mcpx serve --http` on loopback. It lives in the state directory (0600, as everything
 * there), one per config file, and says where the process listens and the credential its
 * routes need. Light on purpose: a warm `mcpx call` reads it and sends one request.
 */
import { createHash, randomBytes } from "node:crypto";
import { readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
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

export function daemonPaths(stateDir: string, configFile: string): DaemonPaths {
  const key = createHash("sha256").update(resolve(configFile)).digest("hex").slice(0, 16);
  const base = join(stateDir, `daemon-${key}`);
  return { file: `${base}.json`, lock: `${base}.lock`, log: `${base}.log` };
}

/** The hash that says a daemon runs this very config; undefined when the file cannot be read. */
export function configHash(configFile: string): string | undefined {
  try {
    return createHash("sha256").update(readFileSync(configFile)).digest("hex");
  } catch {
    return undefined;
  }
}

export function newCredential(): string {
  return randomBytes(32).toString("hex");
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
    typeof record.version === "string" &&
    typeof record.startedAt === "string";
  return valid ? (record as DaemonRecord) : undefined;
}

/** Written whole (a private temp file renamed into place): a reader never sees half a record. */
export function writeDaemonRecord(file: string, record: DaemonRecord): void {
  const temp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
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

/** Why `record` cannot serve a command for the config whose content hashes to `hash`; undefined when it can. */
export function staleness(record: DaemonRecord, hash: string | undefined): Staleness | undefined {
  if (!processAlive(record.pid)) return "gone";
  if (record.version !== buildVersion()) return "other version";
  if (hash === undefined || record.configHash !== hash) return "config changed";
  return undefined;
}

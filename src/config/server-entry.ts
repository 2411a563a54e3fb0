/**
 * One entry of `mcpServers`: a local process (`command`) or a remote endpoint (`url`), with the
 * keys of the hosts whose files mcpx reads as they are (Claude Desktop's `type`, Cline's
 * `transportType` and `timeout`, Cursor's and VS Code's `envFile`, Windsurf's `serverUrl`).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { REVISIONS } from "../protocol/revisions.js";
import { type Checker, type Fields, POSITIVE } from "./check.js";
import { parseDotenv } from "./dotenv.js";
import { type HostName, HOST_SERVER_KEYS, HOST_SERVER_READS, timeoutSeconds } from "./host-formats.js";
import type { KeyPath } from "./keypath.js";
import { readOAuth } from "./oauth-entry.js";
import { SERVER_KEYS } from "./server-keys.js";
import { readRoots } from "./roots.js";
import { HOST_TOOL_LISTS, readToolFilter } from "./tool-filter.js";
import type { ProtocolChoice, ServerConfig, Sharing, TransportChoice } from "./types.js";

// Keys that mean nothing for the other kind of server; accepting them silently hides mistakes.
const STDIO_ONLY = ["args", "env", "envFile", "cwd"];
const HTTP_ONLY = ["headers", "transport", "oauth"];

const TYPES = ["stdio", "http", "streamable-http", "sse"] as const;
const TRANSPORTS: readonly TransportChoice[] = ["auto", "streamable-http", "sse"];
const PROTOCOLS: readonly ProtocolChoice[] = ["auto", ...REVISIONS];
const SHARING: readonly Sharing[] = ["shared", "per-host"];

/** Server names become tool-name prefixes joined by `__`, so they must split back cleanly. */
export function checkName(check: Checker, name: string, at: KeyPath): void {
  const bad = (why: string) => check.fail(at, `is not a valid server name: ${why}`);
  if (name === "") bad("it is empty");
  else if (!/^[A-Za-z0-9_-]+$/.test(name)) bad('use only letters, digits, "_" and "-"');
  else if (name.includes("__")) bad('"__" is reserved: mcpx joins server and tool names with it');
  else if (name.endsWith("_")) bad('it must not end with "_", which would blur the "__" that follows it');
}

export function readServer(
  check: Checker,
  name: string,
  value: unknown,
  at: KeyPath,
  baseDir: string,
  defaultTimeout: number,
  host: HostName | undefined,
): ServerConfig | undefined {
  const f = check.fields(value, at, [...SERVER_KEYS, ...HOST_SERVER_READS, ...HOST_TOOL_LISTS.keys()], HOST_SERVER_KEYS);
  if (!f) return undefined;

  const command = f.string("command");
  if (f.has("url") && f.has("serverUrl")) check.fail(f.at, 'has both "url" and Windsurf\'s "serverUrl"; keep one');
  const url = f.read("url", (v, p) => readUrl(check, v, p)) ?? f.read("serverUrl", (v, p) => readUrl(check, v, p));
  const kind = serverKind(check, f);
  if (kind) {
    const foreign = kind === "stdio" ? HTTP_ONLY : STDIO_ONLY;
    const needs = kind === "stdio" ? '"url"' : '"command"';
    for (const key of foreign) if (f.has(key)) check.fail(f.path(key), `applies only to servers with a ${needs}`);
  }

  const elicitation = f.read("elicitation", (v, p) => {
    const e = check.fields(v, p, ["ttlSeconds"]);
    const ttlSeconds = e?.number("ttlSeconds", POSITIVE);
    return ttlSeconds === undefined ? {} : { ttlSeconds };
  });

  const roots = f.read("roots", (v, p) => readRoots(check, v, p, baseDir));
  const tools = readToolFilter(check, f);
  const oauth = f.read("oauth", (v, p) => readOAuth(check, v, p, baseDir));
  const server: ServerConfig = {
    name,
    kind: kind ?? "stdio",
    args: f.strings("args") ?? [],
    // Set variables win over the envFile's, as in the hosts that read envFile.
    env: { ...readEnvFile(check, f, baseDir), ...(f.stringMap("env") ?? {}) },
    cwd: path.resolve(baseDir, f.string("cwd") ?? "."),
    headers: f.stringMap("headers") ?? {},
    transport: transportOf(check, f),
    protocol: f.oneOf("protocol", PROTOCOLS) ?? "auto",
    passthrough: f.boolean("passthrough") ?? false,
    sharing: f.oneOf("sharing", SHARING) ?? "shared",
    timeoutSeconds: f.number("timeoutSeconds", POSITIVE) ?? hostTimeout(f, host) ?? defaultTimeout,
    disabled: f.boolean("disabled") ?? false,
    ...(f.boolean("required") ? { required: true } : {}),
    elicitation: elicitation ?? {},
    ...(roots ? { roots } : {}),
    ...(tools ? { tools } : {}),
    ...(oauth !== undefined ? { oauth } : {}),
  };
  if (command !== undefined) server.command = command;
  if (url !== undefined) server.url = url;
  return server;
}

/** `stdio` for `command`, `http` for `url`; exactly one must be present, and `type` must agree. */
function serverKind(check: Checker, f: Fields): ServerConfig["kind"] | undefined {
  const type = typeOf(f, (key) => f.oneOf(key, TYPES));
  const hasCommand = f.has("command");
  const hasUrl = f.has("url") || f.has("serverUrl");
  if (hasCommand && hasUrl) {
    return check.fail(f.at, 'has both "command" and "url"; a server is either a local process or a remote endpoint');
  }
  if (!hasCommand && !hasUrl) {
    return check.fail(f.at, 'needs either "command" (a local process) or "url" (a remote endpoint)');
  }
  const kind = hasCommand ? "stdio" : "http";
  if (type !== undefined && (type === "stdio") !== (kind === "stdio")) {
    check.fail(f.path(typeKey(f)), `is "${type}", which does not fit a server with ${hasCommand ? '"command"' : '"url"'}`);
  }
  return kind;
}

/** `transport` if given, else what the Claude-Desktop `type` implies, else `auto`. */
function transportOf(check: Checker, f: Fields): TransportChoice {
  const type = typeOf(f, (key) => (TYPES.includes(f.obj[key] as never) ? (f.obj[key] as (typeof TYPES)[number]) : undefined));
  const implied: TransportChoice | undefined = type === "sse" ? "sse" : type === "http" || type === "streamable-http" ? "streamable-http" : undefined;
  const explicit = f.oneOf("transport", TRANSPORTS);
  if (explicit !== undefined && implied !== undefined && explicit !== implied) {
    check.fail(f.path("transport"), `is "${explicit}", but "type" "${type}" means "${implied}"`);
  }
  return explicit ?? implied ?? "auto";
}

/** `type`, or the `transportType` older Cline files use instead. */
function typeKey(f: Fields): "type" | "transportType" {
  return !f.has("type") && f.has("transportType") ? "transportType" : "type";
}

/** The server's `type` read with `read`, Cline's "streamableHttp" taken as "streamable-http". */
function typeOf<T>(f: Fields, read: (key: "type" | "transportType") => T): T | "streamable-http" {
  const key = typeKey(f);
  return f.obj[key] === "streamableHttp" ? "streamable-http" : read(key);
}

/** A host's `timeout` (Claude Code: milliseconds; Cline: seconds), when `timeoutSeconds` is not set. */
function hostTimeout(f: Fields, host: HostName | undefined): number | undefined {
  const value = f.number("timeout", POSITIVE);
  return value === undefined ? undefined : timeoutSeconds(value, host);
}

/** Cursor's and VS Code's `envFile`: dotenv, relative to the config file's folder, read now. */
function readEnvFile(check: Checker, f: Fields, baseDir: string): Record<string, string> {
  const given = f.string("envFile");
  if (given === undefined) return {};
  const file = path.resolve(baseDir, given);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    check.fail(f.path("envFile"), `names ${file}, which cannot be read (${(err as NodeJS.ErrnoException).code ?? "error"})`);
    return {};
  }
  const { vars, bad } = parseDotenv(text);
  if (bad.length > 0) check.fail(f.path("envFile"), `names ${file}, whose line ${bad.join(", ")} is not NAME=value`);
  return vars;
}

/** An http:// or https:// URL. */
function readUrl(check: Checker, value: unknown, at: KeyPath): string | undefined {
  if (typeof value !== "string" || value === "") return check.fail(at, "must be a non-empty string");
  let protocol: string;
  try {
    protocol = new URL(value).protocol;
  } catch {
    return check.fail(at, `is not a valid URL (got ${JSON.stringify(value)})`);
  }
  if (protocol !== "http:" && protocol !== "https:") {
    return check.fail(at, `must be an http:// or https:// URL (got ${JSON.stringify(value)})`);
  }
  return value;
}

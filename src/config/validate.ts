/** Turns a parsed config document into the typed `Config`, checking every key on the way. */
import { readFileSync } from "node:fs";
import path from "node:path";
import { REVISIONS } from "../protocol/revisions.js";
import { Checker, type Fields, isObject } from "./check.js";
import { parseDotenv } from "./dotenv.js";
import type { Env } from "./env.js";
import {
  type HostName,
  HOST_SERVER_KEYS,
  HOST_SERVER_READS,
  HOST_TOP_KEYS,
  HOST_TOP_READS,
  fileStyle,
  hostReferences,
  ignoredWarning,
  type MissingInput,
  timeoutSeconds,
} from "./host-formats.js";
import { runsMcpx } from "./host-import.js";
import { substituteDocument } from "./host-substitute.js";
import type { KeyPath } from "./keypath.js";
import { orderedEntries } from "./ordered.js";
import { SERVER_KEYS } from "./server-keys.js";
import { readRoots } from "./roots.js";
import type { Config, ElicitationMode, ProtocolChoice, ServerConfig, Sharing, TransportChoice } from "./types.js";

/** The `file` of a config that came from no file at all. */
export const DEFAULTS_FILE = "<defaults>";

const TOP_KEYS = ["$schema", "mcpServers", "elicitation", "roots", "http", "limits"];
// Keys that mean nothing for the other kind of server; accepting them silently hides mistakes.
const STDIO_ONLY = ["args", "env", "envFile", "cwd"];
const HTTP_ONLY = ["headers", "transport"];

const TYPES = ["stdio", "http", "streamable-http", "sse"] as const;
const TRANSPORTS: readonly TransportChoice[] = ["auto", "streamable-http", "sse"];
const PROTOCOLS: readonly ProtocolChoice[] = ["auto", ...REVISIONS];
const MODES: readonly ElicitationMode[] = ["ask", "host", "auto", "decline", "error"];
const SHARING: readonly Sharing[] = ["shared", "per-host"];
const POSITIVE = { above: 0 };

/** A valid config, and what the person should hear about it once (ignored keys, servers left out). */
export interface CheckedConfig {
  config: Config;
  warnings: string[];
}

/**
 * Validates a parsed document (after `${VAR}` substitution from `env`) and fills in defaults.
 * Relative server `cwd`s resolve against the directory of `file`.
 * @param file the config's path as the person wrote it (used in messages), or `<defaults>`.
 * @throws ConfigError listing every problem, each naming `file` and the key path.
 */
export function configFromObject(raw: unknown, file: string, env: Env = process.env): Config {
  return checkConfig(raw, file, env).config;
}

/**
 * `configFromObject` with its warnings. A host's own file (see `fileStyle`) is never refused
 * for what the host put in it: unknown keys are ignored with one warning, and a server that
 * cannot run is left out with its reason; mcpx's own file refuses unknown keys.
 */
export function checkConfig(raw: unknown, file: string, env: Env = process.env): CheckedConfig {
  const fromFile = file !== DEFAULTS_FILE;
  const style = fileStyle(file, raw);
  const missingInputs: MissingInput[] = [];
  const inputs = isObject(raw) ? raw.inputs : undefined;
  const resolve = hostReferences(file, style, env, inputs, (missing) => missingInputs.push(missing));
  const { doc, leftOut } = substituteDocument(raw, env, file, resolve, style.hostFile);
  const check = new Checker(file, style.hostFile);
  const top = check.fields(doc, [], [...TOP_KEYS, ...HOST_TOP_READS], HOST_TOP_KEYS);

  const lim = top?.read("limits", (v, at) =>
    check.fields(v, at, [
      "maxMessageBytes",
      "maxUpstreamMessageBytes",
      "requestTimeoutSeconds",
      "startupTimeoutSeconds",
      "maxSessions",
      "sessionIdleSeconds",
      "maxToolsPerServer",
      "maxPendingQuestionsPerServer",
      "maxInputRounds",
    ]),
  );
  const limits: Config["limits"] = {
    maxMessageBytes: lim?.number("maxMessageBytes", { above: 0, integer: true }) ?? 4 * 1024 * 1024,
    // Upstream answers carry whole catalogues (10,000 tools is 4.5 MB) and file or image results
    // in base64: room for an order of magnitude more, still a bound on one message's memory.
    maxUpstreamMessageBytes: lim?.number("maxUpstreamMessageBytes", { above: 0, integer: true }) ?? 64 * 1024 * 1024,
    requestTimeoutSeconds: lim?.number("requestTimeoutSeconds", POSITIVE) ?? 120,
    startupTimeoutSeconds: lim?.number("startupTimeoutSeconds", POSITIVE) ?? 30,
    // Bounds against a runaway or hostile peer, far above what one person or a team's hosts use.
    maxSessions: lim?.number("maxSessions", { above: 0, integer: true }) ?? 100,
    sessionIdleSeconds: lim?.number("sessionIdleSeconds", POSITIVE) ?? 30 * 60,
    maxToolsPerServer: lim?.number("maxToolsPerServer", { above: 0, integer: true }) ?? 1000,
    maxPendingQuestionsPerServer: lim?.number("maxPendingQuestionsPerServer", { above: 0, integer: true }) ?? 32,
    // A person answers a handful of questions per call, and the 2.x SDK allows as many round trips: past it, someone is looping.
    maxInputRounds: lim?.number("maxInputRounds", { above: 0, integer: true }) ?? 8,
  };

  const eli = top?.read("elicitation", (v, at) => check.fields(v, at, ["ttlSeconds", "mode", "rules", "retentionDays"]));
  const elicitation: Config["elicitation"] = {
    ttlSeconds: eli?.number("ttlSeconds", POSITIVE) ?? 120,
    mode: eli?.oneOf("mode", MODES) ?? "ask",
    rules: eli?.array("rules") ?? [],
    retentionDays: eli?.number("retentionDays", POSITIVE) ?? 7,
  };

  const baseDir = fromFile ? path.dirname(path.resolve(file)) : process.cwd();
  const web = top?.read("http", (v, at) =>
    check.fields(v, at, ["host", "port", "allowedOrigins", "allowedHosts", "headersTimeoutSeconds", "bodyTimeoutSeconds", "auth"]),
  );
  const http: Config["http"] = {
    host: web?.string("host") ?? "127.0.0.1",
    port: web?.number("port", { min: 0, max: 65535, integer: true }) ?? 7777, // 0: any free port
    allowedOrigins: web?.strings("allowedOrigins") ?? [],
    allowedHosts: web?.strings("allowedHosts") ?? [],
    // Seconds, not Node's 60 s / 300 s: a local host sends a request in milliseconds.
    headersTimeoutSeconds: web?.number("headersTimeoutSeconds", POSITIVE) ?? 10,
    bodyTimeoutSeconds: web?.number("bodyTimeoutSeconds", POSITIVE) ?? 30,
  };
  const auth = web?.read("auth", (v, at) => readAuth(check, v, at, baseDir));
  if (auth) http.auth = auth;

  const roots = top?.read("roots", (v, at) => readRoots(check, v, at, baseDir));
  const servers: ServerConfig[] = [];
  const warnings: string[] = [];
  // VS Code calls it "servers"; with both, mcpServers is read.
  const serversKey = top?.has("mcpServers") || !top?.has("servers") ? "mcpServers" : "servers";
  if (serversKey === "mcpServers" && top?.has("servers")) {
    check.ignored.push({ path: "servers", reason: 'VS Code\'s name for "mcpServers", which this file has too (mcpServers is read)' });
  }
  top?.read("inputs", (v, at) => (Array.isArray(v) ? v : check.fail(at, "must be a list of VS Code inputs")));
  const entries = top?.read(serversKey, (v, at) => (isObject(v) ? v : check.fail(at, "must be an object")));
  for (const [name, value] of entries ? orderedEntries(entries) : []) {
    const at = [serversKey, name];
    const substitution = leftOut.get(name);
    if (substitution) {
      warnings.push(`${file}: left out server "${name}": ${substitution.join("; ")}`);
      continue;
    }
    // A host's file that mcpx was installed into lists mcpx itself: running it would recurse.
    if (style.hostFile && isObject(value) && runsMcpx(name, value)) {
      warnings.push(`${file}: left out server "${name}": it is mcpx itself (what mcpx install adds)`);
      continue;
    }
    // In a host's file one broken server must not take the others down with it.
    const serverCheck = style.hostFile ? check.child() : check;
    checkName(serverCheck, name, at);
    const server = readServer(serverCheck, name, value, at, baseDir, limits.requestTimeoutSeconds, style.host);
    const problems = style.hostFile ? serverCheck.take() : [];
    if (problems.length > 0) warnings.push(`${file}: left out server "${name}": ${problems.join("; ")}`);
    else if (server) servers.push(server);
  }
  for (const missing of missingInputs) {
    const server = servers.find((s) => s.name === missing.server);
    const what = `uses \${input:${missing.id}}${missing.description ? ` (${JSON.stringify(missing.description)})` : ""}, which VS Code prompts for and mcpx cannot`;
    if (missing.at[0] !== serversKey) check.fail(missing.at, `${what}; set ${missing.envName} to supply it`);
    else if (server) {
      server.disabled = true;
      warnings.push(`${file}: server "${server.name}" is disabled: it ${what}; set ${missing.envName} to supply it`);
    }
  }

  check.finish();
  const ignored = ignoredWarning(file, check.ignored);
  const config: Config = { file: fromFile ? path.resolve(file) : DEFAULTS_FILE, servers, elicitation, ...(roots ? { roots } : {}), http, limits };
  return { config, warnings: [...(ignored ? [ignored] : []), ...new Set(warnings)] };
}

/** The configuration used when there is no file: no servers, every default. */
export function defaultConfig(): Config {
  return configFromObject({}, DEFAULTS_FILE, {});
}

/** Server names become tool-name prefixes joined by `__`, so they must split back cleanly. */
function checkName(check: Checker, name: string, at: KeyPath): void {
  const bad = (why: string) => check.fail(at, `is not a valid server name: ${why}`);
  if (name === "") bad("it is empty");
  else if (!/^[A-Za-z0-9_-]+$/.test(name)) bad('use only letters, digits, "_" and "-"');
  else if (name.includes("__")) bad('"__" is reserved: mcpx joins server and tool names with it');
  else if (name.endsWith("_")) bad('it must not end with "_", which would blur the "__" that follows it');
}

function readServer(
  check: Checker,
  name: string,
  value: unknown,
  at: KeyPath,
  baseDir: string,
  defaultTimeout: number,
  host: HostName | undefined,
): ServerConfig | undefined {
  const f = check.fields(value, at, [...SERVER_KEYS, ...HOST_SERVER_READS], HOST_SERVER_KEYS);
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
    elicitation: elicitation ?? {},
    ...(roots ? { roots } : {}),
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

/** `http.auth`: exactly one of `token` and `tokenFile` (relative to the config's directory). */
function readAuth(check: Checker, value: unknown, at: KeyPath, baseDir: string): Config["http"]["auth"] {
  const f = check.fields(value, at, ["token", "tokenFile"]);
  if (!f) return undefined;
  const token = f.string("token");
  const tokenFile = f.string("tokenFile");
  if (f.has("token") === f.has("tokenFile")) {
    return check.fail(at, 'needs exactly one of "token" (e.g. "${MCPX_TOKEN}") and "tokenFile" (a file only you can read)');
  }
  if (token !== undefined) return { token };
  if (tokenFile !== undefined) return { tokenFile: path.resolve(baseDir, tokenFile) };
  return undefined;
}

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

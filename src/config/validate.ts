/** Turns a parsed config document into the typed `Config`, checking every key on the way. */
import path from "node:path";
import { Checker, isObject, POSITIVE } from "./check.js";
import { checkName, readServer } from "./server-entry.js";
import type { Env } from "./env.js";
import { configEnv } from "./config-env.js";
import { type FileStyle, HOST_TOP_KEYS, HOST_TOP_READS, fileStyle, hostReferences, ignoredWarning, type MissingInput } from "./host-formats.js";
import { runsMcpx } from "./runs-mcpx.js";
import { substituteDocument } from "./host-substitute.js";
import type { KeyPath } from "./keypath.js";
import { orderedEntries } from "./ordered.js";
import { readRoots } from "./roots.js";
import type { Config, ElicitationMode, Expose, LeftOutServer, ServerConfig } from "./types.js";
import { readPinned } from "./pinned.js";
import { readApprovals } from "./approvals.js";
import { readProfiles } from "./profiles.js";
import { readCluster } from "./cluster.js";

/** The `file` of a config that came from no file at all. */
export const DEFAULTS_FILE = "<defaults>";

const TOP_KEYS = [
  "$schema",
  "envFile",
  "mcpServers",
  "elicitation",
  "roots",
  "expose",
  "pinned",
  "approvals",
  "profiles",
  "http",
  "daemon",
  "store",
  "scripts",
  "limits",
  "cluster",
];
const MODES: readonly ElicitationMode[] = ["ask", "host", "auto", "decline", "error"];
export const EXPOSE_CHOICES: readonly Expose[] = ["all", "discovery"];

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
export function checkConfig(raw: unknown, file: string, given: Env = process.env, givenStyle?: FileStyle): CheckedConfig {
  const fromFile = file !== DEFAULTS_FILE;
  // Given by the readers of hosts whose files are shaped differently (config/host-document.ts).
  const style = givenStyle ?? fileStyle(file, raw);
  const { env, warnings: envWarnings } = configEnv(raw, file, given);
  const missingInputs: MissingInput[] = [];
  const unresolvable: { at: KeyPath; problem: string }[] = [];
  const inputs = isObject(raw) ? raw.inputs : undefined;
  const resolve = hostReferences(
    file,
    style,
    env,
    inputs,
    (missing) => missingInputs.push(missing),
    (at, problem) => unresolvable.push({ at, problem }),
  );
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
      "maxWaitingRoundsPerHost",
      "inputRoundSeconds",
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
    // A 2026-07-28 host's calls left waiting for its retry: a host works on a few at a time, and
    // its share stays well below maxPendingQuestionsPerServer so that it cannot use up the others'.
    maxWaitingRoundsPerHost: lim?.number("maxWaitingRoundsPerHost", { above: 0, integer: true }) ?? 4,
    // A retry follows input_required as soon as the host has its answers: a round nobody retries
    // lapses well before a person's question would expire (elicitation.ttlSeconds).
    inputRoundSeconds: lim?.number("inputRoundSeconds", POSITIVE) ?? 30,
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

  const dmn = top?.read("daemon", (v, at) => check.fields(v, at, ["idleMinutes"]));
  const daemon: Config["daemon"] = { idleMinutes: dmn?.number("idleMinutes", POSITIVE) ?? 10 };

  const storeUrl = top?.read("store", (v, at) => check.fields(v, at, ["url"]))?.read("url", (v, at) => readStoreUrl(check, v, at));

  const scr = top?.read("scripts", (v, at) => check.fields(v, at, ["memoryMb", "timeoutSeconds", "outputKb", "maxCalls"]));
  const scripts: Config["scripts"] = {
    memoryMb: scr?.number("memoryMb", { min: 8, max: 4096, integer: true }) ?? 64,
    timeoutSeconds: scr?.number("timeoutSeconds", POSITIVE) ?? 30,
    outputKb: scr?.number("outputKb", { min: 1, max: 64 * 1024, integer: true }) ?? 64,
    maxCalls: scr?.number("maxCalls", { min: 1, max: 1_000_000, integer: true }) ?? 1000,
  };

  const roots = top?.read("roots", (v, at) => readRoots(check, v, at, baseDir));
  const servers: ServerConfig[] = [];
  const warnings: string[] = [...envWarnings];
  const leftOutServers: LeftOutServer[] = [];
  // A server the file disables anyway is listed by `mcpx servers`, not warned about on every command.
  const leaveOut = (name: string, value: unknown, why: string): void => {
    const disabled = isObject(value) && value.disabled === true;
    leftOutServers.push({ name, why, disabled });
    if (!disabled) warnings.push(`${file}: left out server "${name}": ${why}`);
  };
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
      leaveOut(name, value, substitution.join("; "));
      continue;
    }
    // A host's file that mcpx was installed into lists mcpx itself: running it would recurse.
    if (style.hostFile && isObject(value) && runsMcpx(name, value)) {
      leaveOut(name, value, "it is mcpx itself (what mcpx install adds)");
      continue;
    }
    // In a host's file one broken server must not take the others down with it.
    const serverCheck = style.hostFile ? check.child() : check;
    checkName(serverCheck, name, at);
    const server = readServer(serverCheck, name, value, at, baseDir, limits.requestTimeoutSeconds, style.host);
    const problems = style.hostFile ? serverCheck.take() : [];
    if (problems.length > 0) leaveOut(name, value, problems.join("; "));
    else if (server) servers.push(server);
  }
  // A reference that means nothing here (`${workspaceFolder}` with no workspace) disables its server: never a guess.
  for (const { at, problem } of unresolvable) {
    const server = servers.find((s) => s.name === at[1]);
    if (at[0] !== serversKey) check.fail(at, problem);
    else if (server) {
      server.disabled = true;
      warnings.push(`${file}: server "${server.name}" is disabled: it ${problem}`);
    }
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

  const expose = top?.oneOf("expose", EXPOSE_CHOICES) ?? "all";
  const pinned = top?.read("pinned", (v, at) => readPinned(check, v, at, servers)) ?? [];
  const approvals = top?.read("approvals", (v, at) => readApprovals(check, v, at, servers)) ?? [];
  const profiles = top?.read("profiles", (v, at) => readProfiles(check, v, at, servers, EXPOSE_CHOICES)) ?? [];
  const cluster = top?.read("cluster", (v, at) => readCluster(check, v, at));
  if (cluster && !storeUrl) check.fail(["cluster"], 'needs "store": {"url": "redis://…"}: the instances share their questions, answers and keys through it');

  check.finish();
  const ignored = ignoredWarning(file, check.ignored);
  const config: Config = {
    file: fromFile ? path.resolve(file) : DEFAULTS_FILE,
    servers,
    ...(leftOutServers.length ? { leftOut: leftOutServers } : {}),
    elicitation,
    ...(roots ? { roots } : {}),
    expose,
    pinned,
    approvals,
    profiles,
    http,
    daemon,
    ...(storeUrl ? { store: { url: storeUrl } } : {}),
    scripts,
    limits,
    ...(cluster ? { cluster } : {}),
  };
  return { config, warnings: [...(ignored ? [ignored] : []), ...new Set(warnings)] };
}

/** `store.url`: a Redis or Valkey server's URL (redis://, or rediss:// for TLS). */
function readStoreUrl(check: Checker, value: unknown, at: KeyPath): string | undefined {
  if (typeof value !== "string" || value === "") return check.fail(at, 'must be a redis:// or rediss:// URL, e.g. "redis://127.0.0.1:6379"');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return check.fail(at, 'is not a URL; give one like "redis://127.0.0.1:6379"');
  }
  if (url.protocol !== "redis:" && url.protocol !== "rediss:") return check.fail(at, `must be a redis:// or rediss:// URL (got ${url.protocol}//…)`);
  if (url.hostname === "") return check.fail(at, "names no host");
  return value;
}

/** The configuration used when there is no file: no servers, every default. */
export function defaultConfig(): Config {
  return configFromObject({}, DEFAULTS_FILE, {});
}

/**
 * `http.auth`: at most one of `token` and `tokenFile` (relative to the config's directory), and
 * identities from `issuer` (with `audience`, `jwksUri`, `scopes`); at least one of the three.
 */
function readAuth(check: Checker, value: unknown, at: KeyPath, baseDir: string): Config["http"]["auth"] {
  const f = check.fields(value, at, ["token", "tokenFile", "issuer", "audience", "jwksUri", "scopes"]);
  if (!f) return undefined;
  const token = f.string("token");
  const tokenFile = f.string("tokenFile");
  if (f.has("token") && f.has("tokenFile")) {
    return check.fail(at, 'takes one of "token" (e.g. "${MCPX_TOKEN}") and "tokenFile" (a file only you can read), not both');
  }
  const issuer = f.read("issuer", (v, where) => issuerUrl(check, v, where));
  const audience = f.read("audience", (v, where) => absoluteUrl(check, v, where));
  const jwksUri = f.read("jwksUri", (v, where) => secureUrl(check, v, where));
  const scopes = f.read("scopes", (v, where) =>
    Array.isArray(v) && v.every((scope) => typeof scope === "string" && /^[\x21\x23-\x5b\x5d-\x7e]+$/.test(scope))
      ? (v as string[])
      : check.fail(where, "must be an array of scope names (no spaces, quotes or backslashes)"),
  );
  if (!f.has("issuer")) {
    const stray = ["audience", "jwksUri", "scopes"].find((key) => f.has(key));
    if (stray) return check.fail([...at, stray], 'applies to identities only: set "issuer" too');
    if (!f.has("token") && !f.has("tokenFile")) {
      return check.fail(at, 'needs "token" (e.g. "${MCPX_TOKEN}"), "tokenFile" (a file only you can read), or "issuer" (identities)');
    }
  }
  return {
    ...(token !== undefined ? { token } : {}),
    ...(tokenFile !== undefined ? { tokenFile: path.resolve(baseDir, tokenFile) } : {}),
    ...(issuer !== undefined ? { issuer } : {}),
    ...(audience !== undefined ? { audience } : {}),
    ...(jwksUri !== undefined ? { jwksUri } : {}),
    ...(scopes !== undefined ? { scopes } : {}),
  };
}

/** An absolute URL without a fragment. */
function absoluteUrl(check: Checker, value: unknown, at: KeyPath): string | undefined {
  if (typeof value !== "string" || !URL.canParse(value)) return check.fail(at, "must be an absolute URL");
  const url = new URL(value);
  if (url.hash !== "" || value.includes("#")) return check.fail(at, "must be a URL without a fragment (#)");
  if (url.protocol !== "https:" && url.protocol !== "http:") return check.fail(at, "must be an http(s) URL");
  return value;
}

/** An issuer's URL: secure, and without a query (RFC 8414). */
function issuerUrl(check: Checker, value: unknown, at: KeyPath): string | undefined {
  const checked = secureUrl(check, value, at);
  if (checked !== undefined && new URL(checked).search !== "") return check.fail(at, "must be a URL without a query (RFC 8414)");
  return checked;
}

/** https, or http on loopback only (a test or a local provider): keys fetched in clear could be anyone's. */
function secureUrl(check: Checker, value: unknown, at: KeyPath): string | undefined {
  const checked = absoluteUrl(check, value, at);
  if (checked === undefined) return undefined;
  const url = new URL(checked);
  if (url.protocol === "http:" && !isLoopbackName(url.hostname)) return check.fail(at, "must be an https URL (http only on loopback)");
  return checked;
}

function isLoopbackName(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(hostname);
}

/**
 * What `mcpx doctor` looks at, without starting any server: the runtime, the config, each
 * server's command or URL and sign-in, the state directory and its store, the daemon. Each
 * check says what it found and, when something is wrong, what to do about it.
 */
import { accessSync, constants, existsSync, statSync } from "node:fs";
import { delimiter, isAbsolute, join } from "node:path";
import type { Config, ServerConfig } from "../config/types.js";
import { openStore, withoutPassword } from "../broker/open-store.js";
import { STORE_FILE } from "../broker/sqlite/sqlite-store.js";
import { processOAuth } from "../upstream/oauth/process-context.js";
import { LOCAL_IDENTITY } from "../upstream/oauth/types.js";
import { CREDENTIALS_FILE } from "../upstream/oauth/credential-store.js";
import { daemonPaths, readDaemonRecord, staleness } from "./daemon-file.js";

export type CheckStatus = "ok" | "warn" | "fail" | "info";

export interface Check {
  name: string;
  status: CheckStatus;
  detail: string;
  /** What to do about it, when something is wrong. */
  fix?: string;
}

const MIN_NODE_MAJOR = 20;

export function runtimeCheck(version = process.versions.node): Check {
  const major = Number(version.split(".")[0]);
  if (major >= MIN_NODE_MAJOR) return { name: "runtime", status: "ok", detail: `Node ${version}` };
  return { name: "runtime", status: "fail", detail: `Node ${version}`, fix: `install Node ${MIN_NODE_MAJOR} or later` };
}

export function serverChecks(config: Config, stateDir: string): Check[] {
  const signedIn = signedInServers(stateDir);
  return config.servers.map((server) => serverCheck(server, signedIn));
}

function serverCheck(server: ServerConfig, signedIn: Set<string>): Check {
  const name = `server "${server.name}"`;
  if (server.disabled) return { name, status: "info", detail: "disabled" };
  if (server.kind === "stdio") {
    const command = server.command ?? "";
    const found = findCommand(command, server.env.PATH ?? process.env.PATH ?? "", server.cwd);
    if (!found) return { name, status: "fail", detail: `command "${command}" not found`, fix: `install it, or fix mcpServers.${server.name}.command` };
    return { name, status: "ok", detail: `runs ${found}` };
  }
  const url = new URL(server.url!);
  if (server.oauth !== false && signedIn.has(server.name)) return { name, status: "ok", detail: `${url.origin}, signed in` };
  if (url.protocol === "http:" && !["127.0.0.1", "localhost", "[::1]"].includes(url.hostname)) {
    return { name, status: "warn", detail: `${url.origin} in clear text`, fix: "use https:// for a server beyond this machine" };
  }
  return {
    name,
    status: "ok",
    detail: `${url.origin}${server.oauth === false ? "" : " (asks for a sign-in if it needs one: mcpx auth login to sign in ahead)"}`,
  };
}

/** The servers the person running mcpx has a sign-in kept for. */
function signedInServers(stateDir: string): Set<string> {
  // Looking makes nothing: no sign-in kept yet is no file yet.
  if (!existsSync(join(stateDir, CREDENTIALS_FILE))) return new Set();
  try {
    return new Set(
      processOAuth(stateDir, [], 0)
        .store.list()
        .filter((row) => row.identity === LOCAL_IDENTITY)
        .map((row) => row.server),
    );
  } catch {
    return new Set();
  }
}

/** The file a command runs: a path as given (relative to the server's cwd), else the first match on PATH. */
function findCommand(command: string, path: string, cwd: string): string | undefined {
  if (command === "") return undefined;
  const candidates = command.includes("/")
    ? [isAbsolute(command) ? command : join(cwd, command)]
    : path
        .split(delimiter)
        .filter(Boolean)
        .map((dir) => join(dir, command));
  return candidates.find((candidate) => {
    try {
      accessSync(candidate, constants.X_OK);
      return statSync(candidate).isFile();
    } catch {
      return false;
    }
  });
}

/** The state directory, and the store: the config's shared one (`storeUrl`), else the directory's file. */
export async function stateChecks(stateDir: string, storeUrl?: string): Promise<Check[]> {
  const name = "state directory";
  let mode: number;
  try {
    mode = statSync(stateDir).mode & 0o777;
  } catch {
    return [{ name, status: "info", detail: `${stateDir} does not exist yet (made on first use)` }];
  }
  const checks: Check[] = [];
  if (mode & 0o077) checks.push({ name, status: "fail", detail: `${stateDir} is readable by others (mode ${mode.toString(8)})`, fix: `chmod 700 ${stateDir}` });
  else checks.push({ name, status: "ok", detail: `${stateDir} (mode 700)` });
  if (storeUrl === undefined && !existsSync(join(stateDir, STORE_FILE))) {
    checks.push({ name: "question store", status: "info", detail: "not made yet (made on first use)" });
    return checks;
  }
  try {
    const store = await openStore({ stateDir, ...(storeUrl !== undefined ? { url: storeUrl } : {}) });
    const problem = await store.unwritable().finally(() => store.close());
    const where = storeUrl === undefined ? "" : ` (${withoutPassword(storeUrl)})`;
    checks.push(
      problem
        ? {
            name: "question store",
            status: "fail",
            detail: `${problem}${where}`,
            fix: "see that no other program holds it, and that the disk (or the server) is writable",
          }
        : { name: "question store", status: "ok", detail: `opens, passes its integrity check, takes a write${where}` },
    );
  } catch (error) {
    checks.push({
      name: "question store",
      status: "fail",
      detail: error instanceof Error ? error.message : String(error),
      fix: "move the state directory aside (MCPX_STATE_DIR) and start again",
    });
  }
  return checks;
}

export function daemonCheck(stateDir: string, configFile: string): Check {
  const record = readDaemonRecord(daemonPaths(stateDir, configFile).file);
  if (!record) return { name: "daemon", status: "info", detail: "not running (started by the first command that needs live servers)" };
  const stale = staleness(record, configFile);
  if (stale)
    return {
      name: "daemon",
      status: "warn",
      detail: `a record of pid ${record.pid} is stale (${stale})`,
      fix: "mcpx daemon stop; the next command starts a fresh one",
    };
  return { name: "daemon", status: "ok", detail: `${record.kind === "serve" ? "mcpx serve --http" : "the daemon"}, pid ${record.pid}, port ${record.port}` };
}

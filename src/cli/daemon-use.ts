/**
 * For the other commands that need live servers (`mcpx refresh`, `servers --live`,
 * `tools --live`): ask the mcpx serving this config, starting a daemon when none runs, and
 * hand back what it answered. They print it as they print their own results.
 */
import { stateDir } from "../broker/state-path.js";
import type { LiveTool, NotUp } from "../host/live-tools.js";
import { findConfigPath } from "../config/config-path.js";
import { daemonRequest, type DaemonReply, Unreachable } from "./daemon-client.js";
import { daemonPaths } from "./daemon-file.js";
import { forget, reachDaemon } from "./daemon-start.js";
import { CliError, Exit } from "./exit.js";

export { daemonWanted } from "./daemon-start.js";

/** `GET /v1/daemon/servers`: each server as `mcpx servers --json` reports it (ServerReport[]). */
export async function liveServers(configOption: string | undefined): Promise<unknown> {
  return (await ask(configOption, "GET", "/servers")).body;
}

/** `GET /v1/daemon/tools`: what the daemon's running upstreams list (host/live-tools.ts). */
export async function liveTools(configOption: string | undefined): Promise<{ tools: LiveTool[]; notUp: NotUp[] }> {
  return (await ask(configOption, "GET", "/tools")).body as unknown as { tools: LiveTool[]; notUp: NotUp[] };
}

export interface RefreshedServer {
  server: string;
  ok: boolean;
  state: string;
  tools: number;
  reason?: string;
}

/** `POST /v1/daemon/refresh`: every server's catalogue (or `server`'s) read again by the running upstreams. */
export async function refreshThroughDaemon(configOption: string | undefined, server?: string): Promise<RefreshedServer[]> {
  const reply = await ask(configOption, "POST", "/refresh", server === undefined ? {} : { server });
  return reply.body.servers as RefreshedServer[];
}

async function ask(configOption: string | undefined, method: "GET" | "POST", path: string, body?: unknown): Promise<DaemonReply> {
  const configFile = findConfigPath(configOption);
  const paths = daemonPaths(stateDir(), configFile);
  let record = await reachDaemon(configFile, paths);
  const send = () => daemonRequest(record, method, path, body === undefined ? {} : { body });
  let reply: DaemonReply;
  try {
    reply = await send();
  } catch (error) {
    if (!(error instanceof Unreachable)) throw new CliError(`the mcpx daemon (pid ${record.pid}) failed: ${(error as Error).message}`);
    forget(paths.file, record); // its record outlived it: once more, with a daemon started now
    record = await reachDaemon(configFile, paths);
    reply = await send();
  }
  if (reply.status === 200) return reply;
  const error = reply.body.error as { code?: string; message?: string } | undefined;
  const exit = error?.code === "UNKNOWN_SERVER" ? Exit.Usage : Exit.Error;
  throw new CliError(error?.message ?? `the mcpx daemon (pid ${record.pid}) answered HTTP ${reply.status}`, exit);
}

/**
 * `mcpx exec` / `mcpx run` through the daemon, as `mcpx call` goes (daemon-call.ts): one
 * request with the source; the run's end printed, or, when one of its tool calls waits on a
 * question, the store followed as for any call (exit 75 off a terminal, asked on one). The
 * warm path reads no config and opens no store; a plain exec line (exec-line.ts) takes it from
 * `dist/cli/exec-warm.cjs`, this file as one CommonJS file.
 */
import { stateDir } from "../broker/state-path.js";
import { findConfigPath } from "../config/config-path.js";
import type { ScriptSource } from "../scripts/types.js";
import { daemonPaths, type DaemonPaths, type DaemonRecord } from "./daemon-file.js";
import { commandId } from "./daemon-id.js";
import { throughDaemon } from "./daemon-send.js";
import { daemonWanted, reachDaemon, usable } from "./daemon-start.js";
import type { ExecLine } from "./exec-line.js";
import type { RunKind } from "./run-record.js";
import { execSource } from "./run-source.js";

export async function runThroughDaemon(configOption: string | undefined, kind: RunKind, source: ScriptSource, options: { json?: boolean }): Promise<number> {
  const configFile = findConfigPath(configOption);
  const paths = daemonPaths(stateDir(), configFile);
  const found = await usable(paths, configFile);
  if (!found) {
    // Cold: a bad config is the same error as ever (its warnings said here, once) and starts nothing.
    const { configFor } = await import("./context.js");
    await configFor(configOption);
  }
  const record = found ?? (await reachDaemon(configFile, paths));
  return sendRun({ configFile, paths, record, warned: !found }, kind, source, options);
}

/**
 * A plain exec line that main.ts read itself (exec-line.ts): run through the process already
 * serving its config, as commander's `exec` would; undefined, having done nothing, when none
 * does (or `MCPX_NO_DAEMON` says not to use one), and commander's `exec` takes the line.
 */
export async function warmExec(line: ExecLine): Promise<number | undefined> {
  if (!daemonWanted(false)) return undefined;
  const configFile = findConfigPath(line.options.config);
  const paths = daemonPaths(stateDir(), configFile);
  const record = await usable(paths, configFile);
  return record && sendRun({ configFile, paths, record, warned: false }, "exec", execSource(line.code, line.args), line.options);
}

interface Reached {
  configFile: string;
  paths: DaemonPaths;
  record: DaemonRecord;
  /** The config's warnings were said here already (a cold start read it). */
  warned: boolean;
}

function sendRun(daemon: Reached, kind: RunKind, source: ScriptSource, options: { json?: boolean }): Promise<number> {
  const { configFile, paths, record } = daemon;
  const runId = commandId();
  const body = { runId, kind, code: source.code, language: source.language, filename: source.filename, args: source.args };
  return throughDaemon(
    { configFile, paths, record, id: runId, path: "/exec", body, noDaemon: "--no-daemon runs it without one" },
    { ...options, warned: daemon.warned, log: paths.log, what: "run", unattributedTail: "" },
  );
}

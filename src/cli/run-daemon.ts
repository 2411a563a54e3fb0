/**
 * `mcpx exec` / `mcpx run` through the daemon, as `mcpx call` goes (daemon-call.ts): one
 * request with the source; the run's end printed, or, when one of its tool calls waits on a
 * question, the store followed as for any call (exit 75 off a terminal, asked on one). The
 * warm path reads no config and opens no store.
 */
import { randomUUID } from "node:crypto";
import { stateDir } from "../broker/state-path.js";
import { findConfigPath } from "../config/config-path.js";
import type { ScriptSource } from "../scripts/types.js";
import { daemonPaths } from "./daemon-file.js";
import { throughDaemon } from "./daemon-send.js";
import { reachDaemon, usable } from "./daemon-start.js";
import type { RunKind } from "./run-record.js";

export async function runThroughDaemon(configOption: string | undefined, kind: RunKind, source: ScriptSource, options: { json?: boolean }): Promise<number> {
  const configFile = findConfigPath(configOption);
  const paths = daemonPaths(stateDir(), configFile);
  const runId = randomUUID();
  const found = await usable(paths, configFile);
  if (!found) {
    // Cold: a bad config is the same error as ever (its warnings said here, once) and starts nothing.
    const { configFor } = await import("./context.js");
    await configFor(configOption);
  }
  const record = found ?? (await reachDaemon(configFile, paths));
  const body = { runId, kind, code: source.code, language: source.language, filename: source.filename, args: source.args };
  return throughDaemon(
    { configFile, paths, record, id: runId, path: "/exec", body, noDaemon: "--no-daemon runs it without one" },
    { ...options, warned: !found, log: paths.log, what: "run", unattributedTail: "" },
  );
}

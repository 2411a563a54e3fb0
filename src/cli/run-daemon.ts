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
import { printOutcome, type EndedCall } from "./call-result.js";
import { daemonRequest, Unreachable, type DaemonReply } from "./daemon-client.js";
import { configHash, daemonPaths, type DaemonRecord } from "./daemon-file.js";
import { forget, reachDaemon, usable } from "./daemon-start.js";
import { CliError, Exit } from "./exit.js";
import { inert } from "./inert.js";
import type { RunKind } from "./run-record.js";

export async function runThroughDaemon(configOption: string | undefined, kind: RunKind, source: ScriptSource, options: { json?: boolean }): Promise<number> {
  const configFile = findConfigPath(configOption);
  const paths = daemonPaths(stateDir(), configFile);
  const runId = randomUUID();
  const found = await usable(paths, configHash(configFile));
  if (!found) {
    // Cold: a bad config is the same error as ever (its warnings said here, once) and starts nothing.
    const { configFor } = await import("./context.js");
    await configFor(configOption);
  }
  let record = found ?? (await reachDaemon(configFile, paths));
  let stoppedBy: string | undefined;
  const stop = (signal: NodeJS.Signals): void => {
    if (stoppedBy) return;
    stoppedBy = signal;
    process.stderr.write(`mcpx: stopping run ${runId}\n`);
    daemonRequest(record, "POST", `/calls/${runId}/stop`, { body: { signal }, timeoutMs: 5_000 }).catch(() => {});
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  const body = { runId, kind, code: source.code, language: source.language, filename: source.filename, args: source.args };
  const send = () => daemonRequest(record, "POST", "/exec", { body });
  try {
    let reply: DaemonReply;
    try {
      reply = await send();
    } catch (error) {
      if (!(error instanceof Unreachable)) throw error;
      forget(paths.file, record);
      record = await reachDaemon(configFile, paths);
      reply = await send();
    }
    return await outcome(reply, record, runId, { ...options, warned: !found, log: paths.log });
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(`the run through the mcpx daemon (pid ${record.pid}) failed: ${(error as Error).message}; --no-daemon runs it without one`);
  } finally {
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
  }
}

async function outcome(reply: DaemonReply, record: DaemonRecord, runId: string, options: { json?: boolean; warned: boolean; log: string }): Promise<number> {
  const body = reply.body;
  if (reply.status !== 200) {
    const error = body.error as { message?: string } | undefined;
    throw new CliError(`the mcpx daemon (pid ${record.pid}) did not take the run: ${error?.message ?? `HTTP ${reply.status}`}`);
  }
  const warnings = options.warned || !Array.isArray(body.warnings) ? [] : body.warnings;
  for (const warning of warnings) process.stderr.write(`mcpx: warning: ${String(warning)}\n`);
  if (body.status === "ended") return printOutcome(body.call as EndedCall, options.json === true, process.stdout);
  if (body.status !== "waiting") throw new CliError(`the mcpx daemon (pid ${record.pid}) answered the run with ${inert(String(body.status))}`, Exit.Error);
  for (const question of Array.isArray(body.unattributed) ? (body.unattributed as Array<{ id: string; server: string }>) : []) {
    process.stderr.write(
      `mcpx: "${inert(question.server)}" asked a question while more than one call to it was in flight, so mcpx cannot tell whose it is; ` +
        `it waits for a person (mcpx elicit show ${inert(question.id)})\n`,
    );
  }
  // It waits on a question: from here on, the store, as for any call.
  const { collect } = await import("./call.js");
  return collect(runId, { json: options.json === true }, options.log);
}

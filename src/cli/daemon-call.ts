/**
 * `mcpx call` through the daemon: find (or start) the mcpx serving this config, send the call
 * in one request, and print how it ended. A call that waits on a question is followed in the
 * store exactly as a call of the detached runner is (`mcpx result`'s path: exit 75 off a
 * terminal, the question asked on one). The warm path reads no config and opens no store:
 * the daemon runs this very config (the discovery file has its hash) and checks the call.
 */
import { randomUUID } from "node:crypto";
import { stateDir } from "../broker/state-path.js";
import { findConfigPath } from "../config/config-path.js";
import { printOutcome, type EndedCall } from "./call-result.js";
import { progressFile, ProgressDisplay } from "./call-progress.js";
import { daemonRequest, Unreachable, type DaemonReply } from "./daemon-client.js";
import { configHash, daemonPaths, type DaemonRecord } from "./daemon-file.js";
import { forget, reachDaemon, usable } from "./daemon-start.js";
import { CliError, Exit } from "./exit.js";
import { inert } from "./inert.js";

const PROGRESS_POLL_MS = 100;

export async function callThroughDaemon(
  configOption: string | undefined,
  target: string,
  args: readonly string[],
  options: { json?: boolean },
): Promise<number> {
  const configFile = findConfigPath(configOption);
  const dir = stateDir();
  const paths = daemonPaths(dir, configFile);
  const callId = randomUUID();
  const found = await usable(paths, configHash(configFile));
  if (!found) {
    // Cold: the config and the call are checked here first, so a bad config or a typo is the
    // same error as ever (its warnings said here, once) and starts nothing.
    const [{ configFor }, { checkedCall }] = await Promise.all([import("./context.js"), import("./call.js")]);
    checkedCall(await configFor(configOption), target, args);
  }
  let record = found ?? (await reachDaemon(configFile, paths));
  let stoppedBy: string | undefined;
  // Stopping this command (Ctrl-C, SIGTERM) stops the call it started, as it does the runner.
  const stop = (signal: NodeJS.Signals): void => {
    if (stoppedBy) return;
    stoppedBy = signal;
    process.stderr.write(`mcpx: stopping call ${callId}\n`);
    daemonRequest(record, "POST", `/calls/${callId}/stop`, { body: { signal }, timeoutMs: 5_000 }).catch(() => {});
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  const progress = new ProgressDisplay(progressFile(`${dir}/calls`, callId), inert(target));
  const poll = setInterval(() => progress.update(), PROGRESS_POLL_MS);
  const send = () => daemonRequest(record, "POST", "/call", { body: { callId, target, args } });
  try {
    let reply: DaemonReply;
    try {
      reply = await send();
    } catch (error) {
      if (!(error instanceof Unreachable)) throw error;
      // Its record outlived it (nothing was sent): once more, with a daemon started now.
      forget(paths.file, record);
      record = await reachDaemon(configFile, paths);
      reply = await send();
    }
    clearInterval(poll);
    progress.end();
    return await outcome(reply, record, callId, { ...options, warned: !found, log: paths.log });
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(`the call through the mcpx daemon (pid ${record.pid}) failed: ${(error as Error).message}; mcpx call --no-daemon makes it without one`);
  } finally {
    clearInterval(poll);
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
  }
}

async function outcome(reply: DaemonReply, record: DaemonRecord, callId: string, options: { json?: boolean; warned: boolean; log: string }): Promise<number> {
  const body = reply.body;
  if (reply.status !== 200) {
    const error = body.error as { message?: string } | undefined;
    const why = error?.message ?? `HTTP ${reply.status}`;
    throw new CliError(`the mcpx daemon (pid ${record.pid}) did not take the call: ${why}`);
  }
  const warnings = options.warned || !Array.isArray(body.warnings) ? [] : body.warnings;
  for (const warning of warnings) process.stderr.write(`mcpx: warning: ${String(warning)}\n`);
  if (body.status === "refused") throw new CliError(String(body.message), typeof body.exitCode === "number" ? body.exitCode : Exit.Usage);
  if (body.status === "ended") return printOutcome(body.call as EndedCall, options.json === true, process.stdout);
  for (const question of Array.isArray(body.unattributed) ? (body.unattributed as Array<{ id: string; server: string }>) : []) {
    process.stderr.write(
      `mcpx: "${inert(question.server)}" asked a question while more than one call to it was in flight, so mcpx cannot tell whose it is; ` +
        `it waits for a person (mcpx elicit show ${inert(question.id)}), and this call with it\n`,
    );
  }
  // It waits on a question: from here on, the store, as for any call.
  const { collect } = await import("./call.js");
  return collect(callId, { json: options.json === true }, options.log);
}

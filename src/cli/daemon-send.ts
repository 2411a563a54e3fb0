/**
 * What `mcpx call` and `mcpx exec`/`run` do alike on a daemon: send one request that the
 * command's Ctrl-C or SIGTERM stops (through `/calls/:id/stop`), sent once more to a daemon
 * started now when the found one turns out gone; and read its reply: ended (printed), waiting on
 * a question (the store followed, as for any call), or not taken.
 */
import { existsSync } from "node:fs";
import { isatty } from "node:tty";
import { printOutcome, type EndedCall } from "./call-result.js";
import { daemonRequest, Unreachable, type DaemonReply } from "./daemon-client.js";
import type { DaemonPaths, DaemonRecord } from "./daemon-file.js";
import { forget, reachDaemon } from "./daemon-start.js";
import { CliError, cliErrorOf, Exit } from "./exit.js";
import { inert } from "./inert.js";
import type { Output } from "./run-result.js";
import { writeOut } from "./write-out.js";

export interface DaemonSend {
  configFile: string;
  paths: DaemonPaths;
  /** The daemon found, or started for this command. */
  record: DaemonRecord;
  /** The call's or run's id, which `/calls/:id/stop` stops. */
  id: string;
  path: string;
  body: Record<string, unknown>;
  /** How to do without a daemon, said when the request fails. */
  noDaemon: string;
}

/**
 * Send the request, then follow its reply (`followReply`). `replied` runs once the reply is in,
 * before it is followed. Any failure but the command's own errors names the daemon.
 */
export async function throughDaemon(send: DaemonSend, follow: FollowOptions, replied?: () => void): Promise<number> {
  let { record } = send;
  let stoppedBy: string | undefined;
  const stop = (signal: NodeJS.Signals): void => {
    if (stoppedBy) return;
    stoppedBy = signal;
    process.stderr.write(`mcpx: stopping ${follow.what} ${send.id}\n`);
    daemonRequest(record, "POST", `/calls/${send.id}/stop`, { body: { signal }, timeoutMs: 5_000 }).catch(() => {});
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  const request = () => daemonRequest(record, "POST", send.path, { body: send.body });
  try {
    let reply: DaemonReply;
    try {
      reply = await request();
    } catch (error) {
      if (!(error instanceof Unreachable)) throw error;
      // Its record outlived it (nothing was sent): once more, with a daemon started now.
      forget(send.paths.file, record);
      record = await reachDaemon(send.configFile, send.paths);
      reply = await request();
    }
    replied?.();
    return await followReply(reply, record, send, follow);
  } catch (error) {
    // By its name: on the warm path (call-warm.cjs), what a question's follower throws is tsc's CliError, not the bundle's.
    if (cliErrorOf(error)) throw error;
    throw new CliError(`the ${follow.what} through the mcpx daemon (pid ${record.pid}) failed: ${(error as Error).message}; ${send.noDaemon}`);
  } finally {
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
  }
}

/** stdout through its file descriptor (write-out.ts): creating `process.stdout` costs a warm call more than the printing. */
const STDOUT: Output = {
  write: writeOut,
  get isTTY() {
    return isatty(1);
  },
};

export interface FollowOptions {
  json?: boolean;
  /** The config's warnings were said here already (a cold start read it). */
  warned: boolean;
  log: string;
  what: string;
  /** What a question nobody can be proven to own means for this command, after "it waits for a person (…)". */
  unattributedTail: string;
}

/** How the call or run ended, printed; or, waiting on a question, the store followed. */
async function followReply(reply: DaemonReply, record: DaemonRecord, send: Pick<DaemonSend, "id" | "configFile">, options: FollowOptions): Promise<number> {
  const body = reply.body;
  if (reply.status !== 200) {
    const error = body.error as { message?: string } | undefined;
    throw new CliError(`the mcpx daemon (pid ${record.pid}) did not take the ${options.what}: ${error?.message ?? `HTTP ${reply.status}`}`);
  }
  const warnings = options.warned || !Array.isArray(body.warnings) ? [] : body.warnings;
  for (const warning of warnings) process.stderr.write(`mcpx: warning: ${String(warning)}\n`);
  if (body.status === "refused") throw new CliError(String(body.message), typeof body.exitCode === "number" ? body.exitCode : Exit.Usage);
  if (body.status === "ended") return printOutcome(body.call as EndedCall, options.json === true, STDOUT);
  if (body.status !== "waiting")
    throw new CliError(`the mcpx daemon (pid ${record.pid}) answered the ${options.what} with ${inert(String(body.status))}`, Exit.Error);
  for (const question of Array.isArray(body.unattributed) ? (body.unattributed as Array<{ id: string; server: string }>) : []) {
    process.stderr.write(
      `mcpx: "${inert(question.server)}" asked a question while more than one call to it was in flight, so mcpx cannot tell whose it is; ` +
        `it waits for a person (mcpx elicit show ${inert(question.id)})${options.unattributedTail}\n`,
    );
  }
  // It waits on a question: from here on, the store (the config's, which the daemon uses too), as for any call.
  const { collect } = await import("./call.js");
  const config = existsSync(send.configFile) ? await (await import("./context.js")).storeConfigFor(send.configFile) : undefined;
  return collect(send.id, { json: options.json === true }, options.log, config);
}

/**
 * `mcpx exec` / `mcpx run` through the daemon, as `mcpx call` goes (daemon-call.ts): one
 * request with the source; the run's end printed, or, when one of its tool calls waits on a
 * question, the store followed as for any call (exit 75 off a terminal, asked on one). The
 * warm path reads no config and opens no store; a plain exec line (exec-line.ts) takes it from
 * `dist/cli/exec-warm.cjs`, this file as one CommonJS file.
 */
import type { ScriptSource } from "../scripts/types.js";
import { commandId } from "./daemon-id.js";
import { throughDaemon } from "./daemon-send.js";
import { daemonFor, type Reached, servingDaemon } from "./daemon-start.js";
import type { ExecLine } from "./exec-line.js";
import type { RunKind } from "./run-record.js";
import { execSource } from "./run-source.js";

export async function runThroughDaemon(configOption: string | undefined, kind: RunKind, source: ScriptSource, options: { json?: boolean }): Promise<number> {
  const daemon = await daemonFor(configOption, async () => {
    await (await import("./context.js")).configFor(configOption);
  });
  return sendRun(daemon, kind, source, options);
}

/** A plain exec line that main.ts read itself (exec-line.ts): run through the process already serving its config, as commander's `exec` would; undefined when none does. */
export async function warmExec(line: ExecLine): Promise<number | undefined> {
  const daemon = await servingDaemon(line.options.config);
  return daemon && sendRun(daemon, "exec", execSource(line.code, line.args), line.options);
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

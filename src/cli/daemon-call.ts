/**
 * `mcpx call` through the daemon: find (or start) the mcpx serving this config, send the call
 * in one request, and print how it ended. A call that waits on a question is followed in the
 * store exactly as a call of the detached runner is (`mcpx result`'s path: exit 75 off a
 * terminal, the question asked on one). The warm path reads no config and opens no store:
 * the daemon runs this very config (the discovery file says which: daemon-file.ts) and checks
 * the call.
 */
import { stateDir } from "../broker/state-path.js";
import { progressFile, ProgressDisplay } from "./call-progress.js";
import type { CallLine } from "./call-line.js";
import { commandId } from "./daemon-id.js";
import { throughDaemon } from "./daemon-send.js";
import { daemonFor, type Reached, servingDaemon } from "./daemon-start.js";
import { inert } from "./inert.js";

const PROGRESS_POLL_MS = 100;

export async function callThroughDaemon(
  configOption: string | undefined,
  target: string,
  args: readonly string[],
  options: { json?: boolean },
): Promise<number> {
  const daemon = await daemonFor(configOption, async () => {
    // Cold: the call is checked here first too, so a typo is the same error as ever.
    const [{ configFor }, { checkedCall }] = await Promise.all([import("./context.js"), import("./call.js")]);
    checkedCall(await configFor(configOption), target, args);
  });
  return sendCall(daemon, target, args, options);
}

/** A plain call line that main.ts read itself (call-line.ts): made through the process already serving its config; undefined when none does. */
export async function warmCall(line: CallLine): Promise<number | undefined> {
  const daemon = await servingDaemon(line.options.config);
  return daemon && sendCall(daemon, line.target, line.args, line.options);
}

/** process.stderr, created only when there is progress to show (it costs a warm call about a tenth of Node's start). */
const STDERR = {
  write: (text: string) => process.stderr.write(text),
  get isTTY() {
    return process.stderr.isTTY;
  },
};

async function sendCall(daemon: Reached, target: string, args: readonly string[], options: { json?: boolean }): Promise<number> {
  const { configFile, paths, record } = daemon;
  const callId = commandId();
  const progress = new ProgressDisplay(progressFile(`${stateDir()}/calls`, callId), inert(target), STDERR);
  const poll = setInterval(() => progress.update(), PROGRESS_POLL_MS);
  const replied = (): void => {
    clearInterval(poll);
    progress.end();
  };
  try {
    return await throughDaemon(
      { configFile, paths, record, id: callId, path: "/call", body: { callId, target, args }, noDaemon: "mcpx call --no-daemon makes it without one" },
      { ...options, warned: daemon.warned, log: paths.log, what: "call", unattributedTail: ", and this call with it" },
      replied,
    );
  } finally {
    clearInterval(poll);
  }
}

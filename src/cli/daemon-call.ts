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
import { progressFile, ProgressDisplay } from "./call-progress.js";
import { configHash, daemonPaths } from "./daemon-file.js";
import { throughDaemon } from "./daemon-send.js";
import { reachDaemon, usable } from "./daemon-start.js";
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
  const record = found ?? (await reachDaemon(configFile, paths));
  const progress = new ProgressDisplay(progressFile(`${dir}/calls`, callId), inert(target));
  const poll = setInterval(() => progress.update(), PROGRESS_POLL_MS);
  const replied = (): void => {
    clearInterval(poll);
    progress.end();
  };
  try {
    return await throughDaemon(
      { configFile, paths, record, id: callId, path: "/call", body: { callId, target, args }, noDaemon: "mcpx call --no-daemon makes it without one" },
      { ...options, warned: !found, log: paths.log, what: "call", unattributedTail: ", and this call with it" },
      replied,
    );
  } finally {
    clearInterval(poll);
  }
}

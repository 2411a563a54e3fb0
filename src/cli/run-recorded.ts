/**
 * A script run a command asked for, made through a gateway (the daemon's, or the `--no-daemon`
 * runner's own) with `host/script-run.ts`: each tool call it makes is a call of the run (its
 * questions carry the run id), and how it ended goes to the store for `mcpx result`.
 */
import type { BrokerStore } from "../broker/store-api.js";
import type { Gateway } from "../host/gateway.js";
import { startRun } from "../host/script-run.js";
import type { ScriptEnvelope, ScriptLimits, ScriptSource } from "../scripts/types.js";
import { finishRun } from "./run-record.js";
import { failureMessage } from "./run-call.js";

/** Runs the script to its end and records it; stopping `signal` stops the run (it fails as "stopped"). */
export async function makeRecordedRun(
  gateway: Gateway,
  store: BrokerStore,
  runId: string,
  source: ScriptSource,
  limits: ScriptLimits,
  signal: AbortSignal,
): Promise<ScriptEnvelope | undefined> {
  try {
    const running = await startRun(gateway, source, { run: { callId: runId, signal }, limits });
    const stop = (): void => running.stop(failureMessage(signal.reason));
    if (signal.aborted) stop();
    else signal.addEventListener("abort", stop, { once: true });
    const envelope = await running.done.finally(() => signal.removeEventListener("abort", stop));
    await finishRun(store, runId, { envelope });
    return envelope;
  } catch (error) {
    await finishRun(store, runId, { error: failureMessage(signal.aborted ? signal.reason : error) });
    return undefined;
  }
}

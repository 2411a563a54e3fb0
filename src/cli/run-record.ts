/**
 * A script run (`mcpx exec`, `mcpx run`) as the store keeps it: a call of server "mcpx" (a
 * name no upstream may have), tool "exec" or "run", whose result is the run's envelope. So
 * `mcpx result RUNID` collects a run exactly as it collects a call, and its questions are
 * the call's (the broker's record.callId is the run id). The source is never stored: the
 * arguments say only what the run was (file name, language, size, args).
 */
import type { CallRecord } from "../broker/call-store.js";
import type { BrokerStore } from "../broker/store-api.js";
import type { JsonObject } from "../protocol/jsonrpc.js";
import type { ScriptEnvelope, ScriptSource } from "../scripts/types.js";

/** context.ts RESERVED_SERVER_NAME, not imported: the warm path prints runs and loads no config reader. */
const RUN_SERVER = "mcpx";

export type RunKind = "exec" | "run";

export function recordRun(store: BrokerStore, runId: string, kind: RunKind, source: ScriptSource): Promise<void> {
  return store.calls.create(runId, RUN_SERVER, kind, {
    filename: source.filename,
    language: source.language,
    bytes: Buffer.byteLength(source.code),
    args: source.args,
  });
}

/** A run ends done with its envelope (ok or not); failed only when mcpx could not run it at all. */
export function finishRun(store: BrokerStore, runId: string, outcome: { envelope: ScriptEnvelope } | { error: string }): Promise<void> {
  if ("envelope" in outcome) return store.calls.finish(runId, { result: outcome.envelope as unknown as JsonObject });
  return store.calls.finish(runId, outcome);
}

export function isRun(call: Pick<CallRecord, "server" | "tool">): boolean {
  return call.server === RUN_SERVER && (call.tool === "exec" || call.tool === "run");
}

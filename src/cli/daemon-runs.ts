/**
 * The script runs commands make through a daemon (`POST /v1/daemon/exec`): `mcpx exec` and
 * `mcpx run`. Each is recorded in the store as a call (run-record.ts), run through the
 * daemon's gateway (run-recorded.ts) and answered in the same request when it ends; when one
 * of its tool calls raises a question, the reply says it waits and the command follows the
 * store as `mcpx call` does (exit 75 off a terminal, the question asked on one).
 */
import type { Reply } from "../api/daemon-routes.js";
import type { Broker } from "../broker/broker.js";
import type { Gateway } from "../host/gateway.js";
import type { JsonObject } from "../protocol/jsonrpc.js";
import type { ScriptSource } from "../scripts/types.js";
import { StoppedBySignal } from "./run-call.js";
import { recordRun, type RunKind } from "./run-record.js";
import { scriptLimits } from "../scripts/limits.js";
import { makeRecordedRun } from "./run-recorded.js";
import { COMMAND_ID, watchQuestions } from "./daemon-questions.js";

export class DaemonRuns {
  readonly #running = new Map<string, AbortController>();

  constructor(
    private readonly gateway: Gateway,
    private readonly broker: Broker,
    private readonly warnings: readonly string[],
  ) {}

  get inFlight(): number {
    return this.#running.size;
  }

  async exec(request: JsonObject): Promise<Reply> {
    const parsed = parseRequest(request);
    if (typeof parsed === "string") return { status: 400, body: { error: { code: "INVALID_REQUEST", message: parsed } } };
    const { runId, kind, source } = parsed;
    const store = this.broker.store;
    if (await store.calls.get(runId)) return { status: 400, body: { error: { code: "INVALID_REQUEST", message: `a call with id ${runId} exists already` } } };
    await recordRun(store, runId, kind, source);
    await store.calls.setRunner(runId, process.pid);

    const stopper = new AbortController();
    this.#running.set(runId, stopper);
    const { asks, unattributed, unsubscribe } = watchQuestions(this.broker, runId);
    const ended = makeRecordedRun(this.gateway, store, runId, source, scriptLimits(this.gateway.config.scripts), stopper.signal)
      .then(() => "ended" as const)
      .finally(() => {
        unsubscribe();
        this.#running.delete(runId);
      });
    const how = await Promise.race([ended, asks]);
    const warnings = [...this.warnings];
    if (how === "waiting") return { status: 200, body: { status: "waiting", runId, unattributed, warnings } };
    const record = (await store.calls.get(runId))!;
    const call = {
      server: record.server,
      tool: record.tool,
      state: record.state,
      arguments: record.arguments,
      ...(record.result ? { result: record.result } : {}),
      ...(record.error ? { error: record.error } : {}),
    };
    return { status: 200, body: { status: "ended", call, warnings } };
  }

  /** Stop one run (the command following it was stopped); false when no such run is here. */
  stop(runId: string, signal: string): boolean {
    const stopper = this.#running.get(runId);
    stopper?.abort(new StoppedBySignal(signal));
    return stopper !== undefined;
  }

  stopAll(why: string): void {
    for (const stopper of this.#running.values()) stopper.abort(new StoppedBySignal(why));
  }
}

function parseRequest(request: JsonObject): { runId: string; kind: RunKind; source: ScriptSource } | string {
  const { runId, kind, code, language, filename, args } = request;
  if (typeof runId !== "string" || !COMMAND_ID.test(runId)) return 'field "runId" must be a fresh UUID';
  if (kind !== "exec" && kind !== "run") return 'field "kind" must be "exec" or "run"';
  if (typeof code !== "string") return 'field "code" must be the script\'s source';
  if (language !== "ts" && language !== "js") return 'field "language" must be "ts" or "js"';
  if (typeof filename !== "string" || filename === "") return 'field "filename" must name the script';
  if (!Array.isArray(args) || !args.every((arg): arg is string => typeof arg === "string")) return 'field "args" must be a list of strings';
  return { runId, kind, source: { code, language, filename, args } };
}

/**
 * The calls commands make through a daemon (`POST /v1/daemon/call`). Each is recorded in the
 * store as the detached runner records it, made through the daemon's gateway on its shared,
 * warm upstream (`host/recorded-call.ts`, design rule 11), and answered in the same request
 * when it ends; when it waits on a question instead, the reply says so and the command follows
 * the store as it always has (exit 75 off a terminal, the question asked on one).
 */
import { join } from "node:path";
import type { Reply } from "../api/daemon-routes.js";
import type { Broker } from "../broker/broker.js";
import type { Config } from "../config/types.js";
import type { Gateway } from "../host/gateway.js";
import { makeRecordedCall } from "../host/recorded-call.js";
import type { JsonObject } from "../protocol/jsonrpc.js";
import type { Upstream } from "../upstream/upstream.js";
import { ProgressRecorder, progressFile } from "./call-progress.js";
import { checkedCall } from "./call.js";
import { CliError } from "./exit.js";
import { failureMessage, StoppedBySignal, typedArguments } from "./run-call.js";
import { COMMAND_ID, watchQuestions } from "./daemon-questions.js";

export class DaemonCalls {
  readonly #running = new Map<string, AbortController>();

  constructor(
    private readonly gateway: Gateway,
    private readonly broker: Broker,
    private readonly callsDir: string,
    /** Said to every command, as `configFor` says them to a command that reads the config itself. */
    private readonly warnings: readonly string[],
  ) {}

  get inFlight(): number {
    return this.#running.size;
  }

  async call(request: JsonObject): Promise<Reply> {
    const { callId, target, args } = request;
    if (typeof callId !== "string" || !COMMAND_ID.test(callId)) return invalid('field "callId" must be a fresh UUID');
    if (typeof target !== "string") return invalid('field "target" must be SERVER.TOOL or SERVER__TOOL');
    if (!Array.isArray(args) || !args.every((arg): arg is string => typeof arg === "string")) return invalid('field "args" must be a list of strings');
    const config: Config = this.gateway.config;
    let checked: ReturnType<typeof checkedCall>;
    try {
      checked = checkedCall(config, target, args);
    } catch (error) {
      if (!(error instanceof CliError)) throw error;
      return { status: 200, body: { status: "refused", message: error.message, exitCode: error.exitCode, warnings: [...this.warnings] } };
    }
    const store = this.broker.store;
    if (await store.calls.get(callId)) return invalid(`a call with id ${callId} exists already`);
    const { server, tool, given } = checked;
    await store.calls.create(callId, server, tool, given.kind === "json" ? given.value : given.pairs);
    await store.calls.setRunner(callId, process.pid);
    const stored = (await store.calls.get(callId))!;

    const stopper = new AbortController();
    this.#running.set(callId, stopper);
    const { asks, unattributed, unsubscribe } = watchQuestions(this.broker, callId, server);
    const progress = new ProgressRecorder(progressFile(this.callsDir, callId));
    const prepare = given.kind === "pairs" ? (upstream: Upstream, pairs: JsonObject) => typedArguments(upstream, tool, pairs) : undefined;
    const ended = makeRecordedCall(
      this.gateway,
      { callId, server, tool, arguments: stored.arguments },
      { signal: stopper.signal, onProgress: (params) => progress.report(params), ...(prepare ? { prepare } : {}) },
    )
      .then((result) => ({ result }))
      .catch((error: unknown) => ({ error: failureMessage(stopper.signal.aborted ? stopper.signal.reason : error) }))
      .then(async (outcome) => {
        progress.flush();
        await store.calls.finish(callId, outcome);
        return "ended" as const;
      })
      .finally(() => {
        unsubscribe();
        this.#running.delete(callId);
      });
    const how = await Promise.race([ended, asks]);
    const warnings = [...this.warnings];
    if (how === "waiting") return { status: 200, body: { status: "waiting", callId, unattributed, warnings } };
    const record = (await store.calls.get(callId))!;
    return {
      status: 200,
      body: {
        status: "ended",
        call: { server, tool, state: record.state, ...(record.result ? { result: record.result } : {}), ...(record.error ? { error: record.error } : {}) },
        warnings,
      },
    };
  }

  /** Stop one call (the command following it was stopped); false when no such call runs here. */
  stop(callId: string, signal: string): boolean {
    const stopper = this.#running.get(callId);
    stopper?.abort(new StoppedBySignal(signal));
    return stopper !== undefined;
  }

  /** Every call in flight fails as stopped: the daemon is going away, and its upstreams with it. */
  stopAll(why: string): void {
    for (const stopper of this.#running.values()) stopper.abort(new StoppedBySignal(why));
  }
}

function invalid(message: string): Reply {
  return { status: 400, body: { error: { code: "INVALID_REQUEST", message } } };
}

/** Where calls' logs and progress are kept (as for the detached runner). */
export function callsDirOf(stateDir: string): string {
  return join(stateDir, "calls");
}

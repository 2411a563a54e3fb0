/**
 * The process behind `mcpx call`: runs one tool call through a gateway of its own, with the
 * shared broker, and records the result in the store. It is detached from the command that
 * started it, so the call survives that command exiting on a question (exit 75).
 */
import type { Config } from "../config/types.js";
import { Gateway } from "../host/gateway.js";
import { sendResolvingUrlRequired } from "../host/url-required.js";
import { Broker } from "../broker/broker.js";
import { QuestionStore } from "../broker/store.js";
import { stateDir } from "../broker/state-dir.js";
import { GatewayError, RpcError } from "../protocol/errors.js";
import { createLogger } from "../util/log.js";
import type { JsonObject } from "../protocol/jsonrpc.js";
import type { Upstream } from "../upstream/upstream.js";
import { CliError } from "./exit.js";
import { TYPE_ARGUMENTS_ENV } from "./call.js";
import { typeArguments } from "./tool-arguments.js";
import { ProgressRecorder, progressFile } from "./call-progress.js";
import { join } from "node:path";

export async function runCall(config: Config, callId: string): Promise<number> {
  // Read, then removed: the flag is for this process, not for the upstream it spawns.
  const typeByText = process.env[TYPE_ARGUMENTS_ENV] === "1";
  delete process.env[TYPE_ARGUMENTS_ENV];
  const log = createLogger({ call: callId });
  const store = QuestionStore.open(stateDir());
  const call = store.calls.get(callId);
  if (!call) {
    log.error("no such call in the store");
    store.close();
    return 1;
  }
  store.calls.setRunner(callId, process.pid);
  const broker = new Broker(store, log);
  broker.start(config.elicitation.retentionDays);
  const only = { ...config, servers: config.servers.filter((server) => server.name === call.server) };
  const gateway = new Gateway(only, log, { broker, schemaCache: stateDir() });
  const upstream = gateway.upstream(call.server);
  // Stopped (SIGINT, SIGTERM): the call is cancelled and failed, and the upstream process is
  // stopped with the gateway below, rather than left running with nobody to stop it.
  const stopper = new AbortController();
  const stop = (signal: NodeJS.Signals): void => stopper.abort(new StoppedBySignal(signal));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  // The upstream's progress, for the command following this call to show (call-progress.ts).
  const progress = new ProgressRecorder(progressFile(join(stateDir(), "calls"), callId));
  const stopped = new Promise<never>((_, reject) => stopper.signal.addEventListener("abort", () => reject(stopper.signal.reason as Error)));
  stopped.catch(() => {}); // observed by the race below
  try {
    if (!upstream) throw new GatewayError("UPSTREAM_UNAVAILABLE", `no server named "${call.server}" in ${config.file}`);
    await Promise.race([upstream.start(), stopped]);
    const args = typeByText ? typedArguments(upstream, call.tool, call.arguments) : call.arguments;
    const owner = { tool: call.tool, callId };
    // A -32042 answer becomes URL questions here too; once they are complete the call is sent again.
    const calling = sendResolvingUrlRequired(gateway, upstream, owner, "tools/call", stopper.signal, () =>
      upstream.call("tools/call", { name: call.tool, arguments: args }, { owner, signal: stopper.signal, onProgress: (params) => progress.report(params) }),
    );
    const result = await Promise.race([calling, stopped]);
    progress.flush();
    store.calls.finish(callId, { result });
    return 0;
  } catch (error) {
    const reason = stopper.signal.aborted ? stopper.signal.reason : error;
    const message =
      reason instanceof RpcError || reason instanceof GatewayError || reason instanceof CliError || reason instanceof StoppedBySignal
        ? reason.message
        : String(reason);
    progress.flush();
    store.calls.finish(callId, { error: message });
    return 1;
  } finally {
    await gateway.stop();
    broker.stop();
    store.close();
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
  }
}

/** `key=value` text typed by the tool's inputSchema, as the server lists it. */
function typedArguments(upstream: Upstream, tool: string, given: JsonObject): JsonObject {
  const listed = upstream.catalog.tools.find((candidate) => candidate.name === tool);
  const pairs = Object.fromEntries(Object.entries(given).map(([name, value]) => [name, String(value)]));
  return typeArguments(pairs, listed?.inputSchema, `${upstream.name}.${tool}`);
}

class StoppedBySignal extends Error {
  override readonly name = "StoppedBySignal";
  constructor(signal: NodeJS.Signals) {
    super(`the call was stopped (${signal}) before it finished`);
  }
}

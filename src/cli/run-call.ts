/**
 * The process behind `mcpx call`: runs one tool call through a gateway of its own, with the
 * shared broker, and records the result in the store. It is detached from the command that
 * started it, so the call survives that command exiting on a question (exit 75).
 */
import type { Config } from "../config/types.js";
import { Gateway } from "../host/gateway.js";
import { makeRecordedCall } from "../host/recorded-call.js";
import { Broker } from "../broker/broker.js";
import { openStore } from "../broker/open-store.js";
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
  const store = await openStore({ stateDir: stateDir(), ...(config.store ? { url: config.store.url } : {}) });
  const call = await store.calls.get(callId);
  if (!call) {
    log.error("no such call in the store");
    await store.close();
    return 1;
  }
  await store.calls.setRunner(callId, process.pid);
  const broker = new Broker(store, log);
  await broker.start(config.elicitation.retentionDays);
  const only = { ...config, servers: config.servers.filter((server) => server.name === call.server) };
  const gateway = new Gateway(only, log, { broker, schemaCache: stateDir() });
  // Stopped (SIGINT, SIGTERM): the call is cancelled and failed, and the upstream process is
  // stopped with the gateway below, rather than left running with nobody to stop it.
  const stopper = new AbortController();
  const stop = (signal: NodeJS.Signals): void => stopper.abort(new StoppedBySignal(signal));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  // The upstream's progress, for the command following this call to show (call-progress.ts).
  const progress = new ProgressRecorder(progressFile(join(stateDir(), "calls"), callId));
  try {
    const result = await makeRecordedCall(
      gateway,
      { callId, server: call.server, tool: call.tool, arguments: call.arguments },
      {
        signal: stopper.signal,
        onProgress: (params) => progress.report(params),
        ...(typeByText ? { prepare: (upstream: Upstream, given: JsonObject) => typedArguments(upstream, call.tool, given) } : {}),
      },
    );
    progress.flush();
    await store.calls.finish(callId, { result });
    return 0;
  } catch (error) {
    progress.flush();
    await store.calls.finish(callId, { error: failureMessage(stopper.signal.aborted ? stopper.signal.reason : error) });
    return 1;
  } finally {
    await gateway.stop();
    await broker.stop();
    await store.close();
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
  }
}

/** `key=value` text typed by the tool's inputSchema, as the server lists it. */
export function typedArguments(upstream: Upstream, tool: string, given: JsonObject): JsonObject {
  const listed = upstream.catalog.tools.find((candidate) => candidate.name === tool);
  const pairs = Object.fromEntries(Object.entries(given).map(([name, value]) => [name, String(value)]));
  return typeArguments(pairs, listed?.inputSchema, `${upstream.name}.${tool}`);
}

/** What a failed call records: the message of an error mcpx words itself, else the error as text. */
export function failureMessage(reason: unknown): string {
  return reason instanceof RpcError || reason instanceof GatewayError || reason instanceof CliError || reason instanceof StoppedBySignal
    ? reason.message
    : String(reason);
}

export class StoppedBySignal extends Error {
  override readonly name = "StoppedBySignal";
  constructor(signal: string) {
    super(`the call was stopped (${signal}) before it finished`);
  }
}

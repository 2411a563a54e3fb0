/**
 * The process behind `mcpx call`: runs one tool call through a gateway of its own, with the
 * shared broker, and records the result in the store. It is detached from the command that
 * started it, so the call survives that command exiting on a question (exit 75).
 */
import type { Config } from "../config/types.js";
import { Gateway } from "../host/gateway.js";
import { Broker } from "../broker/broker.js";
import { QuestionStore } from "../broker/store.js";
import { stateDir } from "../broker/state-dir.js";
import { GatewayError, RpcError } from "../protocol/errors.js";
import { createLogger } from "../util/log.js";

export async function runCall(config: Config, callId: string): Promise<number> {
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
  const gateway = new Gateway(only, log, { broker });
  const upstream = gateway.upstream(call.server);
  try {
    if (!upstream) throw new GatewayError("UPSTREAM_UNAVAILABLE", `no server named "${call.server}" in ${config.file}`);
    await upstream.start();
    const result = await upstream.call("tools/call", { name: call.tool, arguments: call.arguments }, { owner: { tool: call.tool, callId } });
    store.calls.finish(callId, { result });
    return 0;
  } catch (error) {
    const message = error instanceof RpcError || error instanceof GatewayError ? error.message : String(error);
    store.calls.finish(callId, { error: message });
    return 1;
  } finally {
    await gateway.stop();
    broker.stop();
    store.close();
  }
}

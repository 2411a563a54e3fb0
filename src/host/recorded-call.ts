/**
 * A call a command asked for (`mcpx call`), made through the gateway the way a host's call is
 * (design rule 11): `upstream.call` with an owner, so the questions it raises are attributed
 * to it, and an upstream's -32042 resolved into URL questions and the call sent again. The
 * detached runner (`mcpx call --no-daemon`) and the daemon both make their calls here.
 */
import { GatewayError } from "../protocol/errors.js";
import type { JsonObject } from "../protocol/jsonrpc.js";
import type { Upstream } from "../upstream/upstream.js";
import type { Gateway } from "./gateway.js";
import { sendResolvingUrlRequired } from "./url-required.js";

export interface CallRequest {
  callId: string;
  server: string;
  tool: string;
  arguments: JsonObject;
}

export interface RecordedCallOptions {
  /** Aborting it cancels the call; its reason is what the call fails with. */
  signal: AbortSignal;
  /** The arguments as sent, given the upstream (`key=value` text is typed by the tool's inputSchema). */
  prepare?: (upstream: Upstream, given: JsonObject) => JsonObject;
  onProgress?: (params: JsonObject) => void;
}

/** The tool's result; throws what the call failed with (the signal's reason once it is aborted). */
export async function makeRecordedCall(gateway: Gateway, call: CallRequest, options: RecordedCallOptions): Promise<JsonObject> {
  const { signal } = options;
  const upstream = gateway.upstream(call.server);
  if (!upstream) throw new GatewayError("UPSTREAM_UNAVAILABLE", `no server named "${call.server}" in ${gateway.config.file}`);
  const stopped = new Promise<never>((_, reject) => {
    if (signal.aborted) reject(signal.reason as Error);
    signal.addEventListener("abort", () => reject(signal.reason as Error), { once: true });
  });
  stopped.catch(() => {}); // observed by the races below
  await Promise.race([upstream.start(), stopped]);
  const args = options.prepare ? options.prepare(upstream, call.arguments) : call.arguments;
  const owner = { tool: call.tool, callId: call.callId };
  const onProgress = options.onProgress;
  const calling = sendResolvingUrlRequired(gateway, upstream, owner, "tools/call", signal, () =>
    upstream.call("tools/call", { name: call.tool, arguments: args }, { owner, signal, ...(onProgress ? { onProgress } : {}) }),
  );
  return Promise.race([calling, stopped]);
}

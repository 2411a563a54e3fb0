/**
 * A host's `mcpx__exec` is the host's call (design rules 5 and 11): a `ForwardedCall` whose
 * owner is the exec request, so every call the script makes is of it (host/script-run.ts), its
 * questions reach this host inline in its era's way (a 2025-11-25 host on a JSON-only POST: -32042,
 * and the retry of the same mcpx__exec waits for the same run), and cancelling the request
 * stops the script.
 */
import { isObject, type JsonObject } from "../../protocol/jsonrpc.js";
import type { IncomingContext } from "../../rpc/peer.js";
import { ForwardedCall } from "../forwarded-call.js";
import type { Gateway } from "../gateway.js";
import { callKey } from "../parked-calls.js";
import { startRun } from "../script-run.js";
import type { CallerContext, HostSession } from "../session.js";
import { toolError } from "./answers.js";
import { scriptLimits } from "../../scripts/limits.js";
import { EXEC_FILENAME, EXEC_TOOL, execResult } from "./exec.js";

export async function serveExec(
  gateway: Gateway,
  session: HostSession,
  context: IncomingContext,
  params: JsonObject,
  legacyCaller: boolean,
): Promise<JsonObject> {
  const args = isObject(params.arguments) ? params.arguments : {};
  const { code } = args;
  if (typeof code !== "string" || code.trim() === "") {
    return toolError('give "code": the program to run, as a string of TypeScript (e.g. "const r = await server.tool({}); console.log(r)")');
  }
  const { method, id } = context.request;
  // The host's retry of an mcpx__exec it was answered -32042 for waits for the same run.
  const retryKey = (): string => callKey(method, params);
  const parked = gateway.parked.take(session, retryKey);
  if (parked) {
    gateway.log.info("a host retried an mcpx__exec it was answered -32042 for; it waits for that run", { session: session.id });
    return parked.serve(context, () => gateway.parked.park(session, retryKey(), parked));
  }
  const owner: CallerContext = { session, requestId: id };
  const call = new ForwardedCall(owner, EXEC_TOOL, async (signal) => {
    const running = await startRun(
      gateway,
      { code, language: "ts", filename: EXEC_FILENAME, args: [] },
      { run: owner, limits: scriptLimits(gateway.config.scripts), legacyCaller },
    );
    gateway.log.info("a host's script is running", { session: session.id });
    const stop = (): void => running.stop(`the host cancelled its ${EXEC_TOOL} call`);
    if (signal.aborted) stop();
    else signal.addEventListener("abort", stop, { once: true });
    try {
      const envelope = await running.done;
      gateway.log.info("a host's script ended", {
        session: session.id,
        ok: envelope.ok,
        calls: envelope.calls.length,
        ...(envelope.error ? { failure: envelope.error.kind } : {}),
      });
      return execResult(envelope);
    } finally {
      signal.removeEventListener("abort", stop);
    }
  });
  return call.serve(context, () => gateway.parked.park(session, retryKey(), call));
}

/**
 * A script run through the gateway (`mcpx__exec`, and `mcpx run`/`exec` in the daemon): the
 * tools the config lets hosts see become the script's globals, and each call the script makes
 * is a tool call on the path every call takes (design rule 11): on the caller's connection,
 * -32042 resolved, its questions raised by the run. `run` is the call the run itself is (a
 * host's `mcpx__exec` request, or a command's call id); every call the script makes is of it.
 */
import { scriptServers } from "../scripts/script-servers.js";
import { startScript } from "../scripts/run-script.js";
import type { RunningScript, ScriptLimits, ScriptSource, ToolCaller } from "../scripts/types.js";
import { GatewayError, invalidParams } from "../protocol/errors.js";
import type { JsonObject } from "../protocol/jsonrpc.js";
import type { Gateway } from "./gateway.js";
import { viewOf } from "./gateway-tools/answers.js";
import { discoveryName } from "../discovery/records.js";
import { withFixedArguments } from "./profile-view.js";
import type { CallerContext } from "./session.js";
import { sendResolvingUrlRequired } from "./url-required.js";

export interface RunOptions {
  /** The run as a call: its host session and request, or its call id in the store. */
  run: CallerContext;
  limits: ScriptLimits;
  /** A legacy host's run: calls to a server that speaks both eras go on its legacy lane. */
  legacyCaller?: boolean;
}

export async function startRun(gateway: Gateway, source: ScriptSource, options: RunOptions): Promise<RunningScript> {
  await gateway.start();
  const { run } = options;
  // The globals are the tools the caller sees: a host on a profile gets its profile's only.
  const host = gateway.viewFor(run.session);
  const view = viewOf(gateway, host);
  const servers = scriptServers(view.tools.map((tool) => tool.record));
  const caller: ToolCaller = async (server, tool, args, signal) => {
    const upstream = await gateway.connectionFor(run.session, server);
    if (!upstream) throw new GatewayError("UPSTREAM_UNAVAILABLE", `no server named "${server}"`);
    await upstream.start();
    const owner = callOfRun(run, tool);
    const listed = view.find(discoveryName(server, tool));
    const owned = listed && host.catalogue.tool(listed.exposed);
    // A tool that left the profile (a reload) while the script ran is not the profile's to call.
    if (!owned && host.profile !== undefined) throw invalidParams(`${server}.${tool} is not a tool of profile "${host.profile}"`);
    const params: JsonObject = { name: tool, arguments: owned ? withFixedArguments(owned, args) : args };
    return sendResolvingUrlRequired(gateway, upstream, owner, "tools/call", signal, () =>
      upstream.call("tools/call", params, { owner, signal, ...(options.legacyCaller ? { legacyCaller: true } : {}) }),
    );
  };
  const running = await startScript(source, servers, caller, options.limits);
  // Read when a question of the run arrives, which is never before the script has started.
  run.script = running;
  return running;
}

/**
 * One call the script makes, as the upstream layer and attribution see it: the run's session,
 * request (it moves to a host's retry) and call id, read through to the run, with this call's
 * tool and the run it is of.
 */
export function callOfRun(run: CallerContext, tool: string): CallerContext {
  return {
    run,
    get session() {
      return run.session;
    },
    get requestId() {
      return run.requestId;
    },
    get callId() {
      return run.callId;
    },
    get signal() {
      return run.signal;
    },
    get ended() {
      return run.ended;
    },
    get urlBlocked() {
      return run.urlBlocked;
    },
    tool,
  };
}

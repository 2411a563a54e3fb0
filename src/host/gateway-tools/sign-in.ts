/**
 * `mcpx__sign_in {server}`: listed to a host while a server it would reach waits for a sign-in
 * (its tools cannot be listed until someone has signed in, so no call of them could carry the
 * question). Calling it is the host's call of that sign-in: the question goes to this host
 * inline in its era's way (a 2025-11-25 host on a JSON-only POST: -32042, and the retry waits
 * for the same sign-in), the call ends once the person has signed in and the server has
 * started, and the host is sent `notifications/tools/list_changed` for its tools.
 */
import { isObject, type JsonObject } from "../../protocol/jsonrpc.js";
import type { IncomingContext } from "../../rpc/peer.js";
import { ForwardedCall } from "../forwarded-call.js";
import type { Gateway } from "../gateway.js";
import { callKey } from "../parked-calls.js";
import type { CallerContext, HostSession } from "../session.js";
import { toolError } from "./answers.js";

export const SIGN_IN_TOOL = "mcpx__sign_in";

/** The tool, naming the servers waiting for a sign-in (none: not listed). */
export function signInToolDefinitions(servers: readonly string[]): JsonObject[] {
  if (servers.length === 0) return [];
  const names = servers.map((name) => `"${name}"`).join(", ");
  return [
    {
      name: SIGN_IN_TOOL,
      description:
        `Sign in to a server behind mcpx that needs it before its tools can be used: ${names}. ` +
        "The person is asked to open the server's sign-in page (its full URL is shown); the call ends once they have signed in, and the server's tools are then listed.",
      inputSchema: {
        type: "object",
        properties: { server: { type: "string", enum: [...servers], description: "the server to sign in to" } },
        required: ["server"],
      },
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
    },
  ];
}

export async function serveSignIn(gateway: Gateway, session: HostSession, context: IncomingContext, params: JsonObject): Promise<JsonObject> {
  const args = isObject(params.arguments) ? params.arguments : {};
  const { server } = args;
  const waiting = gateway.serversAwaitingSignIn(session);
  if (typeof server !== "string" || !gateway.upstream(server)) {
    const names = waiting.length > 0 ? waiting.map((name) => `"${name}"`).join(", ") : "none now";
    return toolError(`give "server": the name of a server that needs a sign-in (${names})`);
  }
  const { method, id } = context.request;
  const retryKey = (): string => callKey(method, params);
  const parked = gateway.parked.take(session, retryKey);
  if (parked) return parked.serve(context, () => gateway.parked.park(session, retryKey(), parked));
  const owner: CallerContext = { session, requestId: id };
  const call = new ForwardedCall(owner, server, async (signal) => {
    const upstream = await gateway.connectionFor(session, server);
    if (!upstream) return toolError(`no server is named "${server}"`);
    if (upstream.signInNeeded === undefined && upstream.state === "ready")
      return { content: [{ type: "text", text: `"${server}" needs no sign-in now: it is ready.` }] };
    gateway.log.info("a host asks to sign in", { session: session.id, server });
    await upstream.askToSignIn(owner, signal);
    if (upstream.state === "ready") {
      const tools = upstream.catalog.tools.length;
      return {
        content: [
          { type: "text", text: `Signed in to "${server}": it is ready, with ${tools} tool${tools === 1 ? "" : "s"} (list the tools again to see them).` },
        ],
      };
    }
    return toolError(upstream.reason ?? `"${server}" is ${upstream.state}`);
  });
  return call.serve(context, () => gateway.parked.park(session, retryKey(), call));
}

/**
 * `mcpx__call {name, arguments}` is a host's `tools/call` of that tool (design rule 11): it is
 * unwrapped here into the very params a direct call would have, and dispatch forwards those on
 * the one path every call takes (attribution, questions inline, -32042 and its retry, progress,
 * cancellation, timeouts). Everything but `name` and `arguments` (`_meta` and its progress
 * token, a task) stays as the host sent it.
 */
import { isObject, type JsonObject } from "../../protocol/jsonrpc.js";
import type { Owned } from "../catalogue.js";
import type { Gateway } from "../gateway.js";
import type { HostSession } from "../session.js";
import { toolError, unknownToolLine, viewOf } from "./answers.js";

export type Unwrapped = { params: JsonObject; owned: Owned } | { refusal: JsonObject };

export async function unwrapCall(gateway: Gateway, session: HostSession, params: JsonObject): Promise<Unwrapped> {
  const args = isObject(params.arguments) ? params.arguments : {};
  const { name, arguments: inner } = args;
  if (typeof name !== "string" || name === "") return { refusal: toolError('give "name": the SERVER__TOOL name of the tool to call (from mcpx__search)') };
  if (inner !== undefined && !isObject(inner)) return { refusal: toolError('"arguments" must be an object: the tool\'s arguments') };
  // The host's own view: a tool its profile leaves out is no more callable by its SERVER__TOOL name than by any other.
  const host = gateway.viewFor(session);
  const view = viewOf(gateway, host);
  const found = view.find(name);
  const owned = found && host.catalogue.tool(found.exposed);
  if (!found || !owned) return { refusal: toolError(await unknownToolLine(gateway, session, view, name)) };
  return { params: { ...params, name: found.exposed, arguments: inner ?? {} }, owned };
}

/** The tool a modern host's mcpx__call is for, and its arguments: what a retry's requestState is bound to. */
export function callTarget(params: JsonObject): { name: string; arguments: unknown } | undefined {
  const args = isObject(params.arguments) ? params.arguments : undefined;
  return typeof args?.name === "string" ? { name: args.name, arguments: args.arguments ?? {} } : undefined;
}

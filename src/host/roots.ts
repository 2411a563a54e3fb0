/**
 * `roots/list` from an upstream is never an open question (design rule 10): the roots are the
 * gateway's. mcpx answers from the server's `roots` in the config, else the top-level `roots`;
 * for a connection of one host's own, that host's roots when it declared the capability (and
 * for a 2026-07-28 server, which asks within one request, the roots of that request's host, when
 * the call is proven); else an empty list. Who happens to answer first, an agent or a broad
 * rule, never chooses them.
 */
import { isObject, type JsonObject } from "../protocol/jsonrpc.js";
import { canListRoots } from "../render/host.js";
import type { Upstream } from "../upstream/upstream.js";
import type { Logger } from "../util/log.js";
import type { Config } from "../config/types.js";
import type { HostSession } from "./session.js";
import type { Route } from "../rpc/channel.js";

/** How long a host is given to say its roots before the answer is an empty list. */
const HOST_ROOTS_TIMEOUT_MS = 5_000;

/** Where this connection's roots come from. */
export function rootsSource(config: Config, upstream: Upstream, connectionOwner: HostSession | undefined): "config" | "host" | "none" {
  if (upstream.config.roots ?? config.roots) return "config";
  const profile = connectionOwner?.profile();
  return profile && canListRoots(profile) ? "host" : "none";
}

/** A 2026-07-28 server's roots input request: its key, and the call it came in (where a legacy host is asked). */
export interface RootsInput {
  inputKey: string;
  route?: Route;
}

/**
 * @param owner the host whose roots these are: the connection's own host, or for a 2026-07-28
 *   server's input request (`input`), the host of the call it belongs to.
 */
export async function answerRoots(config: Config, upstream: Upstream, owner: HostSession | undefined, log: Logger, input?: RootsInput): Promise<JsonObject> {
  const configured = upstream.config.roots ?? config.roots;
  if (configured) return { roots: configured.map((root) => ({ ...root })) };
  if (owner && rootsSource(config, upstream, owner) === "host") {
    try {
      // A legacy host is sent roots/list; a modern one gets it as an input request of its call.
      const options = { timeoutMs: HOST_ROOTS_TIMEOUT_MS, ...(input?.route ? { route: input.route } : {}) };
      const result = await owner.askInline(input?.inputKey ?? "roots", "roots/list", {}, options);
      return { roots: Array.isArray(result.roots) ? result.roots.filter((root) => isObject(root) && typeof root.uri === "string") : [] };
    } catch (error) {
      log.warn("the host did not say its roots; answering an empty list", { server: upstream.name, session: owner.id, error });
    }
  }
  return { roots: [] };
}

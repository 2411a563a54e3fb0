/**
 * `roots/list` from an upstream is never an open question (design rule 10): the roots are the
 * gateway's. mcpx answers from the server's `roots` in the config, else the top-level `roots`;
 * for a connection of one host's own, that host's roots when it declared the capability; else
 * an empty list. Who happens to answer first, an agent or a broad rule, never chooses them.
 */
import { isObject, type JsonObject } from "../protocol/jsonrpc.js";
import { canListRoots } from "../render/host.js";
import type { Upstream } from "../upstream/upstream.js";
import type { Logger } from "../util/log.js";
import type { Config } from "../config/types.js";
import type { HostSession } from "./session.js";

/** How long a host is given to say its roots before the answer is an empty list. */
const HOST_ROOTS_TIMEOUT_MS = 5_000;

/** Where this connection's roots come from. */
export function rootsSource(config: Config, upstream: Upstream, connectionOwner: HostSession | undefined): "config" | "host" | "none" {
  if (upstream.config.roots ?? config.roots) return "config";
  const profile = connectionOwner?.profile();
  return profile && canListRoots(profile) ? "host" : "none";
}

export async function answerRoots(config: Config, upstream: Upstream, connectionOwner: HostSession | undefined, log: Logger): Promise<JsonObject> {
  const configured = upstream.config.roots ?? config.roots;
  if (configured) return { roots: configured.map((root) => ({ ...root })) };
  if (connectionOwner && rootsSource(config, upstream, connectionOwner) === "host") {
    try {
      const result = await connectionOwner.peer.request("roots/list", undefined, { timeoutMs: HOST_ROOTS_TIMEOUT_MS });
      return { roots: Array.isArray(result.roots) ? result.roots.filter((root) => isObject(root) && typeof root.uri === "string") : [] };
    } catch (error) {
      log.warn("the host did not say its roots; answering an empty list", { server: upstream.name, session: connectionOwner.id, error });
    }
  }
  return { roots: [] };
}

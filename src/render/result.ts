/** The outcome of rendering a question for one host. */

import type { JsonObject } from "../protocol/jsonrpc.js";

/**
 * Either the request to send (method and params, a fresh object the caller may keep), or
 * why this host may not be sent the question. Not sendable is not an error (design rule 1):
 * the question stays in the broker for its other audiences.
 */
export type RenderResult = { sendable: true; method: string; params: JsonObject } | { sendable: false; reason: string };

export function sendable(method: string, params: JsonObject): RenderResult {
  return { sendable: true, method, params };
}

export function refused(reason: string): RenderResult {
  return { sendable: false, reason };
}

/**
 * What mcpx declares as a client to an upstream, per era: the capabilities a legacy
 * `initialize` offers (shaped for the revision offered) and the `_meta` envelope every
 * 2026-07-28 request carries in place of a session.
 */
import type { JsonObject } from "../protocol/jsonrpc.js";
import { withEnvelope } from "../protocol/modern.js";
import { defines, type Revision } from "../protocol/revisions.js";
import { IMPLEMENTATION } from "../version.js";

/**
 * What mcpx declares to a 2026-07-28 server in every request: it can take every kind of
 * question (the broker holds what no host can answer), as it declares to legacy servers.
 */
export const MODERN_CAPABILITIES: JsonObject = { roots: {}, sampling: {}, elicitation: { form: {}, url: {} } };

/** What mcpx declares as a client in `initialize`, shaped for the revision it offers. */
export function legacyClientCapabilities(revision: Revision): JsonObject {
  const capabilities: JsonObject = { roots: { listChanged: true }, sampling: {} };
  if (defines(revision, "elicitation")) {
    capabilities.elicitation = defines(revision, "elicitationUrl") ? { form: {}, url: {} } : {};
  }
  return capabilities;
}

/** The 2026-07-28 `_meta` envelope on a request's params; the log level only once a host set one. */
export function modernEnvelope(
  params: JsonObject | undefined,
  protocolVersion: Revision,
  clientCapabilities: JsonObject = MODERN_CAPABILITIES,
  logLevel?: string,
): JsonObject {
  return withEnvelope(params, {
    protocolVersion,
    clientCapabilities,
    clientInfo: { ...IMPLEMENTATION },
    ...(logLevel === undefined ? {} : { logLevel }),
  });
}

/**
 * What mcpx knows about a host when deciding what it may be asked: the revision it
 * negotiated and the client capabilities it declared. Every helper here is a pure reading
 * of those two facts; none of them looks at a question's schema.
 */

import { isObject, type JsonObject } from "../protocol/jsonrpc.js";
import { defines, type Revision } from "../protocol/revisions.js";
import type { ElicitationMode } from "./question.js";

/** A host as the render layer sees it. */
export interface HostProfile {
  revision: Revision;
  /**
   * The `ClientCapabilities` the host declared: at `initialize` in the legacy era, on the
   * request's `_meta` in the modern era (the caller picks the right one).
   */
  capabilities: JsonObject;
}

/**
 * A capability counts as declared when its key is present with an object value. The schemas
 * make every capability an object, and `elicitation: {}` (empty) is a real declaration.
 */
function declared(parent: unknown, key: string): boolean {
  return isObject(parent) && isObject(parent[key]);
}

/**
 * The elicitation modes the host may be sent.
 *
 * - Revisions without elicitation: none, whatever the host declared.
 * - 2025-06-18: any `elicitation` object means form (the revision has no modes).
 * - 2025-11-25 on: `form` and `url` as declared; an `elicitation` object naming neither is
 *   form only ("an empty capabilities object is equivalent to declaring support for form
 *   mode only"). A url-only declaration does not get form: the host said what it supports.
 */
export function elicitationModes(host: HostProfile): Set<ElicitationMode> {
  const modes = new Set<ElicitationMode>();
  if (!defines(host.revision, "elicitation")) return modes;
  const elicitation = host.capabilities.elicitation;
  if (!isObject(elicitation)) return modes;
  if (!defines(host.revision, "elicitationUrl")) return modes.add("form");
  const form = declared(elicitation, "form");
  const url = declared(elicitation, "url");
  if (form || !url) modes.add("form");
  if (url) modes.add("url");
  return modes;
}

/** Does the request ask the model to use tools (`tools` or `toolChoice` present)? */
export function usesSamplingTools(params: JsonObject | undefined): boolean {
  return params !== undefined && (params.tools !== undefined || params.toolChoice !== undefined);
}

/**
 * Why the host may not be sent this `sampling/createMessage`, or `undefined` if it may.
 * With `tools`/`toolChoice` the spec makes a client without `sampling.tools` return an
 * error, so such a request needs that declaration and a revision that defines it.
 */
export function samplingRefusal(host: HostProfile, params?: JsonObject): string | undefined {
  if (!declared(host.capabilities, "sampling")) return 'the host did not declare the "sampling" capability';
  if (!usesSamplingTools(params)) return undefined;
  if (!defines(host.revision, "samplingTools")) {
    return `the request offers the model tools, and revision ${host.revision} has no tool use in sampling`;
  }
  if (!declared(host.capabilities.sampling, "tools")) {
    return 'the request offers the model tools, and the host did not declare "sampling.tools"';
  }
  return undefined;
}

/** May the host be sent this `sampling/createMessage` (capability-wise; see `samplingRefusal`)? */
export function canSample(host: HostProfile, params?: JsonObject): boolean {
  return samplingRefusal(host, params) === undefined;
}

/** May the host be sent `roots/list`? Roots exist in every revision; only the declaration counts. */
export function canListRoots(host: HostProfile): boolean {
  return declared(host.capabilities, "roots");
}

/**
 * The client capabilities this host would have had to declare to be sent the question, when
 * that is all it lacks (the `requiredCapabilities` of a 2026-07-28 `-32021`): `elicitation`
 * (with `url` for a URL question) or `sampling` (with `tools` when the model is offered tools).
 * Undefined when the host declared them, or when its revision, not its declaration, is why.
 */
export function missingCapabilities(question: { method: string; mode?: ElicitationMode; params: JsonObject }, host: HostProfile): JsonObject | undefined {
  if (question.method === "sampling/createMessage") {
    const tools = usesSamplingTools(question.params);
    if (tools && !defines(host.revision, "samplingTools")) return undefined;
    if (!declared(host.capabilities, "sampling")) return { sampling: tools ? { tools: {} } : {} };
    return tools && !declared(host.capabilities.sampling, "tools") ? { sampling: { tools: {} } } : undefined;
  }
  const mode = question.mode ?? "form";
  if (!defines(host.revision, "elicitation") || (mode === "url" && !defines(host.revision, "elicitationUrl"))) return undefined;
  if (elicitationModes(host).has(mode)) return undefined;
  return { elicitation: mode === "url" ? { url: {} } : defines(host.revision, "elicitationUrl") ? { form: {} } : {} };
}

/**
 * Which fields each kind of object gained after 2024-11-05, and the feature that brought each.
 *
 * Derived from diffing the JSON Schemas of the legacy revisions. A field that is not listed exists
 * in every legacy revision (e.g. `Resource.size` and content `annotations` with audience/priority
 * are already in 2024-11-05), or its whole object is handled elsewhere (audio, resource links).
 */
import type { JsonObject } from "../jsonrpc.js";
import { defines, type Feature, type Revision } from "../revisions.js";

export const GATED_FIELDS = {
  tool: {
    title: "title",
    icons: "icons",
    annotations: "toolAnnotations",
    outputSchema: "outputSchema",
    execution: "toolExecution",
    _meta: "primitiveMeta",
  },
  resource: { title: "title", icons: "icons", _meta: "primitiveMeta" },
  resourceTemplate: { title: "title", icons: "icons", _meta: "primitiveMeta" },
  prompt: { title: "title", icons: "icons", _meta: "primitiveMeta" },
  promptArgument: { title: "title" },
  /** Content and resource annotations; a tool's `annotations` are another type (ToolAnnotations). */
  annotations: { lastModified: "annotationsLastModified" },
  /** Text, image, audio and embedded-resource blocks. */
  content: { _meta: "contentMeta" },
  /** Title, size and `_meta` came with resource links themselves (2025-06-18). */
  resourceLink: { icons: "icons" },
  /** Text and blob resource contents, embedded or read. */
  resourceContents: { _meta: "contentMeta" },
  callToolResult: { structuredContent: "structuredContent" },
  progressParams: { message: "progressMessage", _meta: "notificationParamsMeta" },
  /** Params of notifications/message, resources/updated and cancelled. */
  notificationParams: { _meta: "notificationParamsMeta" },
} as const satisfies Record<string, Record<string, Feature>>;

export type Kind = keyof typeof GATED_FIELDS;

/** A copy of `object` without the fields of `kind` that `revision` does not define. */
export function omitLacking(object: JsonObject, kind: Kind, revision: Revision): JsonObject {
  const gated: Partial<Record<string, Feature>> = GATED_FIELDS[kind];
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(object)) {
    // Keys come from the wire: only the table's own entries count, never Object.prototype's.
    const feature = Object.hasOwn(gated, key) ? gated[key] : undefined;
    if (feature === undefined || defines(revision, feature)) out[key] = value;
  }
  return out;
}

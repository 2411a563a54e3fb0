/**
 * Downgrading content blocks, annotations and resource contents for an older protocol revision.
 * Pure: every function returns new objects and never mutates its input.
 */
import { isObject, type JsonObject } from "../jsonrpc.js";
import { defines, type Revision } from "../revisions.js";
import { omitLacking } from "./fields.js";

/** `annotations` (content or resource) without the fields `revision` lacks; dropped if that empties it. */
export function withAnnotations(object: JsonObject, revision: Revision): JsonObject {
  const annotations = object.annotations;
  if (!isObject(annotations)) return object;
  const kept = omitLacking(annotations, "annotations", revision);
  const { annotations: _dropped, ...rest } = object;
  // An annotations object emptied by the downgrade says nothing; an empty one from upstream stays.
  if (Object.keys(kept).length === 0 && Object.keys(annotations).length > 0) return rest;
  return { ...object, annotations: kept };
}

/** Text or blob resource contents (embedded in a block or read with resources/read). */
export function downgradeResourceContents(contents: JsonObject, revision: Revision): JsonObject {
  return omitLacking(contents, "resourceContents", revision);
}

/** The fields every content block shares: `_meta` and `annotations`. */
function common(block: JsonObject, revision: Revision): JsonObject {
  return withAnnotations(omitLacking(block, "content", revision), revision);
}

/**
 * A text block standing in for a block the revision cannot carry. It keeps the original's
 * annotations so that, say, a block meant only for the user stays that way.
 */
function textInstead(block: JsonObject, text: string, revision: Revision): JsonObject {
  const replacement: JsonObject = { type: "text", text };
  if (block.annotations !== undefined) replacement.annotations = block.annotations;
  return common(replacement, revision);
}

function audioPlaceholder(block: JsonObject): string {
  const mimeType = typeof block.mimeType === "string" ? block.mimeType : "audio";
  return `[audio omitted: ${mimeType} — this client's protocol revision cannot carry audio]`;
}

/** Names the link so that the model or the user can still ask for it with resources/read. */
function linkDescription(block: JsonObject): string {
  const name = String(block.name ?? block.uri);
  const label = typeof block.title === "string" && block.title !== name ? `${block.title} (${name})` : name;
  let text = `[resource link: ${label} <${String(block.uri)}>`;
  if (typeof block.mimeType === "string") text += `, ${block.mimeType}`;
  if (typeof block.description === "string") text += ` — ${block.description}`;
  return `${text}]`;
}

/**
 * A content block as `revision` can carry it: unknown fields of known kinds removed, audio
 * (before 2025-03-26) and resource links (before 2025-06-18) replaced by a text block saying
 * what was there. Blocks of unknown type are returned as a copy, unchanged.
 */
export function downgradeContentBlock(block: JsonObject, revision: Revision): JsonObject {
  switch (block.type) {
    case "text":
    case "image":
      return common(block, revision);
    case "audio":
      return defines(revision, "audioContent") ? common(block, revision) : textInstead(block, audioPlaceholder(block), revision);
    case "resource_link":
      return defines(revision, "resourceLink")
        ? common(omitLacking(block, "resourceLink", revision), revision)
        : textInstead(block, linkDescription(block), revision);
    case "resource": {
      const out = common(block, revision);
      if (isObject(out.resource)) out.resource = downgradeResourceContents(out.resource, revision);
      return out;
    }
    default:
      return { ...block };
  }
}

/**
 * Downgrading the results of client requests (what a server answers a host) per method.
 * Pure: every function returns new objects and never mutates its input.
 */
import { isObject, type JsonObject } from "../jsonrpc.js";
import type { Revision } from "../revisions.js";
import { downgradeContentBlock, downgradeResourceContents, withAnnotations } from "./content.js";
import { omitLacking } from "./fields.js";
import { lookupTable } from "../lookup.js";

type Rewrite = (object: JsonObject, revision: Revision) => JsonObject;

/** Rewrite each object of the array at `key`, leaving anything else as it is. */
function eachOf(key: string, rewrite: Rewrite): Rewrite {
  return (object, revision) => {
    const list = object[key];
    if (!Array.isArray(list)) return object;
    return { ...object, [key]: list.map((item: unknown) => (isObject(item) ? rewrite(item, revision) : item)) };
  };
}

const tool: Rewrite = (value, revision) => omitLacking(value, "tool", revision);

const resource: Rewrite = (value, revision) => withAnnotations(omitLacking(value, "resource", revision), revision);

const resourceTemplate: Rewrite = (value, revision) => withAnnotations(omitLacking(value, "resourceTemplate", revision), revision);

const prompt: Rewrite = (value, revision) =>
  eachOf("arguments", (argument, r) => omitLacking(argument, "promptArgument", r))(omitLacking(value, "prompt", revision), revision);

const promptMessage: Rewrite = (message, revision) =>
  isObject(message.content) ? { ...message, content: downgradeContentBlock(message.content, revision) } : message;

/** Deep equality of two JSON values. */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => sameJson(item, b[i]));
  }
  if (!isObject(a) || !isObject(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && sameJson(a[key], b[key]));
}

/** Does some text block already carry `value` serialized, as the spec asks tools to do? */
function carries(content: unknown[], value: unknown): boolean {
  return content.some((block) => {
    if (!isObject(block) || block.type !== "text" || typeof block.text !== "string") return false;
    try {
      return sameJson(JSON.parse(block.text), value);
    } catch {
      return false;
    }
  });
}

/**
 * Content blocks downgraded one by one. A `structuredContent` the revision cannot carry is
 * dropped; unless a text block already holds it, its JSON is added as one, which is what the
 * spec recommends tools do for clients that do not read `structuredContent`.
 */
const callToolResult: Rewrite = (result, revision) => {
  const out = omitLacking(eachOf("content", downgradeContentBlock)(result, revision), "callToolResult", revision);
  if (result.structuredContent === undefined || "structuredContent" in out) return out;
  const content = Array.isArray(out.content) ? out.content : [];
  if (carries(content, result.structuredContent)) return out;
  return { ...out, content: [...content, { type: "text", text: JSON.stringify(result.structuredContent) }] };
};

/** Per method, how its result is downgraded. Methods not listed need nothing. */
export const RESULT_REWRITES = lookupTable<Rewrite>({
  "tools/list": eachOf("tools", tool),
  "tools/call": callToolResult,
  "resources/list": eachOf("resources", resource),
  "resources/templates/list": eachOf("resourceTemplates", resourceTemplate),
  "resources/read": eachOf("contents", downgradeResourceContents),
  "prompts/list": eachOf("prompts", prompt),
  "prompts/get": eachOf("messages", promptMessage),
});

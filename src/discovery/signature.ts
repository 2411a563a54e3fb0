/**
 * One-line signatures of tools, for `mcpx catalog` and search listings:
 * `SERVER__TOOL(path: string, limit?: number) — First sentence of the description.`
 *
 * Always one line and bounded: nested objects are summarised (`{…}`), long enums become their
 * base type, parameters past the bound become `…` (required ones first, so they survive),
 * and the description is cut to its first sentence. Pure.
 */
import type { ToolRecord } from "./records.js";

/** Bounds, in characters: the parameter list, and the description after the dash. */
const MAX_PARAMETERS = 120;
const MAX_SUMMARY = 100;
const MAX_ENUM = 4;

export function signature(tool: ToolRecord): string {
  const summary = firstSentence(tool.description || tool.title || "");
  return `${oneLine(tool.name)}(${parameters(tool.inputSchema)})${summary ? ` — ${summary}` : ""}`;
}

/** The parameter list, required ones first, cut with `…` at the bound. */
export function parameters(schema: unknown): string {
  if (!isNode(schema) || !isNode(schema.properties)) return "";
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const all = Object.entries(schema.properties).map(([key, property]) => ({
    required: required.has(key),
    text: `${oneLine(/^[\p{L}\p{N}_$-]+$/u.test(key) ? key : JSON.stringify(key))}${required.has(key) ? "" : "?"}: ${shortType(property, 0, schema)}`,
  }));
  const ordered = [...all.filter((p) => p.required), ...all.filter((p) => !p.required)];
  const shown: string[] = [];
  let length = 0;
  for (const parameter of ordered) {
    if (length + parameter.text.length > MAX_PARAMETERS) {
      shown.push("…");
      break;
    }
    shown.push(parameter.text);
    length += parameter.text.length + 2;
  }
  return shown.join(", ");
}

/** A short type: primitives, small enums as literals, arrays of those, objects as `{…}`. */
function shortType(schema: unknown, depth: number, root: unknown): string {
  if (!isNode(schema)) return schema === false ? "never" : "any";
  if (typeof schema.$ref === "string") return depth < 3 ? shortType(pointer(root, schema.$ref), depth + 1, root) : "any";
  if ("const" in schema) return literal(schema.const) ?? "any";
  if (Array.isArray(schema.enum)) {
    const literals = schema.enum.map(literal);
    if (literals.length > 0 && literals.length <= MAX_ENUM && literals.every((text) => text !== undefined && text.length <= 24)) return literals.join("|");
  }
  const alternatives = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : undefined;
  if (alternatives && depth < 2) {
    const members = [...new Set(alternatives.map((member) => shortType(member, depth + 1, root)))].filter((member) => member !== "never");
    return members.length > 3 ? `${members.slice(0, 3).join("|")}|…` : members.join("|") || "any";
  }
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter((type): type is string => typeof type === "string");
  if (types.length === 0) {
    if (isNode(schema.properties)) return "{…}";
    if ("items" in schema) types.push("array");
    else return "any";
  }
  return types
    .map((type) => {
      if (type === "integer") return "number";
      if (type === "object") return isNode(schema.properties) && Object.keys(schema.properties).length > 0 ? "{…}" : "object";
      if (type === "array") {
        const item = depth < 2 && isNode(schema.items) ? shortType(schema.items, depth + 1, root) : "any";
        return item.includes("|") ? `(${item})[]` : `${item}[]`;
      }
      return ["string", "number", "boolean", "null"].includes(type) ? type : "any";
    })
    .join("|");
}

/** The description's first sentence (or line), on one line, at most MAX_SUMMARY characters. */
export function firstSentence(text: string): string {
  const line = oneLine(text.trim().split(/\n\s*\n|\n(?=\s*[-*#|])/)[0] ?? "");
  // A list number ("1. ") or an abbreviation ("e.g. ") does not end a sentence. The CJK full stop,
  // exclamation and question marks are escaped: one character past ASCII in the hot path's bundle
  // makes V8 hold and scan all of its source as two-byte text.
  const end = /(?<!\b(?:\d+|e\.g|i\.e|etc|vs|incl|approx))[.!?](?=\s|$)|[\u3002\uff01\uff1f]/iu.exec(line);
  const sentence = end ? line.slice(0, end.index + end[0].length) : line;
  if (sentence.length <= MAX_SUMMARY) return sentence;
  const cut = sentence.slice(0, MAX_SUMMARY - 1);
  const space = cut.lastIndexOf(" ");
  return `${space > MAX_SUMMARY / 2 ? cut.slice(0, space) : cut}…`;
}

/** Whitespace of any kind (newlines, U+2028) as single spaces, control characters gone. */
export function oneLine(text: string): string {
  return (
    text
      // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
      .replace(/[\u0000-\u0008\u000e-\u001f\u007f-\u009f]/g, "")
      .replace(/\s+/gu, " ")
      .trim()
  );
}

/** What a `#/…` JSON pointer points at in the root schema (undefined for anything else). */
function pointer(root: unknown, ref: string): unknown {
  if (ref !== "#" && !ref.startsWith("#/")) return undefined;
  let node = root;
  for (const raw of ref === "#" ? [] : ref.slice(2).split("/")) {
    const key = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (!isNode(node) && !Array.isArray(node)) return undefined;
    node = Object.hasOwn(node, key) ? (node as Record<string, unknown>)[key] : undefined;
  }
  return node;
}

function literal(value: unknown): string | undefined {
  if (typeof value === "string") return JSON.stringify(oneLine(value));
  if (typeof value === "number" || typeof value === "boolean" || value === null) return String(value);
  return undefined;
}

function isNode(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * A JSON Schema as a TypeScript type expression, for the declarations `mcpx types` prints.
 *
 * Upstream schemas are untrusted and of every draft: anything this does not understand becomes
 * `unknown` (never a compile error), `$ref`s that point inside the schema become named types so
 * recursion stays finite, and the work per schema is bounded. Pure.
 */
import { docComment } from "./doc-comment.js";
import { propertyKey, type TypeNames } from "./ts-names.js";

type Node = Record<string, unknown>;

/** How deep a schema is followed, and how many of its nodes are rendered, before `unknown`. */
const MAX_DEPTH = 24;
const MAX_NODES = 4000;
/** Object types shorter than this, with no doc comment inside, stay on one line. */
const ONE_LINE = 80;
/**
 * What a type alias's top reaching itself again adds: nothing. A union drops it (A = A | string
 * is string), an intersection too (A = A & B is B); only if nothing else is left is it `unknown`.
 */
const CYCLE = "\u0000cycle";

export interface SchemaTypes {
  /** The root schema's type expression, indented for its place. */
  type: string;
  /** `export type Name = …;` for each `$ref` target, to print beside the root's use. */
  definitions: string[];
}

/** The TypeScript for one schema; hoisted names are `${prefix}_…`, taken from `names`. */
export function schemaTypes(root: unknown, names: TypeNames, prefix: string, indent = ""): SchemaTypes {
  const renderer = new Renderer(root, names, prefix);
  const type = settled(renderer.type(root, 0, true, indent));
  return { type, definitions: renderer.definitions() };
}

/** The doc comment a property's schema earns: its description and the constraints worth knowing. */
export function schemaDoc(schema: unknown): string {
  if (!isNode(schema)) return "";
  const tags: string[] = [];
  for (const key of [
    "default",
    "format",
    "pattern",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
  ]) {
    if (schema[key] !== undefined && !(key === "default" && (schema[key] === null || schema[key] === "")))
      tags.push(`@${key} ${abbreviate(JSON.stringify(schema[key]) ?? "")}`);
  }
  if (schema.deprecated === true) tags.push("@deprecated");
  const description = typeof schema.description === "string" ? schema.description.trim() : "";
  return [description, tags.join(" ")].filter(Boolean).join(description.includes("\n") ? "\n" : " ");
}

class Renderer {
  readonly #root: unknown;
  /** Each `$ref` target, by identity, and the name it is declared under. */
  readonly #targets = new Map<Node, string>();
  /** Targets being expanded in place (see `#reference`), so a cycle of them ends (in CYCLE). */
  readonly #expanding = new Set<Node>();
  #nodes = 0;

  constructor(root: unknown, names: TypeNames, prefix: string) {
    this.#root = root;
    this.#collect(root, names, prefix, new Set(), 0);
  }

  definitions(): string[] {
    return [...this.#targets].map(([target, name]) => `export type ${name} = ${settled(this.#body(target, 0, false, ""))};\n`);
  }

  /**
   * `guarded`: whether the position is inside an object or array type, where a type alias may
   * name itself; at the top of an alias (a union, an intersection) it may not.
   */
  type(node: unknown, depth: number, guarded: boolean, indent: string): string {
    if (isNode(node)) {
      const name = this.#targets.get(node);
      if (name !== undefined) return this.#reference(node, name, depth, guarded, indent);
    }
    return this.#body(node, depth, guarded, indent);
  }

  #reference(target: Node, name: string, depth: number, guarded: boolean, indent: string): string {
    if (guarded || rendersAsObjectOrArray(target)) return name;
    // An alias whose top is a union may not reach itself through other aliases' tops: spell it out here.
    if (this.#expanding.has(target)) return CYCLE;
    this.#expanding.add(target);
    const type = this.#body(target, depth + 1, guarded, indent);
    this.#expanding.delete(target);
    return type;
  }

  #body(node: unknown, depth: number, guarded: boolean, indent: string): string {
    if (node === false) return "never";
    if (!isNode(node) || depth > MAX_DEPTH || ++this.#nodes > MAX_NODES) return "unknown";
    if (typeof node.$ref === "string") {
      const target = this.#resolve(node.$ref);
      return target === undefined ? "unknown" : this.type(target, depth + 1, guarded, indent);
    }
    const parts: string[] = [];
    const own = this.#own(node, depth, indent);
    if (own !== undefined) parts.push(own);
    for (const key of ["anyOf", "oneOf"]) {
      const members = node[key];
      if (Array.isArray(members)) parts.push(union(members.map((member) => this.type(member, depth + 1, guarded, indent))));
    }
    if (Array.isArray(node.allOf)) parts.push(...node.allOf.map((member) => this.type(member, depth + 1, guarded, indent)));
    if (isNode(node.not) && Object.keys(node.not).length === 0) parts.push("never");
    const type = intersection(parts);
    return node.nullable === true ? union([type, "null"]) : type;
  }

  /** What the node's own keywords say (`const`, `enum`, `type` or what implies it), if anything. */
  #own(node: Node, depth: number, indent: string): string | undefined {
    if ("const" in node) return literal(node.const);
    if (Array.isArray(node.enum)) return node.enum.length === 0 ? "never" : union(node.enum.map(literal));
    const types = typeof node.type === "string" ? [node.type] : Array.isArray(node.type) ? node.type.filter((t) => typeof t === "string") : [];
    if (types.length === 0) {
      if (["properties", "additionalProperties", "patternProperties", "required"].some((key) => key in node)) types.push("object");
      else if ("items" in node || "prefixItems" in node) types.push("array");
      else return undefined;
    }
    return union(
      types.map((type) => {
        if (type === "string" || type === "boolean" || type === "null") return type;
        if (type === "number" || type === "integer") return "number";
        if (type === "object") return this.#object(node, depth, indent);
        if (type === "array") return this.#array(node, depth, indent);
        return "unknown";
      }),
    );
  }

  #object(node: Node, depth: number, indent: string): string {
    const inner = `${indent}  `;
    const properties = isNode(node.properties) ? Object.entries(node.properties) : [];
    const required = new Set(Array.isArray(node.required) ? node.required.filter((key) => typeof key === "string") : []);
    const members = properties.map(([key, schema]) => ({ key, schema, type: this.type(schema, depth + 1, true, inner), optional: !required.has(key) }));
    for (const key of required) if (!properties.some(([name]) => name === key)) members.push({ key, schema: true, type: "unknown", optional: false });
    const extra: string[] = [];
    if (isNode(node.additionalProperties)) extra.push(this.type(node.additionalProperties, depth + 1, true, inner));
    if (isNode(node.patternProperties)) extra.push(...Object.values(node.patternProperties).map((schema) => this.type(schema, depth + 1, true, inner)));
    if (members.length === 0 && extra.length === 0) return "properties" in node || node.additionalProperties === false ? "{}" : "{ [key: string]: unknown }";
    const lines: Member[] = members.map(({ key, schema, type, optional }) => ({
      doc: schemaDoc(schema),
      text: `${propertyKey(key)}${optional ? "?" : ""}: ${type}`,
    }));
    if (extra.length > 0) {
      // An index signature must admit every named property's type too (TypeScript checks them against it).
      const named = members.flatMap(({ type, optional }) => (optional ? [type, "undefined"] : [type]));
      lines.push({ doc: "", text: `[key: string]: ${union([...extra, ...named])}` });
    }
    return objectLiteral(lines, indent);
  }

  #array(node: Node, depth: number, indent: string): string {
    const tuple = Array.isArray(node.prefixItems) ? node.prefixItems : Array.isArray(node.items) ? node.items : undefined;
    if (tuple === undefined) return `${parenthesised(this.type(node.items ?? true, depth + 1, true, indent))}[]`;
    const rest = Array.isArray(node.prefixItems) ? node.items : node.additionalItems;
    const minItems = typeof node.minItems === "number" ? node.minItems : 0;
    const elements = tuple.map((item, i) => {
      const type = this.type(item, depth + 1, true, indent);
      return i < minItems ? type : `${parenthesised(type)}?`;
    });
    if (rest !== false) elements.push(`...${parenthesised(this.type(rest ?? true, depth + 1, true, indent))}[]`);
    return `[${elements.join(", ")}]`;
  }

  /** A `#…` JSON pointer into the root schema; undefined for anything else or a dangling one. */
  #resolve(ref: string): unknown {
    if (ref !== "#" && !ref.startsWith("#/")) return undefined;
    let node: unknown = this.#root;
    for (const raw of ref === "#" ? [] : ref.slice(2).split("/")) {
      const segment = decodeSegment(raw);
      if (segment === undefined || node === null || typeof node !== "object" || !Object.hasOwn(node, segment)) return undefined;
      node = (node as Record<string, unknown>)[segment];
    }
    return node;
  }

  /** Finds every `$ref` target reachable from the schema and names it. */
  #collect(node: unknown, names: TypeNames, prefix: string, seen: Set<unknown>, depth: number): void {
    if (!isNode(node) || seen.has(node) || depth > MAX_DEPTH || seen.size > MAX_NODES) return;
    seen.add(node);
    if (typeof node.$ref === "string") {
      const target = this.#resolve(node.$ref);
      if (isNode(target) && !this.#targets.has(target)) {
        this.#targets.set(target, names.allocate(`${prefix}_${pointerName(node.$ref)}`));
        this.#collect(target, names, prefix, seen, depth + 1);
      }
      return;
    }
    for (const child of subschemas(node)) this.#collect(child, names, prefix, seen, depth + 1);
  }
}

interface Member {
  doc: string;
  text: string;
}

function objectLiteral(members: readonly Member[], indent: string): string {
  const line = `{ ${members.map((member) => member.text).join("; ")} }`;
  if (members.every((member) => member.doc === "") && line.length <= ONE_LINE && !line.includes("\n")) return line;
  const inner = `${indent}  `;
  return `{\n${members.map((member) => `${docComment(member.doc, inner)}${inner}${member.text};\n`).join("")}${indent}}`;
}

/** The sub-schemas a type is rendered from (where `$ref`s that matter can be). */
function subschemas(node: Node): unknown[] {
  const children: unknown[] = [];
  for (const key of ["properties", "patternProperties"]) if (isNode(node[key])) children.push(...Object.values(node[key]));
  for (const key of ["additionalProperties", "items", "additionalItems"]) {
    const value = node[key];
    if (Array.isArray(value)) children.push(...value);
    else children.push(value);
  }
  for (const key of ["prefixItems", "anyOf", "oneOf", "allOf"]) if (Array.isArray(node[key])) children.push(...node[key]);
  return children;
}

/** Whether the node renders as an object or array type, which a type alias may refer to from anywhere. */
function rendersAsObjectOrArray(node: Node): boolean {
  if (["$ref", "anyOf", "oneOf", "allOf", "enum", "const", "nullable"].some((key) => key in node)) return false;
  if (node.type === "object" || node.type === "array") return true;
  return node.type === undefined && ["properties", "additionalProperties", "patternProperties", "items", "prefixItems"].some((key) => key in node);
}

const KEYWORD_SEGMENTS = new Set([
  "properties",
  "items",
  "prefixItems",
  "additionalProperties",
  "patternProperties",
  "$defs",
  "definitions",
  "anyOf",
  "oneOf",
  "allOf",
]);

/** A readable name for what a pointer points at: its last segment that is not a keyword or index. */
function pointerName(ref: string): string {
  const segments = ref
    .slice(2)
    .split("/")
    .map((raw) => decodeSegment(raw) ?? "")
    .filter((segment) => segment !== "" && !KEYWORD_SEGMENTS.has(segment) && !/^\d+$/.test(segment));
  return segments.at(-1) ?? "args";
}

function decodeSegment(raw: string): string | undefined {
  try {
    return decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
  } catch {
    return undefined;
  }
}

function literal(value: unknown): string {
  if (typeof value === "string" || typeof value === "boolean" || value === null) return JSON.stringify(value);
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return "unknown";
}

function settled(type: string): string {
  return type === CYCLE ? "unknown" : type;
}

function union(types: readonly string[]): string {
  const unique = [...new Set(types)].filter((type) => type !== CYCLE);
  if (unique.length === 0 && types.length > 0) return CYCLE;
  if (unique.includes("unknown")) return "unknown";
  const members = unique.filter((type) => type !== "never");
  return members.length === 0 ? "never" : members.join(" | ");
}

function intersection(types: readonly string[]): string {
  const members = [...new Set(types)].filter((type) => type !== "unknown" && type !== CYCLE);
  if (members.includes("never")) return "never";
  if (members.length === 0) return types.includes(CYCLE) && !types.includes("unknown") ? CYCLE : "unknown";
  return members.length === 1 ? members[0]! : members.map(parenthesised).join(" & ");
}

/** The type in parentheses when it has a `|` or `&` at its top, so `[]`, `?` or `&` bind to all of it. */
export function parenthesised(type: string): string {
  let depth = 0;
  for (let i = 0; i < type.length; i++) {
    const char = type[i]!;
    if (char === '"') {
      for (i++; i < type.length && type[i] !== '"'; i++) if (type[i] === "\\") i++;
    } else if ("{[(<".includes(char)) depth++;
    else if ("}])>".includes(char)) depth--;
    else if (depth === 0 && (char === "|" || char === "&")) return `(${type})`;
  }
  return type;
}

function abbreviate(text: string): string {
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

function isNode(value: unknown): value is Node {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

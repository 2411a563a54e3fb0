/**
 * The HTTP headers a 2026-07-28 request carries beside its body (Streamable HTTP 2026-07-28,
 * "request metadata headers"): `MCP-Protocol-Version` (the envelope's version), `Mcp-Method`,
 * `Mcp-Name` (the `name` or `uri` of `tools/call`, `prompts/get`, `resources/read`, the `taskId`
 * of the tasks extension's methods), and
 * `Mcp-Param-{Name}` for the arguments a tool's input schema marks with `x-mcp-header`.
 * Values that are not plain visible ASCII travel as `=?base64?…?=`. Pure: no I/O.
 */
import { isObject, type JsonObject, type JsonRpcRequest } from "./jsonrpc.js";
import { META } from "./modern.js";

/** The params field `Mcp-Name` mirrors, per method (the tasks extension's methods: SEP-2663, "Routing Headers"). */
export const NAME_SOURCE: Readonly<Record<string, string>> = {
  "tools/call": "name",
  "prompts/get": "name",
  "resources/read": "uri",
  "tasks/get": "taskId",
  "tasks/update": "taskId",
  "tasks/cancel": "taskId",
};

const SENTINEL_START = "=?base64?";
const SENTINEL_END = "?=";

/** The metadata headers of one modern request; none for a request without an envelope. */
export function modernRequestHeaders(request: JsonRpcRequest, tool?: JsonObject): Record<string, string> {
  const meta = isObject(request.params?._meta) ? request.params._meta : undefined;
  const version = meta?.[META.protocolVersion];
  if (typeof version !== "string") return {};
  const headers: Record<string, string> = { "mcp-protocol-version": version, "mcp-method": request.method };
  const source = NAME_SOURCE[request.method];
  const name = source === undefined ? undefined : request.params?.[source];
  if (typeof name === "string") headers["mcp-name"] = headerValue(name);
  if (request.method === "tools/call" && tool && isObject(request.params?.arguments)) {
    Object.assign(headers, paramHeaders(tool.inputSchema, request.params.arguments));
  }
  return headers;
}

/** A string as an HTTP field value: as it is when that is safe, else in the Base64 sentinel. */
export function headerValue(value: string): string {
  return needsEncoding(value) ? `${SENTINEL_START}${base64(value)}${SENTINEL_END}` : value;
}

function needsEncoding(value: string): boolean {
  if (value === "" || value !== value.trim()) return true;
  if (inSentinelForm(value)) return true;
  for (const char of value) {
    const code = char.codePointAt(0)!;
    if (code < 0x20 || code > 0x7e) return true; // a tab too: "safe ASCII" is the visible characters and space
  }
  return false;
}

/** Wrapped as the Base64 sentinel is: a literal like that must itself be sent encoded. */
function inSentinelForm(value: string): boolean {
  return value.startsWith(SENTINEL_START) && value.endsWith(SENTINEL_END);
}

/**
 * A received header value: the Base64 sentinel decoded (strictly: the alphabet, padding to a
 * multiple of four, and UTF-8), anything else literal. Undefined when a sentinel does not decode.
 */
export function readHeaderValue(value: string): string | undefined {
  // The two ends must not overlap ("=?base64?=" is a literal).
  if (!inSentinelForm(value) || value.length < SENTINEL_START.length + SENTINEL_END.length) return value;
  const encoded = value.slice(SENTINEL_START.length, value.length - SENTINEL_END.length);
  if (encoded.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(encoded)) return undefined;
  try {
    const bytes = Uint8Array.from(atob(encoded), (char) => char.charCodeAt(0));
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

function base64(value: string): string {
  let binary = "";
  for (const byte of new TextEncoder().encode(value)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** `Mcp-Param-{Name}` headers (see `paramValues`), encoded for the wire. */
export function paramHeaders(schema: unknown, args: JsonObject): Record<string, string> {
  return Object.fromEntries(Object.entries(paramValues(schema, args)).map(([header, value]) => [header, headerValue(value)]));
}

/**
 * What each `Mcp-Param-{Name}` header (lower-cased) must say, before encoding: one for each
 * property reached through `properties` alone that declares `x-mcp-header`, when the call
 * gives it a string, integer or boolean. A declaration that is not a valid header name is
 * skipped (the server rejects such a tool's schema anyway).
 */
export function paramValues(schema: unknown, args: JsonObject): Record<string, string> {
  const headers: Record<string, string> = {};
  const visit = (node: unknown, value: unknown): void => {
    if (!isObject(node) || !isObject(node.properties)) return;
    for (const [key, child] of Object.entries(node.properties)) {
      if (!isObject(child)) continue;
      const inner = isObject(value) ? value[key] : undefined;
      const name = child["x-mcp-header"];
      if (typeof name === "string" && TOKEN.test(name)) {
        const text = primitive(inner);
        if (text !== undefined) headers[`mcp-param-${name.toLowerCase()}`] = text;
      }
      visit(child, inner);
    }
  };
  visit(schema, args);
  return headers;
}

/** The property types `x-mcp-header` may annotate: those with one plain spelling (no `number`, whose text is ambiguous). */
const HEADER_TYPES = new Set(["string", "integer", "boolean"]);

/**
 * Why a tool's input schema declares `x-mcp-header` wrongly, or undefined when it does not
 * (SEP-2243: a client MUST reject such a tool). Each declaration, on the properties that
 * `paramValues` reads, must be a non-empty header-name token, unique regardless of case, on a
 * property whose type is string, integer or boolean.
 */
export function headerDeclarationProblem(schema: unknown): string | undefined {
  const seen = new Set<string>();
  const visit = (node: unknown, path: string): string | undefined => {
    if (!isObject(node) || !isObject(node.properties)) return undefined;
    for (const [key, child] of Object.entries(node.properties)) {
      if (!isObject(child)) continue;
      const where = path ? `${path}.${key}` : key;
      if (Object.hasOwn(child, "x-mcp-header")) {
        const name = child["x-mcp-header"];
        if (typeof name !== "string" || !TOKEN.test(name)) return `${where}: x-mcp-header ${JSON.stringify(name)} is not a header name`;
        if (seen.has(name.toLowerCase())) return `${where}: x-mcp-header ${JSON.stringify(name)} is declared twice (names are case-insensitive)`;
        seen.add(name.toLowerCase());
        if (typeof child.type !== "string" || !HEADER_TYPES.has(child.type)) {
          return `${where}: x-mcp-header is on a property of type ${JSON.stringify(child.type ?? null)}, not string, integer or boolean`;
        }
      }
      const inner = visit(child, where);
      if (inner) return inner;
    }
    return undefined;
  };
  return visit(schema, "");
}

function primitive(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number" && Number.isFinite(value) && (!Number.isInteger(value) || Number.isSafeInteger(value))) return String(value);
  return undefined;
}

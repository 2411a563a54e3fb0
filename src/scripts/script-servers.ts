/**
 * The names a script reaches tools by: one global per server (its name made an identifier, as
 * `mcpx types` and `mcpx client` name its interface), one method per tool (its name made an
 * identifier). The declarations (`mcpx client`) and the sandbox both take them from here, so
 * what type-checks is what runs. Pure.
 */
import type { ToolRecord } from "../discovery/records.js";
import { serverTypeNames } from "../discovery/typescript.js";
import type { ScriptServer } from "./types.js";

/** Globals a script has besides the servers: no server may take these names. */
export const SCRIPT_GLOBALS = ["args", "console", "onElicit", "ToolError", "textOf", "setTimeout", "clearTimeout"];

/**
 * The values the language puts in every script's global scope (lib es2022), and the two names
 * strict code may not bind: a server may not take them either (a global `JSON` or `Date` that is
 * a server would break the script, and its declarations would not compile), so its global is
 * renamed (`JSON_2`).
 */
const LANGUAGE_GLOBALS = [
  "AggregateError Array ArrayBuffer Atomics BigInt BigInt64Array BigUint64Array Boolean DataView Date Error EvalError FinalizationRegistry",
  "Float32Array Float64Array Function Infinity Int16Array Int32Array Int8Array Intl JSON Map Math NaN Number Object Promise Proxy RangeError",
  "ReferenceError Reflect RegExp Set SharedArrayBuffer String Symbol SyntaxError TypeError URIError Uint16Array Uint32Array Uint8Array",
  "Uint8ClampedArray WeakMap WeakRef WeakSet decodeURI decodeURIComponent encodeURI encodeURIComponent escape eval globalThis isFinite isNaN",
  "parseFloat parseInt undefined unescape arguments",
]
  .join(" ")
  .split(" ");

/** The global each server is reached by in a script (its name, or the nearest free identifier). */
export function serverVariables(servers: readonly string[]): Map<string, string> {
  return serverTypeNames(servers, [...SCRIPT_GLOBALS, ...LANGUAGE_GLOBALS]);
}

export function scriptServers(tools: readonly ToolRecord[]): ScriptServer[] {
  const variables = serverVariables(tools.map((tool) => tool.server));
  const servers = new Map<string, ScriptServer>();
  for (const tool of tools) {
    let server = servers.get(tool.server);
    if (!server) {
      server = { variable: variables.get(tool.server)!, server: tool.server, tools: [] };
      servers.set(tool.server, server);
    }
    server.tools.push({ fn: "", tool: tool.tool, structured: tool.outputSchema !== undefined });
  }
  for (const server of servers.values()) {
    const used = new Set<string>();
    for (const tool of server.tools) tool.fn = methodName(tool.tool, used);
  }
  return [...servers.values()];
}

/** `get-file` → `get_file`; a clash or a name with nothing ASCII gets a number. */
function methodName(tool: string, used: Set<string>): string {
  let base = tool.replace(/[^\w$]/g, "_");
  if (!/[A-Za-z0-9]/.test(base)) base = "tool";
  if (!/^[A-Za-z$_]/.test(base)) base = `_${base}`;
  // Names every object has: a tool may not shadow them.
  if (["constructor", "__proto__", "toString", "valueOf", "hasOwnProperty"].includes(base)) base = `${base}_`;
  let name = base;
  for (let n = 2; used.has(name); n++) name = `${base}_${n}`;
  used.add(name);
  return name;
}

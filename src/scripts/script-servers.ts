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

export function scriptServers(tools: readonly ToolRecord[]): ScriptServer[] {
  const variables = serverTypeNames(
    tools.map((tool) => tool.server),
    SCRIPT_GLOBALS,
  );
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

/**
 * The sandbox's tests' way out: a real MCP server (test/fixtures/script-tools-server.mjs) over
 * stdio, reached with the SDK 1.x client, as the ToolCaller a script run is given. Every call that
 * reaches the caller is recorded, and so is every call whose signal was aborted.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { ToolRecord } from "../../src/discovery/records.js";
import type { JsonObject } from "../../src/protocol/jsonrpc.js";
import { startScript } from "../../src/scripts/run-script.js";
import { scriptServers } from "../../src/scripts/script-servers.js";
import { DEFAULT_SCRIPT_LIMITS, type RunningScript, type ScriptLimits, type ScriptServer, type ToolCaller } from "../../src/scripts/types.js";
import { fixture } from "../helpers/mcpx.js";

export const SERVER = "script-tools";

export interface ScriptTools {
  servers: ScriptServer[];
  caller: ToolCaller;
  /** Every call that reached the caller: server, tool, arguments. */
  received: { server: string; tool: string; args: JsonObject }[];
  /** Tools whose call's signal was aborted. */
  aborted: string[];
  close(): Promise<void>;
}

export async function scriptTools(): Promise<ScriptTools> {
  const client = new Client({ name: "sandbox-test", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [fixture("script-tools-server.mjs")], stderr: "ignore" }));
  const { tools } = await client.listTools();
  const records: ToolRecord[] = tools.map((tool) => ({
    server: SERVER,
    tool: tool.name,
    name: `${SERVER}__${tool.name}`,
    description: tool.description ?? "",
    inputSchema: tool.inputSchema as JsonObject,
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema as JsonObject } : {}),
  }));
  const received: ScriptTools["received"] = [];
  const aborted: string[] = [];
  const caller: ToolCaller = async (server, tool, args, signal) => {
    received.push({ server, tool, args });
    signal.addEventListener("abort", () => aborted.push(tool), { once: true });
    if (server !== SERVER) throw new Error(`no server named "${server}"`);
    return (await client.callTool({ name: tool, arguments: args }, undefined, { signal, timeout: 60_000 })) as JsonObject;
  };
  return { servers: scriptServers(records), caller, received, aborted, close: () => client.close() };
}

/** Runs `code` (TypeScript, named script.ts) against the tools and waits for its envelope. */
export async function runScript(tools: Pick<ScriptTools, "servers" | "caller">, code: string, limits: Partial<ScriptLimits> = {}, args: string[] = []) {
  const run = await start(tools, code, limits, args);
  return run.done;
}

export function start(
  tools: Pick<ScriptTools, "servers" | "caller">,
  code: string,
  limits: Partial<ScriptLimits> = {},
  args: string[] = [],
): Promise<RunningScript> {
  return startScript({ code, language: "ts", filename: "script.ts", args }, tools.servers, tools.caller, { ...DEFAULT_SCRIPT_LIMITS, ...limits });
}

/**
 * The shared tool-search data sets (real catalogues and labelled queries), read where the team
 * keeps them: `$MCPX_TOOL_SEARCH_DATA`, else `shared/data/tool-search` beside the repository or
 * one level further up. They are never copied into the repository (their README says so).
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { ROOT } from "./mcpx.js";

function locate(): string | undefined {
  const candidates = [
    process.env.MCPX_TOOL_SEARCH_DATA,
    resolve(ROOT, "..", "shared", "data", "tool-search"),
    resolve(ROOT, "..", "..", "shared", "data", "tool-search"),
  ].filter((dir): dir is string => dir !== undefined);
  return candidates.find((dir) => existsSync(join(dir, "livemcptool_tools.json")));
}

/** Where the data sets are, or undefined on a machine without them (tests that need them say so and skip). */
export const TOOL_SEARCH_DATA = locate();

export function dataFile(name: string): string {
  if (!TOOL_SEARCH_DATA) throw new Error("the shared tool-search data is not on this machine (set MCPX_TOOL_SEARCH_DATA)");
  return join(TOOL_SEARCH_DATA, name);
}

export interface LiveMcpTool {
  server: string;
  tool: string;
  description: string;
  inputSchema?: Record<string, unknown>;
}

/** LiveMCPTool: 70 real servers, 527 tools. */
export function liveMcpTools(): LiveMcpTool[] {
  return (JSON.parse(readFileSync(dataFile("livemcptool_tools.json"), "utf8")) as { tools: LiveMcpTool[] }).tools;
}

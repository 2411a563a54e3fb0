/**
 * What `mcpx__describe` answers for named tools: their TypeScript declarations, or their full
 * schemas as MCP `Tool` definitions named the way discovery names them (`SERVER__TOOL`), so a
 * host can read them exactly as it would read `tools/list`. Pure.
 */
import type { JsonObject } from "../protocol/jsonrpc.js";
import type { ToolRecord } from "./records.js";
import { type DeclarationOptions, declarations } from "./typescript.js";

export type DescribeFormat = "typescript" | "schema";

export function describe(tools: readonly ToolRecord[], format: "typescript", options?: DeclarationOptions): string;
export function describe(tools: readonly ToolRecord[], format: "schema"): JsonObject;
export function describe(tools: readonly ToolRecord[], format: DescribeFormat, options?: DeclarationOptions): string | JsonObject;
export function describe(tools: readonly ToolRecord[], format: DescribeFormat, options: DeclarationOptions = {}): string | JsonObject {
  if (format === "typescript") return declarations(tools, options);
  return { tools: tools.map(toolDefinition) };
}

/** The MCP `Tool` a record stands for, under its discovery name. */
export function toolDefinition(tool: ToolRecord): JsonObject {
  return {
    name: tool.name,
    ...(tool.title !== undefined ? { title: tool.title } : {}),
    description: tool.description,
    inputSchema: tool.inputSchema ?? { type: "object" },
    ...(tool.outputSchema !== undefined ? { outputSchema: tool.outputSchema } : {}),
    ...(tool.annotations !== undefined ? { annotations: tool.annotations } : {}),
  };
}

/**
 * TypeScript declarations for tools' arguments and results (PLACEHOLDER until the real
 * generator lands): a pure function of the records.
 */
import type { ToolRecord } from "./records.js";

export function declarations(tools: readonly ToolRecord[]): string {
  return tools
    .map((tool) => `/** ${tool.description.split("\n")[0] ?? ""} */\nexport declare function ${tool.name}(args: Record<string, unknown>): Promise<unknown>;\n`)
    .join("\n");
}

/** One-line signatures of tools (PLACEHOLDER until the real renderer lands): pure. */
import type { ToolRecord } from "./records.js";

export function signature(tool: ToolRecord): string {
  const first = tool.description.split("\n")[0] ?? "";
  return `${tool.name}(args) — ${first}`;
}

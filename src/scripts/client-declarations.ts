/**
 * The typed client a script is written against (`mcpx client`, `--typecheck`, mcpx__describe for
 * scripts): one global per server, one async method per tool, named as scripts/script-servers.ts
 * names them. PLACEHOLDER: the client work (helper "client") builds it; this is its signature.
 */
import type { ToolRecord } from "../discovery/records.js";

export function clientDeclarations(_tools: readonly ToolRecord[], _options: { serverDescriptions?: Record<string, string> } = {}): string {
  throw new Error("clientDeclarations is not built yet");
}

/**
 * TypeScript declarations of tools (`mcpx types`, `mcpx__describe` as TypeScript): one
 * interface per server, one method per tool taking its arguments object and returning its
 * result, with the upstream's descriptions as doc comments. Compiles under `tsc --strict`
 * whatever the upstream names or schemas are. Pure.
 *
 * Results: a tool with an `outputSchema` returns `ToolResult<Output>` (its structuredContent is
 * typed); one without returns `ToolResult`, the MCP CallToolResult shape. That shape, not
 * `unknown`, because it is what a call does return: content blocks, maybe `isError`.
 */
import { commentLines, docComment } from "./doc-comment.js";
import type { ToolRecord } from "./records.js";
import { schemaTypes } from "./schema-type.js";
import { propertyKey, TypeNames } from "./ts-names.js";

export interface DeclarationOptions {
  /** Each server's one-line description, by server name: its interface's doc comment. */
  serverDescriptions?: Record<string, string>;
  /** The first line's comment: how to call what follows (the CLI and the host tools say it their way); "" for none. */
  howToCall?: string;
}

export const HOW_TO_CALL = "One interface per server, one method per tool: call it as SERVER__TOOL with the args object as JSON.";

const RESULT = `/** What a tool call returns (MCP CallToolResult); structuredContent follows the tool's outputSchema where it has one. */
export interface ToolResult<S = { [key: string]: unknown }> {
  content: { type: string; [key: string]: unknown }[];
  structuredContent?: S;
  isError?: boolean;
}
`;

/** Names the output refers to itself, which no server or schema type may take. */
const OWN_NAMES = ["ToolResult", "Promise"];

export function declarations(tools: readonly ToolRecord[], options: DeclarationOptions = {}): string {
  return typeDeclarations(tools, options).text;
}

export interface TypeDeclarations {
  text: string;
  /** The interface each server's tools are declared in (the server's name, or the nearest valid one). */
  interfaces: Map<string, string>;
}

export function typeDeclarations(tools: readonly ToolRecord[], options: DeclarationOptions = {}): TypeDeclarations {
  const names = new TypeNames(OWN_NAMES);
  const grouped = byServer(tools);
  // Servers first, so a server's name never depends on its neighbours' schema type names.
  const interfaces = allocateServers(names, [...grouped.keys()]);
  const howToCall = commentLines(options.howToCall ?? HOW_TO_CALL).join(" ");
  const parts = [howToCall ? `// ${howToCall}\n` : "", RESULT];
  for (const [server, serverTools] of grouped) {
    const name = interfaces.get(server)!;
    const description = options.serverDescriptions?.[server] ?? "";
    const doc = name === server ? description : `Server "${server}".${description ? ` ${description}` : ""}`;
    const definitions: string[] = [];
    const methods = serverTools.map((tool) => {
      const prefix = `${name}_${tool.tool}`;
      const args = schemaTypes(tool.inputSchema ?? true, names, prefix, "  ");
      const output = tool.outputSchema === undefined ? undefined : schemaTypes(tool.outputSchema, names, `${prefix}_result`, "  ");
      definitions.push(...args.definitions, ...(output?.definitions ?? []));
      const optional = !hasRequired(tool.inputSchema) && args.type.startsWith("{") ? "?" : "";
      const result = output === undefined ? "ToolResult" : `ToolResult<${output.type}>`;
      const text = tool.description.trim() === "" ? (tool.title ?? "") : tool.description;
      return `${docComment(text, "  ")}  ${propertyKey(tool.tool)}(args${optional}: ${args.type}): Promise<${result}>;\n`;
    });
    parts.push(`\n${docComment(doc, "")}export interface ${name} {\n${methods.join("")}}\n${definitions.join("")}`);
  }
  return { text: parts.join(""), interfaces };
}

/**
 * The name each server's interface gets (and a script's global for it, scripts/script-servers.ts):
 * its own name where valid, else the nearest free valid one. `taken` are names the output uses.
 */
export function serverTypeNames(servers: readonly string[], taken: readonly string[] = []): Map<string, string> {
  return allocateServers(new TypeNames([...OWN_NAMES, ...taken]), servers);
}

function allocateServers(names: TypeNames, servers: readonly string[]): Map<string, string> {
  const allocated = new Map<string, string>();
  for (const server of servers) if (!allocated.has(server)) allocated.set(server, names.allocate(server, "server"));
  return allocated;
}

function byServer(tools: readonly ToolRecord[]): Map<string, ToolRecord[]> {
  const servers = new Map<string, ToolRecord[]>();
  for (const tool of tools) {
    const list = servers.get(tool.server);
    if (list) list.push(tool);
    else servers.set(tool.server, [tool]);
  }
  return servers;
}

function hasRequired(schema: unknown): boolean {
  if (typeof schema !== "object" || schema === null) return false;
  const required = (schema as { required?: unknown }).required;
  return Array.isArray(required) && required.length > 0;
}

/**
 * The tools a host in discovery mode sees instead of the upstreams' (`"expose": "discovery"`):
 * search, describe, call, servers. Their words depend only on the configured servers' names,
 * never on what those servers list, so the host's tools/list stays the same (and small) however
 * many tools the servers have and however often they change them. Pure.
 */
import type { JsonObject } from "../../protocol/jsonrpc.js";

export const SEARCH_TOOL = "mcpx__search";
export const DESCRIBE_TOOL = "mcpx__describe";
export const CALL_TOOL = "mcpx__call";
export const SERVERS_TOOL = "mcpx__servers";

export const GATEWAY_TOOLS: readonly string[] = [SEARCH_TOOL, DESCRIBE_TOOL, CALL_TOOL, SERVERS_TOOL];

export const MAX_SEARCH_LIMIT = 50;
export const DEFAULT_SEARCH_LIMIT = 10;
export const MAX_DESCRIBED = 20;

/**
 * How much of mcpx__search's description may go to server names. Names are ASCII (the config
 * allows only letters, digits, `_` and `-`), so this bounds their tokens too: past it, the rest
 * are counted and left to mcpx__servers.
 */
export const SERVER_NAMES_BUDGET = 1200;

/** The four definitions, naming `servers` (configured and enabled, in config order). */
export function gatewayToolDefinitions(servers: readonly string[]): JsonObject[] {
  return [
    {
      name: SEARCH_TOOL,
      description:
        `Find a tool among the MCP servers behind mcpx (${serverList(servers)}). ` +
        "Their tools are not listed here: search in a few words for what you want done, or by a tool's name; " +
        'the best matches come first, as JSON [{"name": "SERVER__TOOL", "server", "tool", "description", "score"}]. ' +
        `Then ${DESCRIBE_TOOL} for their arguments, and ${CALL_TOOL} to call one.`,
      inputSchema: {
        type: "object",
        properties: {
          query: { type: "string", description: "what you want to do, in words, or (part of) a tool's name" },
          limit: { type: "integer", minimum: 1, maximum: MAX_SEARCH_LIMIT, description: `how many matches (default ${DEFAULT_SEARCH_LIMIT})` },
        },
        required: ["query"],
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    {
      name: DESCRIBE_TOOL,
      description: `The arguments and results of tools found with ${SEARCH_TOOL}, by name: TypeScript declarations with their documentation, or their JSON Schemas.`,
      inputSchema: {
        type: "object",
        properties: {
          names: { type: "array", items: { type: "string" }, minItems: 1, maxItems: MAX_DESCRIBED, description: "SERVER__TOOL names" },
          format: { type: "string", enum: ["typescript", "schema"], description: "typescript (default) or schema" },
        },
        required: ["names"],
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    {
      name: CALL_TOOL,
      description:
        `Call a tool of a server behind mcpx by its SERVER__TOOL name (from ${SEARCH_TOOL}) with its arguments (see ${DESCRIBE_TOOL}). ` +
        "It answers exactly as that tool does, questions it asks included.",
      inputSchema: {
        type: "object",
        properties: {
          name: { type: "string", description: "SERVER__TOOL" },
          arguments: { type: "object", description: "the tool's arguments" },
        },
        required: ["name"],
      },
    },
    {
      name: SERVERS_TOOL,
      description: "The MCP servers behind mcpx: each one's state, tool count and what it is for; with server, its instructions and tool names.",
      inputSchema: { type: "object", properties: { server: { type: "string", description: "one server's name" } } },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
  ];
}

export function isGatewayTool(name: string): boolean {
  return GATEWAY_TOOLS.includes(name);
}

/** `a, b, c`, or as many as fit the budget and `and N more (see mcpx__servers)`. */
export function serverList(servers: readonly string[], budget = SERVER_NAMES_BUDGET): string {
  if (servers.length === 0) return "none configured";
  const shown: string[] = [];
  let length = 0;
  for (const server of servers) {
    if (length + server.length + 2 > budget) break;
    shown.push(server);
    length += server.length + 2;
  }
  const rest = servers.length - shown.length;
  return rest === 0 ? shown.join(", ") : `${shown.join(", ")} and ${rest} more: see ${SERVERS_TOOL}`;
}

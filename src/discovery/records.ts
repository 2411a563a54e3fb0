/**
 * What discovery knows of a server and its tools: the shapes the schema cache stores and the
 * search index, the signatures and the TypeScript are made from. Plain data, no I/O.
 */
import type { JsonObject } from "../protocol/jsonrpc.js";

/** One tool of one server, by the server's own definition (already filtered by the config). */
export interface ToolRecord {
  server: string;
  /** The tool's name as the server lists it. */
  tool: string;
  /** `SERVER__TOOL`: the one name discovery (search, types, `mcpx__call`) knows it by. */
  name: string;
  title?: string;
  description: string;
  inputSchema?: JsonObject;
  outputSchema?: JsonObject;
  annotations?: JsonObject;
}

/** One server as discovery describes it. */
export interface ServerRecord {
  server: string;
  /** One line: the server's instructions, else its serverInfo title/description, else "". */
  description: string;
  tools: ToolRecord[];
}

/** The name discovery gives a server's tool. */
export function discoveryName(server: string, tool: string): string {
  return `${server}__${tool}`;
}

/**
 * The tools a server definition listed the last time mcpx read its catalogue: what a gateway
 * lists for a server that cannot be read now only because it waits for a person to sign in
 * again, so a host can call one of them and be asked to sign in on that very call.
 */
import type { ServerConfig } from "../config/types.js";
import type { JsonObject } from "../protocol/jsonrpc.js";
import { definitionOf, serverKey } from "./cache-key.js";
import { readEntry } from "./cache-read-entry.js";

export function lastListedTools(stateDir: string, server: ServerConfig): JsonObject[] {
  return readEntry(stateDir, serverKey(server), definitionOf(server))?.read?.tools.map((cached) => cached.tool) ?? [];
}

/**
 * What defines a server for the schema cache, and the key its entry is kept under. Two config
 * names for the same definition share an entry; any change to how the server is started or
 * reached (command, args, the names of the variables set, cwd, URL, transport, protocol) is a
 * new key, so a changed definition is never answered with the old one's tools (a reader also
 * checks the entry's own definition). Environment
 * values and headers stay out: they are often secrets, and the key is written to disk.
 */
import type { ServerConfig } from "../config/types.js";
import { fastHash } from "./hash.js";

export interface Definition {
  kind: ServerConfig["kind"];
  command?: string;
  args?: string[];
  envNames?: string[];
  cwd?: string;
  url?: string;
  transport?: ServerConfig["transport"];
  protocol: ServerConfig["protocol"];
}

export function definitionOf(server: ServerConfig): Definition {
  if (server.kind === "http")
    return { kind: "http", ...(server.url !== undefined ? { url: server.url } : {}), transport: server.transport, protocol: server.protocol };
  return {
    kind: "stdio",
    ...(server.command !== undefined ? { command: server.command } : {}),
    args: server.args,
    envNames: Object.keys(server.env).sort(),
    cwd: server.cwd,
    protocol: server.protocol,
  };
}

/** A file-name-safe key: 32 hex digits hashed from the definition. */
export function definitionKey(definition: Definition): string {
  return fastHash(JSON.stringify(definition));
}

export function serverKey(server: ServerConfig): string {
  return definitionKey(definitionOf(server));
}

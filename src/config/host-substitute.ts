/**
 * `${...}` substitution for a whole document. In a host's file each server is substituted on
 * its own, so one server's unset variable leaves that server out instead of refusing the file.
 */
import { isObject } from "./check.js";
import { type Env, type ReferenceResolver, substituteEnv } from "./env.js";
import { ConfigError } from "./errors.js";
import { orderedEntries, orderedObject } from "./ordered.js";

export interface Substituted {
  doc: unknown;
  /** Servers whose substitution failed, with each problem (without the file name). */
  leftOut: Map<string, string[]>;
}

export function substituteDocument(raw: unknown, env: Env, file: string, resolve: ReferenceResolver, hostFile: boolean): Substituted {
  const leftOut = new Map<string, string[]>();
  if (!hostFile || !isObject(raw)) return { doc: substituteEnv(raw, env, file, resolve), leftOut };
  // The same choice as validate: mcpServers, else VS Code's servers.
  const serversKey = Object.hasOwn(raw, "mcpServers") || !Object.hasOwn(raw, "servers") ? "mcpServers" : "servers";
  const substituteServer = (name: string, entry: unknown): unknown => {
    try {
      return substituteEnv(entry, env, file, resolve, [serversKey, name]);
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      leftOut.set(
        name,
        err.message.split("\n").map((line) => line.replace(`${file}: `, "")),
      );
      return entry;
    }
  };
  const entries = orderedEntries(raw).map(([key, value]): [string, unknown] => {
    if (key === "$schema" || (key === "servers" && serversKey !== "servers")) return [key, value];
    if (key !== serversKey || !isObject(value)) return [key, substituteEnv(value, env, file, resolve, [key])];
    return [key, orderedObject(orderedEntries(value).map(([name, entry]) => [name, substituteServer(name, entry)]))];
  });
  return { doc: orderedObject(entries), leftOut };
}

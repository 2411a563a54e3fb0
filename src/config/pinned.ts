/**
 * `pinned`: the upstream tools a host in discovery mode still sees listed, each named
 * `SERVER__TOOL` by the config's server name and the server's own tool name. Whether the server
 * really has that tool is known only once it is read: one it does not list is logged then.
 */
import { didYouMean, nearest } from "../util/nearest.js";
import type { Checker } from "./check.js";
import type { KeyPath } from "./keypath.js";
import type { ServerConfig } from "./types.js";

const SEPARATOR = "__";

export function readPinned(check: Checker, value: unknown, at: KeyPath, servers: readonly ServerConfig[]): string[] | undefined {
  if (!Array.isArray(value)) return check.fail(at, 'must be an array of tool names, each "SERVER__TOOL"');
  const names = servers.map((server) => server.name);
  const pinned: string[] = [];
  value.forEach((entry, index) => {
    const where = [...at, String(index)];
    const split = typeof entry === "string" ? entry.indexOf(SEPARATOR) : -1;
    if (typeof entry !== "string" || split <= 0 || split + SEPARATOR.length === entry.length) {
      check.fail(where, `must be a tool named "SERVER__TOOL" (a server of mcpServers, "__", the server's own tool name); got ${JSON.stringify(entry)}`);
      return;
    }
    const server = entry.slice(0, split);
    if (!names.includes(server)) {
      check.fail(where, `names server "${server}", which is not in mcpServers${didYouMean(nearest(server, names))}`);
      return;
    }
    if (pinned.includes(entry)) check.fail(where, `lists "${entry}" a second time`);
    else pinned.push(entry);
  });
  return pinned;
}

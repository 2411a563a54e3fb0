/**
 * Continue's `config.yaml` (`~/.continue/`) and its blocks (`.continue/mcpServers/*.yaml`):
 * `mcpServers` is a list of `{name, command, args, env, cwd}` or `{name, type, url}` items,
 * with `requestOptions.headers` for remote ones. `${{ secrets.NAME }}` and
 * `${{ inputs.NAME }}` are read from the environment variable NAME. An item that `uses` a
 * Continue Hub block cannot be fetched by mcpx, and WebSocket servers cannot be spoken to:
 * both are left out with that reason. The rest of the file is Continue's own settings.
 */
import { isObject } from "../check.js";
import { serverName } from "../host-import.js";
import { orderedEntries, orderedObject } from "../ordered.js";
import { addHeaders, EntryReader, emptyServers, type HostServers } from "./entries.js";

const TYPES: Record<string, string> = { stdio: "stdio", sse: "sse", "streamable-http": "streamable-http" };

export function readContinue(doc: Record<string, unknown>): HostServers {
  const result = emptyServers();
  const items = doc.mcpServers;
  if (!Array.isArray(items)) return result;
  const seen = new Set<string>();
  for (const [index, item] of items.entries()) {
    const label = isObject(item) && typeof item.name === "string" && item.name !== "" ? item.name : `mcpServers[${index}]`;
    const why = unrunnable(item, label, seen);
    if (why !== undefined) {
      result.leftOut.push({ name: label, why });
      continue;
    }
    seen.add(label);
    const r = new EntryReader(item as Record<string, unknown>, ["mcpServers", index]);
    r.skip("name");
    const type = r.take("type");
    if (type !== undefined) r.out.type = typeof type === "string" ? (TYPES[type] ?? type) : type;
    for (const key of ["command", "args", "env", "cwd", "url"]) r.copy(key);
    const options = r.take("requestOptions");
    if (isObject(options)) {
      const o = new EntryReader(options, ["mcpServers", index, "requestOptions"]);
      const headers = o.take("headers");
      if (isObject(headers)) addHeaders(r.out, headers);
      else if (headers !== undefined) r.out.headers = headers;
      o.finish(result.ignored, "a request option mcpx does not use");
    }
    r.ignore(result.ignored, "connectionTimeout", "mcpx has one startup timeout for every server (limits.startupTimeoutSeconds)");
    // Continue's names are labels ("SQLite MCP"); mcpx's must split back out of "<server>__<tool>".
    const name = serverName(label);
    if (name !== label) result.renamed.push({ from: label, to: name });
    result.entries.push([name, secretsAsVariables(r.finish(result.ignored, "not a key mcpx reads from Continue's servers"))]);
  }
  return result;
}

/** Why an item cannot be run by mcpx at all, if it cannot. */
function unrunnable(item: unknown, label: string, seen: ReadonlySet<string>): string | undefined {
  if (!isObject(item)) return "it is not a mapping";
  if (typeof item.uses === "string") return `it uses the Continue Hub block "${item.uses}", which mcpx cannot fetch`;
  if (label !== item.name) return "it has no name";
  if (seen.has(label)) return "an earlier server has the same name";
  if (item.type === "websocket") return "it is a WebSocket server, which MCP's transports (and mcpx) do not include";
  return undefined;
}

/** `${{ secrets.NAME }}` and `${{ inputs.NAME }}` as mcpx's `${NAME}`, at any depth. */
function secretsAsVariables(value: unknown): unknown {
  if (typeof value === "string") return value.replace(/\$\{\{\s*(?:secrets|inputs)\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g, "${$1}");
  if (Array.isArray(value)) return value.map(secretsAsVariables);
  if (isObject(value)) return orderedObject(orderedEntries(value).map(([key, item]) => [key, secretsAsVariables(item)]));
  return value;
}

/**
 * Gemini CLI's `settings.json` (user `~/.gemini/`, project `.gemini/`): `mcpServers` in the
 * common shape, with `httpUrl` for Streamable HTTP (its `url` is SSE, which mcpx's `auto`
 * transport reaches too), `timeout` in milliseconds, `trust`, `includeTools`/`excludeTools`,
 * and `$NAME` as well as `${NAME}` for environment variables. The entries keep their keys
 * (the common reader knows them); only `httpUrl` and `$NAME` are rewritten here. The rest of
 * the file is Gemini CLI's own settings, not read.
 */
import { isObject } from "../check.js";
import { formatPath } from "../keypath.js";
import { orderedEntries, orderedObject } from "../ordered.js";
import { emptyServers, type HostServers } from "./entries.js";

export function readGemini(doc: Record<string, unknown>): HostServers {
  const result = emptyServers();
  const servers = doc.mcpServers;
  if (!isObject(servers)) return result;
  for (const [name, entry] of orderedEntries(servers)) {
    if (!isObject(entry)) {
      result.entries.push([name, entry]);
      continue;
    }
    const out: Record<string, unknown> = {};
    for (const [key, value] of orderedEntries(entry)) {
      if (key === "httpUrl") {
        out.url = bracedReferences(value);
        out.type = "http";
      } else if (key === "url" && Object.hasOwn(entry, "httpUrl")) {
        result.ignored.push({ path: formatPath(["mcpServers", name, "url"]), reason: "Gemini CLI uses httpUrl when both are given" });
      } else out[key] = bracedReferences(value);
    }
    result.entries.push([name, orderedObject(Object.entries(out))]);
  }
  return result;
}

/** Gemini's `$NAME` written as mcpx's `${NAME}`, at any depth; `${NAME}` stays as it is. */
function bracedReferences(value: unknown): unknown {
  if (typeof value === "string") return value.replace(/\$([A-Za-z_][A-Za-z0-9_]*)/g, "${$1}");
  if (Array.isArray(value)) return value.map(bracedReferences);
  if (isObject(value)) return orderedObject(orderedEntries(value).map(([key, item]) => [key, bracedReferences(item)]));
  return value;
}

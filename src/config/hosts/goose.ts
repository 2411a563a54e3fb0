/**
 * Goose's `config.yaml` (`~/.config/goose/`): `extensions`, a map of extensions. `type:
 * stdio` runs `cmd` with `args` and `envs`; `env_keys` names variables Goose keeps in its
 * keyring, read here from the environment; `sse` and `streamable_http` reach `uri` with
 * `headers`. `enabled: false` disables, `timeout` is in seconds, a non-empty `available_tools`
 * shows only those tools. Goose's built-in extensions (`builtin`, `platform`, `frontend`,
 * `inline_python`) run inside Goose, so mcpx leaves them out. The rest of the file is Goose's
 * own settings, not read.
 */
import { isObject } from "../check.js";
import { orderedEntries } from "../ordered.js";
import { addHeaders, EntryReader, emptyServers, envReference, type HostServers } from "./entries.js";

export const GOOSE_BUILTIN = "a Goose built-in extension, which only Goose can run";
const REMOTE: Record<string, string> = { sse: "sse", streamable_http: "http" };

export function readGoose(doc: Record<string, unknown>): HostServers {
  const result = emptyServers();
  const extensions = doc.extensions;
  if (!isObject(extensions)) return result;
  for (const [name, entry] of orderedEntries(extensions)) {
    if (!isObject(entry)) {
      result.leftOut.push({ name, why: "it is not a mapping" });
      continue;
    }
    const type = entry.type;
    if (type !== "stdio" && !(typeof type === "string" && Object.hasOwn(REMOTE, type))) {
      result.leftOut.push({ name, why: type === undefined ? "it has no type" : `it is ${GOOSE_BUILTIN} (type ${JSON.stringify(type)})` });
      continue;
    }
    const r = new EntryReader(entry, ["extensions", name]);
    r.skip("type", "name", "display_name", "description", "bundled");
    if (type === "stdio") {
      r.copy("cmd", "command");
      r.copy("args");
      r.copy("envs", "env");
      const keys = r.take("env_keys");
      if (Array.isArray(keys)) {
        // Goose reads these from its keyring or the environment; mcpx from the environment.
        const given = isObject(r.out.env) ? r.out.env : {};
        const fromEnv = keys.filter((key): key is string => typeof key === "string" && !Object.hasOwn(given, key));
        r.out.env = { ...given, ...Object.fromEntries(fromEnv.map((key) => [key, envReference(key)])) };
      }
    } else {
      r.out.type = REMOTE[type];
      r.copy("uri", "url");
      const headers = r.take("headers");
      if (isObject(headers)) addHeaders(r.out, headers);
      else if (headers !== undefined) r.out.headers = headers;
      r.ignore(result.ignored, "envs", "variables for a process, which a remote extension does not have");
      r.ignore(result.ignored, "env_keys", "variables for a process, which a remote extension does not have");
    }
    const enabled = r.take("enabled");
    if (enabled !== undefined) r.out.disabled = typeof enabled === "boolean" ? !enabled : enabled;
    r.copy("timeout", "timeoutSeconds");
    const tools = r.take("available_tools");
    // Goose reads an empty list as every tool.
    if (!Array.isArray(tools) || tools.length > 0) {
      if (tools !== undefined) r.out.tools = { allow: tools };
    }
    result.entries.push([name, r.finish(result.ignored, "not a key mcpx reads from Goose's extensions")]);
  }
  return result;
}

/**
 * Codex's `~/.codex/config.toml`: `[mcp_servers.NAME]` tables. Stdio servers have `command`,
 * `args`, `env`, `cwd`; remote ones `url`, `http_headers`, `env_http_headers` (header → the
 * variable holding its value) and `bearer_token_env_var`. `enabled = false` disables,
 * `tool_timeout_sec` is the call timeout, `enabled_tools`/`disabled_tools` filter tools.
 * Everything else in the file is Codex's own settings, not read.
 */
import { isObject } from "../check.js";
import { orderedEntries } from "../ordered.js";
import { addHeaders, EntryReader, emptyServers, envReference, type HostServers } from "./entries.js";

const STARTUP = "mcpx has one startup timeout for every server (limits.startupTimeoutSeconds)";
const APPROVAL = "Codex's tool approval (the host still asks before a call; mcpx relays it)";

export function readCodex(doc: Record<string, unknown>): HostServers {
  const result = emptyServers();
  const servers = doc.mcp_servers;
  if (!isObject(servers)) return result;
  for (const [name, entry] of orderedEntries(servers)) {
    if (!isObject(entry)) {
      result.leftOut.push({ name, why: "it is not a table" });
      continue;
    }
    const r = new EntryReader(entry, ["mcp_servers", name]);
    for (const key of ["command", "args", "env", "cwd", "url"]) r.copy(key);
    r.copy("http_headers", "headers");
    const fromEnv = r.take("env_http_headers");
    if (isObject(fromEnv)) addHeaders(r.out, Object.fromEntries(Object.entries(fromEnv).map(([header, variable]) => [header, envReference(String(variable))])));
    const bearer = r.take("bearer_token_env_var");
    if (typeof bearer === "string") addHeaders(r.out, { Authorization: `Bearer ${envReference(bearer)}` });
    const enabled = r.take("enabled");
    if (enabled !== undefined) r.out.disabled = typeof enabled === "boolean" ? !enabled : enabled;
    r.copy("tool_timeout_sec", "timeoutSeconds");
    const tools = {
      ...(r.has("enabled_tools") ? { allow: r.take("enabled_tools") } : {}),
      ...(r.has("disabled_tools") ? { deny: r.take("disabled_tools") } : {}),
    };
    if (Object.keys(tools).length > 0) r.out.tools = tools;
    r.ignore(result.ignored, "startup_timeout_sec", STARTUP);
    r.ignore(result.ignored, "startup_timeout_ms", STARTUP);
    r.ignore(result.ignored, "env_vars", "Codex's variables to pass on (mcpx passes on its whole environment)");
    r.ignore(result.ignored, "tools", APPROVAL);
    r.ignore(result.ignored, "default_tools_approval_mode", APPROVAL);
    r.ignore(result.ignored, "required", "Codex's refusal to start without this server (mcpx starts the others)");
    result.entries.push([name, r.finish(result.ignored, "not a key mcpx reads from Codex's servers")]);
  }
  return result;
}

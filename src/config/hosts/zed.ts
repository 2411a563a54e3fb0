/**
 * Zed's `settings.json` (JSONC): `context_servers`. An entry runs a `command` (a string with
 * `args`/`env`, or the older `{"command": {"path", "args", "env"}}`) or reaches a `url` with
 * `headers`; `enabled: false` disables it. One a Zed extension provides (`source:
 * "extension"`, or only `settings`) runs inside Zed, so mcpx leaves it out with that reason.
 * The rest of the file is Zed's own settings, not read.
 */
import { isObject } from "../check.js";
import { orderedEntries } from "../ordered.js";
import { EntryReader, emptyServers, type HostServers } from "./entries.js";

export const ZED_EXTENSION = "a Zed extension provides it, and only Zed can run that; give it a command to run it under mcpx";

export function readZed(doc: Record<string, unknown>): HostServers {
  const result = emptyServers();
  const servers = doc.context_servers;
  if (!isObject(servers)) return result;
  for (const [name, entry] of orderedEntries(servers)) {
    if (!isObject(entry)) {
      result.leftOut.push({ name, why: "it is not an object" });
      continue;
    }
    const fromExtension = entry.source === "extension" || (!Object.hasOwn(entry, "command") && !Object.hasOwn(entry, "url"));
    if (fromExtension) {
      result.leftOut.push({ name, why: ZED_EXTENSION });
      continue;
    }
    const r = new EntryReader(entry, ["context_servers", name]);
    r.skip("source");
    const command = r.take("command");
    if (isObject(command)) {
      // The form Zed wrote before mid-2025: the program and its arguments under "command".
      const old = new EntryReader(command, ["context_servers", name, "command"]);
      old.copy("path", "command");
      old.copy("args");
      old.copy("env");
      Object.assign(r.out, old.finish(result.ignored, "not a key of Zed's command"));
    } else if (command !== undefined) r.out.command = command;
    for (const key of ["args", "env", "url", "headers"]) r.copy(key);
    const enabled = r.take("enabled");
    if (enabled !== undefined) r.out.disabled = typeof enabled === "boolean" ? !enabled : enabled;
    r.ignore(result.ignored, "settings", "settings for a Zed extension");
    result.entries.push([name, r.finish(result.ignored, "not a key mcpx reads from Zed's context servers")]);
  }
  return result;
}

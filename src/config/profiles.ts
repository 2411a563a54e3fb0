/**
 * `profiles`: named tool surfaces, each served at `/mcp/<name>` and by `mcpx serve --profile
 * <name>`. A profile picks servers (names or globs) and tools (`SERVER__TOOL` globs on the
 * server's own tool name), may rename a tool, describe it anew and fix some of its arguments,
 * and may choose `expose` and `pinned`. Everything that can be checked without the servers
 * running is checked here: a server that does not exist, a rename into a name that is mcpx's or
 * another server's, two tools renamed alike, an override or pinned tool the profile leaves out.
 */
import { didYouMean, nearest } from "../util/nearest.js";
import { type Checker, isObject } from "./check.js";
import type { KeyPath } from "./keypath.js";
import { orderedEntries } from "./ordered.js";
import { readPinned } from "./pinned.js";
import { globMatches } from "./tool-filter.js";
import type { Expose, Profile, ServerConfig, ToolFilter, ToolOverride } from "./types.js";

const PROFILE_KEYS = ["servers", "tools", "overrides", "expose", "pinned"];
const OVERRIDE_KEYS = ["name", "description", "arguments"];
/** A path segment of `/mcp/<name>` as it is; no leading `_` (nor so `__proto__`). */
const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
/** SEP-986's tool names. */
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,64}$/;
const GLOB = /[*?[\]{}()!+@]/;
const SEPARATOR = "__";

export function readProfiles(check: Checker, value: unknown, at: KeyPath, servers: readonly ServerConfig[], expose: readonly Expose[]): Profile[] {
  if (!isObject(value)) return check.fail(at, 'must be an object: profile name to {"servers", "tools", "overrides", "expose", "pinned"}') ?? [];
  const profiles: Profile[] = [];
  for (const [name, entry] of orderedEntries(value)) {
    const where = [...at, name];
    if (!PROFILE_NAME.test(name)) {
      check.fail(where, 'is not a valid profile name: letters, digits, "_" and "-", starting with a letter or digit, at most 64 (it is a path, /mcp/<name>)');
      continue;
    }
    const profile = readProfile(check, name, entry, where, servers, expose);
    if (profile) profiles.push(profile);
  }
  return profiles;
}

/** A `SERVER__TOOL` pattern split at its first `__`. */
export function splitToolPattern(pattern: string): { server: string; tool: string } | undefined {
  const split = pattern.indexOf(SEPARATOR);
  if (split <= 0 || split + SEPARATOR.length === pattern.length) return undefined;
  return { server: pattern.slice(0, split), tool: pattern.slice(split + SEPARATOR.length) };
}

/** Whether a `SERVER__TOOL` pattern matches a server's own tool. */
export function toolPatternMatches(pattern: string, server: string, tool: string): boolean {
  const parts = splitToolPattern(pattern);
  return parts !== undefined && globMatches(parts.server, server) && globMatches(parts.tool, tool);
}

/** Whether the profile shows a server's own tool (the server's own filter aside). */
export function profileShows(profile: Profile, server: string, tool: string): boolean {
  if (!profile.servers.some((pattern) => globMatches(pattern, server))) return false;
  const { allow, deny } = profile.tools ?? {};
  if (allow && !allow.some((pattern) => toolPatternMatches(pattern, server, tool))) return false;
  return !deny?.some((pattern) => toolPatternMatches(pattern, server, tool));
}

/** The override that presents a tool in the profile: the first whose pattern matches. */
export function overrideFor(profile: Profile, server: string, tool: string): ToolOverride | undefined {
  return profile.overrides.find((override) => toolPatternMatches(override.tool, server, tool));
}

function readProfile(
  check: Checker,
  name: string,
  value: unknown,
  at: KeyPath,
  servers: readonly ServerConfig[],
  exposeChoices: readonly Expose[],
): Profile | undefined {
  const f = check.fields(value, at, PROFILE_KEYS);
  if (!f) return undefined;
  const names = servers.map((server) => server.name);
  const serverPattern = (pattern: string, where: KeyPath): boolean => {
    if (GLOB.test(pattern) || names.includes(pattern)) return true;
    check.fail(where, `names server "${pattern}", which is not in mcpServers${didYouMean(nearest(pattern, names))}`);
    return false;
  };
  const chosen = f.read("servers", (v, where) => {
    if (!Array.isArray(v) || !v.every((entry) => typeof entry === "string" && entry !== "")) {
      return check.fail(where, "must be an array of server names or globs");
    }
    return (v as string[]).filter((pattern, index) => serverPattern(pattern, [...where, String(index)]));
  });
  const tools = f.read("tools", (v, where) => readToolPatterns(check, v, where, names));
  // Resources and prompts follow the servers: without a list, the servers its allowed tools name.
  const selected = chosen ?? (tools?.allow ? [...new Set(tools.allow.flatMap((pattern) => splitToolPattern(pattern)?.server ?? []))] : ["*"]);
  tools?.allow?.forEach((pattern, index) => {
    const server = splitToolPattern(pattern)?.server;
    if (server && !GLOB.test(server) && names.includes(server) && !selected.some((glob) => globMatches(glob, server))) {
      check.fail([...at, "tools", "allow", String(index)], `names server "${server}", which this profile's "servers" leave out`);
    }
  });
  const expose = f.oneOf("expose", exposeChoices);
  const profile: Profile = { name, servers: selected, overrides: [], ...(tools ? { tools } : {}), ...(expose ? { expose } : {}) };
  const overrides = f.read("overrides", (v, where) => readOverrides(check, v, where, profile, servers));
  if (overrides) profile.overrides = overrides;
  const inProfile = servers.filter((server) => selected.some((glob) => globMatches(glob, server.name)));
  const pinned = f.read("pinned", (v, where) => {
    const read = readPinned(check, v, where, inProfile);
    read?.forEach((entry, index) => {
      const parts = splitToolPattern(entry)!;
      if (!profileShows(profile, parts.server, parts.tool)) check.fail([...where, String(index)], `pins "${entry}", which this profile leaves out`);
    });
    return read;
  });
  if (pinned) profile.pinned = pinned;
  return profile;
}

/** `tools: {allow, deny}` of `SERVER__TOOL` globs. */
function readToolPatterns(check: Checker, value: unknown, at: KeyPath, servers: readonly string[]): ToolFilter | undefined {
  const lists = check.fields(value, at, ["allow", "deny"]);
  if (!lists) return undefined;
  const read = (key: "allow" | "deny"): string[] | undefined => {
    const patterns = lists.strings(key);
    patterns?.forEach((pattern, index) => {
      checkToolPattern(check, pattern, [...at, key, String(index)], servers);
    });
    return patterns;
  };
  const allow = read("allow");
  const deny = read("deny");
  return { ...(allow ? { allow } : {}), ...(deny ? { deny } : {}) };
}

function checkToolPattern(check: Checker, pattern: string, at: KeyPath, servers: readonly string[]): boolean {
  const parts = splitToolPattern(pattern);
  if (!parts) {
    check.fail(at, `must be "SERVER__TOOL" (a server or a glob of servers, "__", the server's own tool name or a glob); got ${JSON.stringify(pattern)}`);
    return false;
  }
  if (!GLOB.test(parts.server) && !servers.includes(parts.server)) {
    check.fail(at, `names server "${parts.server}", which is not in mcpServers${didYouMean(nearest(parts.server, servers))}`);
    return false;
  }
  return true;
}

function readOverrides(check: Checker, value: unknown, at: KeyPath, profile: Profile, servers: readonly ServerConfig[]): ToolOverride[] | undefined {
  if (!isObject(value)) return check.fail(at, 'must be an object: "SERVER__TOOL" to {"name", "description", "arguments"}');
  const names = servers.map((server) => server.name);
  const renamedTo = new Map<string, string>();
  const overrides: ToolOverride[] = [];
  for (const [tool, entry] of orderedEntries(value)) {
    const where = [...at, tool];
    if (!checkToolPattern(check, tool, where, names)) continue;
    const f = check.fields(entry, where, OVERRIDE_KEYS);
    if (!f) continue;
    const parts = splitToolPattern(tool)!;
    const glob = GLOB.test(tool);
    if (!glob && !profileShows(profile, parts.server, parts.tool)) {
      check.fail(where, `is a tool this profile leaves out (its "servers" and "tools" decide which it serves)`);
      continue;
    }
    const name = f.read("name", (v, key) => {
      if (typeof v !== "string" || !TOOL_NAME.test(v)) return check.fail(key, 'must be a tool name: 1 to 64 letters, digits, "_", "-" or "."');
      if (glob) return check.fail(key, "renames one tool: give the tool's exact SERVER__TOOL, not a glob");
      if (v.toLowerCase().startsWith("mcpx__")) return check.fail(key, 'must not start with "mcpx__": those names are mcpx\'s own');
      const owner = splitToolPattern(v)?.server;
      if (owner !== undefined && owner !== parts.server && names.includes(owner)) {
        return check.fail(key, `is in server "${owner}"'s names (${owner}__…); rename it to a name of its own`);
      }
      const earlier = renamedTo.get(v);
      if (earlier !== undefined) return check.fail(key, `is also the name given to ${earlier}: two tools cannot share a name`);
      renamedTo.set(v, tool);
      return v;
    });
    const description = f.string("description");
    const args = f.read("arguments", (v, key) => (isObject(v) ? v : check.fail(key, "must be an object: argument name to the value it is fixed at")));
    overrides.push({
      tool,
      ...(name !== undefined ? { name } : {}),
      ...(description !== undefined ? { description } : {}),
      ...(args !== undefined ? { arguments: args } : {}),
    });
  }
  return overrides;
}

/** The profile's servers that exist, and are not hidden: the servers its hosts see. */
export function profileServers(profile: Profile, servers: readonly ServerConfig[]): ServerConfig[] {
  return servers.filter((server) => profile.servers.some((pattern) => globMatches(pattern, server.name)));
}

/**
 * A host's server entries rewritten as mcpx's own (for `mcpx import`): host spellings become
 * mcpx keys, what mcpx ignores is dropped and listed, and `${...}` references stay references
 * (so secrets in the environment stay out of the written file) except the host's predefined
 * folders, which become the absolute paths they meant for that host file. References are read
 * by `readHostReference`, as `mcpx serve` reads them, so both agree on every server.
 */
import path from "node:path";
import { isObject } from "./check.js";
import { type HostName, inputEnvName, timeoutSeconds } from "./host-formats.js";
import { readHostReference } from "./host-references.js";
import { orderedEntries } from "./ordered.js";
import { runsMcpx } from "./runs-mcpx.js";
import { SERVER_KEYS } from "./server-keys.js";
import { HOST_TOOL_LISTS } from "./tool-filter.js";

/** The server keys mcpx's own file has (and `envFile`, which it reads too); anything else is dropped on import. */
const MCPX_SERVER_KEYS = new Set([...SERVER_KEYS, "envFile"]);

export { runsMcpx };

export interface ImportedServers {
  /** mcpx server entries by (valid) name, in the host file's order. */
  servers: Map<string, Record<string, unknown>>;
  /** What the person should know: renamed servers, dropped keys, variables to set. */
  notes: string[];
  /** Servers that cannot be carried as written (by name), with why. */
  problems: Map<string, string[]>;
  /** Each server's key in the host's file (by name), which a rename may have changed. */
  keys: Map<string, string>;
}

/**
 * Reads the servers of one host document (not substituted).
 * @param file the host file's absolute path (relative paths and `${workspaceFolder}` resolve from it).
 * @param cwd the project folder, for Claude Code's per-project servers in `~/.claude.json`.
 */
export function importServers(doc: unknown, file: string, host: HostName, cwd: string): ImportedServers {
  const servers = new Map<string, Record<string, unknown>>();
  const notes: string[] = [];
  const problems = new Map<string, string[]>();
  const keys = new Map<string, string>();
  if (!isObject(doc)) return { servers, notes: [`${file}: not a JSON object; nothing imported`], problems, keys };
  const scopes: [string, unknown][] = [[Object.hasOwn(doc, "mcpServers") ? "mcpServers" : "servers", doc.mcpServers ?? doc.servers]];
  // ~/.claude.json: the project's "local" servers, which win over the user's.
  const project = isObject(doc.projects) ? doc.projects[cwd] : undefined;
  if (isObject(project) && isObject(project.mcpServers)) scopes.push([`projects[${JSON.stringify(cwd)}].mcpServers`, project.mcpServers]);
  for (const [where, entries] of scopes) {
    if (!isObject(entries)) continue;
    for (const [given, entry] of orderedEntries(entries)) {
      const at = `${where}.${given}`;
      if (!isObject(entry)) {
        notes.push(`${at}: not an object; left out`);
        continue;
      }
      if (runsMcpx(given, entry)) {
        notes.push(`${at}: this is mcpx itself; left out`);
        continue;
      }
      const name = serverName(given);
      if (name !== given) notes.push(`${at}: renamed "${name}" (mcpx names use letters, digits, "_" and "-")`);
      const unresolved: string[] = [];
      servers.set(name, convertServer(entry, at, file, host, notes, unresolved));
      keys.set(name, given);
      if (unresolved.length > 0) problems.set(name, [...new Set(unresolved)]);
      else problems.delete(name);
    }
  }
  return { servers, notes, problems, keys };
}

function convertServer(
  entry: Record<string, unknown>,
  at: string,
  file: string,
  host: HostName,
  notes: string[],
  unresolved: string[],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const dropped: string[] = [];
  const dir = path.dirname(file);
  const rewrite = (value: unknown) => rewriteReferences(value, { file, notes, at, unresolved });
  for (const [key, raw] of orderedEntries(entry)) {
    const value = rewrite(raw);
    if (key === "serverUrl" && !Object.hasOwn(entry, "url")) out.url = value;
    else if (key === "transportType" && !Object.hasOwn(entry, "type")) out.type = value;
    else if (key === "timeout" && typeof value === "number" && !Object.hasOwn(entry, "timeoutSeconds")) out.timeoutSeconds = timeoutSeconds(value, host);
    else if ((key === "envFile" || key === "cwd") && typeof value === "string" && !value.includes("${")) out[key] = path.resolve(dir, value);
    else if (MCPX_SERVER_KEYS.has(key)) out[key] = value;
    else if (HOST_TOOL_LISTS.has(key) && Array.isArray(value)) addToolList(out, HOST_TOOL_LISTS.get(key) ?? "deny", value);
    else dropped.push(key);
  }
  if (out.type === "streamableHttp") out.type = "streamable-http";
  if (dropped.length > 0) notes.push(`${at}: dropped ${dropped.join(", ")} (mcpx does not use ${dropped.length === 1 ? "it" : "them"})`);
  return out;
}

/** A host's list of hidden (or only shown) tools, carried into mcpx's `tools` (an empty includeTools is no list in Gemini CLI). */
function addToolList(out: Record<string, unknown>, list: "allow" | "deny", names: unknown[]): void {
  if (list === "allow" && names.length === 0) return;
  const tools = (isObject(out.tools) ? out.tools : {}) as Record<string, unknown>;
  const given = Array.isArray(tools[list]) ? (tools[list] as unknown[]) : [];
  out.tools = { ...tools, [list]: [...given, ...names] };
}

interface Rewriting {
  file: string;
  notes: string[];
  at: string;
  /** Problems that keep the server out: a reference that means nothing for this file. */
  unresolved: string[];
}

/**
 * `${env:NAME}` becomes mcpx's `${NAME}`, `${file:path}` an absolute path (it was relative to
 * the host's file, not to the one written), the host's predefined folders absolute paths.
 */
function rewriteReferences(value: unknown, r: Rewriting): unknown {
  if (Array.isArray(value)) return value.map((item) => rewriteReferences(item, r));
  if (isObject(value)) return Object.fromEntries(orderedEntries(value).map(([k, v]) => [k, rewriteReferences(v, r)]));
  if (typeof value !== "string") return value;
  return value.replace(/\$\{([^}]*)\}/g, (ref, body: string) => {
    const reference = readHostReference(body, r.file, true);
    switch (reference?.kind) {
      case undefined:
        return ref;
      case "env":
        return `\${${reference.name}}`;
      case "input":
        r.notes.push(`${r.at}: uses ${ref}; set ${inputEnvName(reference.id)} for mcpx (it cannot prompt as VS Code does)`);
        return ref;
      case "file":
        return `\${file:${reference.file}}`;
      case "value":
        return reference.value;
      case "none":
        r.unresolved.push(reference.problem);
        return ref;
    }
  });
}

/** A valid mcpx server name made from a host's (which may hold spaces, dots, "__"). */
export function serverName(given: string): string {
  const name = given
    .replace(/[^A-Za-z0-9_-]+/g, "-")
    .replace(/_{2,}/g, "_")
    .replace(/[_-]+$/, "")
    .replace(/^-+/, "");
  return name === "" ? "server" : name;
}

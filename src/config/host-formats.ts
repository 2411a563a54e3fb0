/**
 * What the hosts' own MCP config files carry beside the `mcpServers` convention, so mcpx can
 * read those files as they are: which host a file belongs to, the keys each host adds (read,
 * or ignored with one warning), and the `${...}` references hosts resolve.
 *
 * Sources (each host's documentation): Claude Desktop `claude_desktop_config.json`; Claude
 * Code `.mcp.json` (`type`, `${VAR:-default}`, `timeout` in milliseconds); Cursor `mcp.json`
 * (`envFile`, `${env:NAME}`, `${userHome}`, `${workspaceFolder}`); VS Code `mcp.json`
 * (`servers`, `inputs`, `${input:id}`, `envFile`, `dev`); Windsurf `mcp_config.json`
 * (`serverUrl`, `${env:NAME}`, `${file:path}`, `disabledTools`); Cline
 * `cline_mcp_settings.json` (`type: "streamableHttp"`, `transportType`, `timeout` in seconds,
 * `autoApprove`, `disabled`) and its forks (`alwaysAllow`). Codex, Zed, Gemini CLI, Continue
 * and Goose are read by their own readers (config/hosts/) into this same shape.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { isObject } from "./check.js";
import type { Env, ReferenceResolver } from "./env.js";
import { readHostReference } from "./host-references.js";
import type { KeyPath } from "./keypath.js";
import { HOST_TOOL_LISTS } from "./tool-filter.js";

export type HostName = "claude-desktop" | "claude-code" | "cursor" | "vscode" | "windsurf" | "cline" | "codex" | "zed" | "gemini" | "continue" | "goose";

export const HOST_LABELS: Record<HostName, string> = {
  "claude-desktop": "Claude Desktop",
  "claude-code": "Claude Code",
  cursor: "Cursor",
  vscode: "VS Code",
  windsurf: "Windsurf",
  cline: "Cline",
  codex: "Codex",
  zed: "Zed",
  gemini: "Gemini CLI",
  continue: "Continue",
  goose: "Goose",
};

/** How a file is read: a host's file ignores (with a warning) what mcpx's own file refuses. */
export interface FileStyle {
  /** Whose file it is, when its name or its `servers` key says so. */
  host?: HostName;
  /** True for a host's file: unknown keys are ignored with the warning, a server that cannot run is left out. */
  hostFile: boolean;
}

const APP_SETTING = "the host app's own settings";
/** Top-level keys hosts keep beside their servers, with why mcpx passes them by. */
export const HOST_TOP_KEYS: ReadonlyMap<string, string> = new Map([
  ["globalShortcut", APP_SETTING],
  ["preferences", APP_SETTING],
  ["projects", "Claude Code's per-project state"],
]);

const APPROVAL = "the host's tool approval (the host still asks before a call; mcpx relays it)";
/** Server keys hosts define that mcpx has no use for. */
export const HOST_SERVER_KEYS: ReadonlyMap<string, string> = new Map([
  ["autoApprove", APPROVAL],
  ["alwaysAllow", APPROVAL],
  ["trust", "Gemini CLI's tool approval (the host still asks before a call; mcpx relays it)"],
  ["dev", "VS Code's watch and debug settings"],
  ["description", "a label for the host's UI"],
  ["headersHelper", "Claude Code's header script (set headers instead)"],
  ["auth", "host-managed OAuth (mcpx sends the headers you set)"],
  ["authProviderType", "Gemini CLI's sign-in (mcpx sends the headers you set)"],
  ["targetAudience", "Gemini CLI's sign-in (mcpx sends the headers you set)"],
  ["targetServiceAccount", "Gemini CLI's sign-in (mcpx sends the headers you set)"],
]);

/** Server keys mcpx reads from host formats; `servers`/`inputs` are their top-level kin. */
export const HOST_SERVER_READS = ["serverUrl", "envFile", "timeout", "transportType"] as const;
export const HOST_TOP_READS = ["servers", "inputs"] as const;
// What only a host's file would carry; one of them makes the whole file read as a host's.
const MARKERS = new Set<string>(["serverUrl", "timeout", "transportType", ...HOST_SERVER_KEYS.keys(), ...HOST_TOOL_LISTS.keys()]);

/** Which host a file belongs to, from its name (and VS Code's `servers`). */
export function fileStyle(file: string, doc: unknown): FileStyle {
  const base = path.basename(file);
  const dir = path.basename(path.dirname(path.resolve(file)));
  let host: HostName | undefined;
  if (base === "claude_desktop_config.json") host = "claude-desktop";
  else if (base === ".mcp.json" || base === ".claude.json") host = "claude-code";
  else if (base === "mcp_config.json") host = "windsurf";
  else if (base === "cline_mcp_settings.json") host = "cline";
  else if (base === "mcp.json" && dir === ".cursor") host = "cursor";
  else if (base === "mcp.json" && (dir === ".vscode" || dir === "User")) host = "vscode";
  const top = isObject(doc) ? doc : {};
  if (!host && Object.hasOwn(top, "servers") && !Object.hasOwn(top, "mcpServers")) host = "vscode";
  return { ...(host ? { host } : {}), hostFile: host !== undefined || hasMarkers(top) };
}

function hasMarkers(top: Record<string, unknown>): boolean {
  if (Object.keys(top).some((key) => HOST_TOP_KEYS.has(key) || key === "inputs")) return true;
  const servers = top.mcpServers;
  if (!isObject(servers)) return false;
  return Object.values(servers).some((entry) => isObject(entry) && Object.keys(entry).some((key) => MARKERS.has(key)));
}

/** The variable that stands in for VS Code's prompt for `${input:id}`: `MCPX_INPUT_` and the id in capitals. */
export function inputEnvName(id: string): string {
  return `MCPX_INPUT_${id.toUpperCase().replace(/[^A-Z0-9]/g, "_")}`;
}

/** A server that needs an `${input:...}` nobody supplied, so mcpx leaves it disabled. */
export interface MissingInput {
  /** Where the reference is written. */
  at: KeyPath;
  server: string;
  id: string;
  envName: string;
  description?: string;
}

/**
 * Resolves the references hosts define (see `readHostReference`); a bare predefined name wins
 * over a same-named environment variable in a host's file, as it does in the host.
 * @param missing called for each `${input:id}` with no `MCPX_INPUT_<ID>` set (resolved as "").
 * @param unresolvable called for a reference that means nothing for this file (`${workspaceFolder}`
 *   with no workspace): the server is disabled, not run on a guess.
 */
export function hostReferences(
  file: string,
  style: FileStyle,
  env: Env,
  inputs: unknown,
  missing: (input: MissingInput) => void,
  unresolvable: (at: KeyPath, problem: string) => void,
): ReferenceResolver {
  return (body: string, at: KeyPath) => {
    const reference = readHostReference(body, file, style.hostFile);
    switch (reference?.kind) {
      case undefined:
        return undefined;
      case "env": {
        const value = env[reference.name];
        return value !== undefined ? { value } : { problem: `uses \${env:${reference.name}}, but the environment variable ${reference.name} is not set` };
      }
      case "input": {
        const envName = inputEnvName(reference.id);
        const value = env[envName];
        if (value !== undefined) return { value };
        const description = describeInput(inputs, reference.id);
        missing({ at, server: String(at[1] ?? ""), id: reference.id, envName, ...(description ? { description } : {}) });
        return { value: "" };
      }
      case "file":
        return readReferencedFile(reference.given, reference.file);
      case "value":
        return { value: reference.value };
      case "none":
        unresolvable(at, reference.problem);
        return { value: `\${${body}}` };
    }
  };
}

function describeInput(inputs: unknown, id: string): string | undefined {
  if (!Array.isArray(inputs)) return undefined;
  const input: unknown = inputs.find((entry) => isObject(entry) && entry.id === id);
  return isObject(input) && typeof input.description === "string" ? input.description : undefined;
}

/** Windsurf's `${file:path}`: the file's text without its final newline. */
function readReferencedFile(given: string, file: string): { value: string } | { problem: string } {
  try {
    return { value: readFileSync(file, "utf8").replace(/\r?\n$/, "") };
  } catch (err) {
    return { problem: `uses \${file:${given}}, but ${file} cannot be read (${(err as NodeJS.ErrnoException).code ?? "error"})` };
  }
}

/**
 * A host's `timeout` in seconds: Claude Code and Gemini CLI write milliseconds, Cline seconds;
 * a file of no known host is read as milliseconds above an hour (Cline's own maximum) and
 * seconds below.
 */
export function timeoutSeconds(value: number, host: HostName | undefined): number {
  if (host === "claude-code" || host === "gemini") return value / 1000;
  if (host === "cline") return value;
  return value > 3600 ? value / 1000 : value;
}

/** The one warning that lists every ignored key, grouped by why it is ignored. */
export function ignoredWarning(file: string, ignored: readonly { path: string; reason: string }[]): string | undefined {
  if (ignored.length === 0) return undefined;
  const byReason = new Map<string, string[]>();
  for (const { path: at, reason } of ignored) byReason.set(reason, [...(byReason.get(reason) ?? []), at]);
  const lines = [...byReason].map(([reason, paths]) => `  ${paths.join(", ")}: ${reason}`);
  return `${file}: ignored what mcpx does not use (the host that wrote it still reads it):\n${lines.join("\n")}`;
}

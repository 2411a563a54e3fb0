/** The HOST argument of `mcpx import` and `mcpx install`. */
import type { Env } from "../config/env.js";
import { HOST_LABELS, type HostName } from "../config/host-formats.js";
import { HOST_NAMES } from "../config/host-paths.js";
import { CliError, Exit } from "./exit.js";

// What people type for each host, beside the canonical names.
const ALIASES: Record<string, HostName> = {
  claude: "claude-desktop",
  code: "vscode",
  "vs-code": "vscode",
  claudecode: "claude-code",
  "gemini-cli": "gemini",
  "codex-cli": "codex",
  "openai-codex": "codex",
  "continue-dev": "continue",
};

export function parseHost(given: string): HostName {
  const key = given.toLowerCase();
  const host = (HOST_NAMES as readonly string[]).includes(key) ? (key as HostName) : ALIASES[key];
  if (!host) throw new CliError(`unknown host "${given}": use one of ${HOST_NAMES.join(", ")}`, Exit.Usage);
  return host;
}

export function hostLabel(host: HostName): string {
  return HOST_LABELS[host];
}

/** Every variable "set": for checking a config's shape apart from the environment it will run in. */
export const ANY_ENV: Env = new Proxy({}, { get: () => "set" });

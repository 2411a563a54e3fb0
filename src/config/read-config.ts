/**
 * `readConfig` (load.ts) for a command that must start fast: the same config and warnings, but
 * a host's own reader (config/hosts/) is loaded only for a file that needs one, and the TOML
 * and YAML parsers only for such a file (document.ts). Most configs are mcpx's own JSON.
 */
import { configDocument, parseDocument, readConfigText } from "./document.js";
import type { Env } from "./env.js";
import { type CheckedConfig, checkConfig } from "./validate.js";

/** @throws ConfigError for a missing or unreadable file, a syntax error, or an invalid config. */
export async function readConfigLazily(file: string, env: Env = process.env): Promise<CheckedConfig> {
  return checkConfigText(readConfigText(file), file, env);
}

/** `readConfigLazily` of a file whose text was read already. @throws ConfigError for a syntax error or an invalid config. */
export async function checkConfigText(text: string, file: string, env: Env = process.env): Promise<CheckedConfig> {
  const parsed = parseDocument(text, file);
  const read = parsed.host ? (await import("./host-readers.js")).HOST_READERS[parsed.host] : undefined;
  const { doc, style, warnings } = configDocument(parsed, file, read);
  const checked = checkConfig(doc, file, env, style);
  return { ...checked, warnings: [...warnings, ...checked.warnings] };
}

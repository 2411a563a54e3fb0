/** Finding and reading the config file. */
import { readConfigText } from "./document.js";
import type { Env } from "./env.js";
import { readDocument } from "./host-document.js";
import type { Config } from "./types.js";
import { type CheckedConfig, checkConfig } from "./validate.js";

export { type CheckedConfig, checkConfig, configFromObject, defaultConfig, DEFAULTS_FILE } from "./validate.js";
export { findConfigPath } from "./config-path.js";

/**
 * Reads, parses (JSONC), substitutes `${VAR}` from `env`, validates and fills in defaults.
 * @throws ConfigError for a missing or unreadable file, a syntax error, or an invalid config.
 */
export function loadConfig(file: string, env: Env = process.env): Config {
  return readConfig(file, env).config;
}

/**
 * `loadConfig` with the warnings to show once: keys ignored in a host's file, servers left
 * out or disabled. A host's file (Claude Desktop, Claude Code, Cursor, VS Code, Windsurf,
 * Cline; Codex's TOML, Zed, Gemini CLI, Continue's and Goose's YAML) is read as it is; see
 * `readDocument` and `checkConfig`.
 */
export function readConfig(file: string, env: Env = process.env): CheckedConfig {
  const { doc, style, warnings } = readDocument(readConfigText(file), file);
  const checked = checkConfig(doc, file, env, style);
  return { ...checked, warnings: [...warnings, ...checked.warnings] };
}

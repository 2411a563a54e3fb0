/** What every command needs: the config, and a logger. */
import { ConfigError } from "../config/errors.js";
import { findConfigPath, loadConfig } from "../config/load.js";
import type { Config } from "../config/types.js";
import { CliError, Exit } from "./exit.js";
import { parseRules } from "../broker/policy.js";

/** mcpx's own tools are named `mcpx__…`, so no upstream may be called `mcpx`. */
export const RESERVED_SERVER_NAME = "mcpx";

export function configFor(explicit: string | undefined): Config {
  try {
    const config = loadConfig(findConfigPath(explicit));
    parseRules(config.elicitation.rules, config.file);
    const reserved = config.servers.find((server) => server.name === RESERVED_SERVER_NAME);
    if (reserved) throw new ConfigError(`${config.file}: mcpServers.${RESERVED_SERVER_NAME} is reserved for mcpx's own tools; rename that server`);
    return config;
  } catch (error) {
    if (error instanceof ConfigError) throw new CliError(error.message, Exit.Usage);
    throw error;
  }
}

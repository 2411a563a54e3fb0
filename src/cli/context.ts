/** What every command needs: the config, and a logger. */
import { ConfigError } from "../config/errors.js";
import { findConfigPath, loadConfig } from "../config/load.js";
import type { Config } from "../config/types.js";
import { CliError, Exit } from "./exit.js";

export function configFor(explicit: string | undefined): Config {
  try {
    return loadConfig(findConfigPath(explicit));
  } catch (error) {
    if (error instanceof ConfigError) throw new CliError(error.message, Exit.Usage);
    throw error;
  }
}

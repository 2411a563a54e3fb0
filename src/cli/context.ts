/** What every command needs: the config, and a logger. */
import { existsSync } from "node:fs";
import { ConfigError } from "../config/errors.js";
import { findConfigPath } from "../config/config-path.js";
import { readConfigLazily } from "../config/read-config.js";
import type { Config } from "../config/types.js";
import type { CheckedConfig } from "../config/validate.js";
import { CliError, Exit } from "./exit.js";

/** mcpx's own tools are named `mcpx__…`, so no upstream may be called `mcpx`. */
export const RESERVED_SERVER_NAME = "mcpx";

/**
 * Loads the config for a command. Its warnings (keys a host's file carries that mcpx ignores,
 * servers left out or disabled) go to stderr once, here, before the command runs.
 *
 * `rules: false` leaves the policy rules unchecked (and the broker's modules unloaded): the
 * discovery commands never ask a question, and must cost little more than Node's start.
 */
export async function configFor(explicit: string | undefined, options: { rules?: boolean } = {}): Promise<Config> {
  return configFrom(() => readConfigLazily(findConfigPath(explicit)), options);
}

/** `configFor` of a config `read` gives (cli/hot-config.ts reads the file itself). */
export async function configFrom(read: () => Promise<CheckedConfig>, options: { rules?: boolean } = {}): Promise<Config> {
  try {
    const { config, warnings } = await read();
    for (const warning of warnings) process.stderr.write(`mcpx: warning: ${warning}\n`);
    if (options.rules !== false) (await import("../broker/policy.js")).parseRules(config.elicitation.rules, config.file);
    const reserved = config.servers.find((server) => server.name === RESERVED_SERVER_NAME);
    if (reserved) throw new ConfigError(`${config.file}: mcpServers.${RESERVED_SERVER_NAME} is reserved for mcpx's own tools; rename that server`);
    return config;
  } catch (error) {
    if (error instanceof ConfigError) throw new CliError(error.message, Exit.Usage);
    throw error;
  }
}

/**
 * The config of a command that works on the store alone (`elicit`, `tasks`, `audit`, `ui`,
 * `link`): the one `--config` names, else `$MCPX_CONFIG` or `./mcpx.json` when that file exists,
 * for its `store.url` and `cluster`; undefined without one (the state directory's store).
 */
export async function storeConfigFor(explicit: string | undefined): Promise<Config | undefined> {
  const path = findConfigPath(explicit);
  if (!explicit && !existsSync(path)) return undefined;
  return configFor(path, { rules: false });
}

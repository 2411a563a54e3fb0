/**
 * The broker's store, opened for a command: the config's `store` when the command reads a
 * config, else the state directory's SQLite file. A store that cannot be used is the command's
 * clear error, not a stack trace.
 */
import { openStore } from "../broker/open-store.js";
import { stateDir } from "../broker/state-path.js";
import type { BrokerStore } from "../broker/store-api.js";
import type { Config } from "../config/types.js";
import { GatewayError } from "../protocol/errors.js";
import { CliError } from "./exit.js";

export async function openCommandStore(config?: Pick<Config, "store">, dir = stateDir()): Promise<BrokerStore> {
  try {
    return await openStore({ stateDir: dir, ...(config?.store ? { url: config.store.url } : {}) });
  } catch (error) {
    if (error instanceof GatewayError) throw new CliError(error.message);
    throw error;
  }
}

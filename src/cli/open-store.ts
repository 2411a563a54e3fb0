/** The state directory's question store, opened for a command: a store that cannot be used is the command's clear error. */
import { stateDir } from "../broker/state-path.js";
import { QuestionStore } from "../broker/store.js";
import { GatewayError } from "../protocol/errors.js";
import { CliError } from "./exit.js";

export function openCommandStore(dir = stateDir()): QuestionStore {
  try {
    return QuestionStore.open(dir);
  } catch (error) {
    if (error instanceof GatewayError) throw new CliError(error.message);
    throw error;
  }
}

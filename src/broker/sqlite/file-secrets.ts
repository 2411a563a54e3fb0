/**
 * The shared secrets as files in the state directory (0600, broker/token.ts), shared by every
 * mcpx process of the user: each is the file named after it (`api-token`, `request-state-key`).
 */
import { join } from "node:path";
import type { SharedSecrets } from "../store-api.js";
import { privateSecret } from "../token.js";

/** A name that is a plain file name of its own: never a path, never one of the store's files. */
const SECRET_NAME = /^[a-z][a-z0-9-]{0,63}$/;

export function fileSecrets(stateDir: string): SharedSecrets {
  return {
    get: async (name) => {
      if (!SECRET_NAME.test(name)) throw new Error(`a shared secret's name is lowercase letters, digits and "-" (got ${JSON.stringify(name)})`);
      return privateSecret(stateDir, name);
    },
    whereIs: (name) => join(stateDir, name),
  };
}

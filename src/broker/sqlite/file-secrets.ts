/** The shared secrets as files in the state directory (0600, broker/token.ts), shared by every mcpx process of the user. */
import type { SharedSecrets } from "../store-api.js";
import { apiToken, requestStateSecret } from "../token.js";

export function fileSecrets(stateDir: string): SharedSecrets {
  return {
    get: async (name) => {
      if (name === "api-token") return apiToken(stateDir);
      if (name === "request-state-key") return requestStateSecret(stateDir);
      throw new Error(`no shared secret is called ${name}`);
    },
  };
}

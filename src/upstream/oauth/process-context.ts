/**
 * The sign-in context of one mcpx process: the credential store in its state dir (opened on
 * first use, so commands that never meet a 401 never open it), the sign-ins waiting for their
 * redirect, and where redirects come back (mcpx's own `/oauth/callback` when it serves HTTP,
 * given as `callbacks`; else, and for a server with its own `oauth.callbackPort`, a loopback
 * listener).
 */
import type { ServerConfig } from "../../config/types.js";
import type { OAuthContext } from "./context.js";
import { SqliteCredentialStore } from "./credential-store.js";
import { LoopbackCallbacks } from "./loopback-callback.js";
import { PendingSignIns } from "./pending-sign-ins.js";
import type { CallbackEndpoint, CredentialStore } from "./types.js";

export function processOAuth(
  stateDir: string,
  servers: ServerConfig[],
  waitMs: number,
  callbacks?: (pending: PendingSignIns) => CallbackEndpoint,
): OAuthContext {
  const pending = new PendingSignIns();
  const portOf = (name: string): number | undefined => {
    const oauth = servers.find((server) => server.name === name)?.oauth;
    return oauth ? oauth.callbackPort : undefined;
  };
  const loopback = new LoopbackCallbacks(pending, portOf);
  const served = callbacks?.(pending);
  // A server configured with its own callbackPort (an exact redirect registered beforehand) keeps its loopback listener.
  const endpoint: CallbackEndpoint = served ? { url: (server) => (portOf(server) === undefined ? served.url(server) : loopback.url(server)) } : loopback;
  return {
    store: lazyStore(stateDir),
    pending,
    waitMs,
    callbacks: endpoint,
    close: () => {
      pending.abandonAll(new Error("mcpx stopped before the sign-in came back"));
      loopback.close();
    },
  };
}

function lazyStore(dir: string): CredentialStore {
  let store: SqliteCredentialStore | undefined;
  const open = (): SqliteCredentialStore => (store ??= SqliteCredentialStore.open(dir));
  return {
    read: (key) => open().read(key),
    write: (key, credentials) => open().write(key, credentials),
    remove: (key) => open().remove(key),
    list: () => open().list(),
  };
}

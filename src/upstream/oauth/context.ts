/** What a process gives its upstreams so they can sign in: one per process, the identity per connection. */
import type { PendingSignIns } from "./pending-sign-ins.js";
import type { CallbackEndpoint, CredentialStore } from "./types.js";

export interface OAuthContext {
  store: CredentialStore;
  callbacks: CallbackEndpoint;
  pending: PendingSignIns;
  /** How long a sign-in waits for its redirect (the question's lifetime). */
  waitMs: number;
  /** The process is done with sign-ins: those still waiting end, and any loopback listener closes. */
  close(): void;
}

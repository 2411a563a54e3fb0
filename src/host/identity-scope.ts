/**
 * The scope of an upstream connection kept for one identity (issue 16): with identities on, an
 * HTTP server is reached by each identity other than the operator on a connection of its own,
 * shared by all that identity's sessions, so what it signs in to upstream (its tokens, the
 * server's session) is its alone. Not a host: no single host owns such a connection, so
 * attribution goes by the calls in flight, as on a shared one; but every question on it is
 * this identity's.
 */
import { LOCAL_IDENTITY } from "../broker/identity.js";

export class IdentityScope {
  constructor(readonly identity: string) {}
}

/**
 * Whose a connection is, for what it signs in to upstream (issue 16: an upstream's tokens are
 * keyed by server and identity): an identity's own connection's identity, a per-host
 * connection's host's, else (the shared connection) the operator's.
 */
export function connectionIdentity(scope: object | undefined): string {
  if (scope instanceof IdentityScope) return scope.identity;
  const identity = (scope as { identity?: unknown } | undefined)?.identity;
  return typeof identity === "string" ? identity : LOCAL_IDENTITY;
}

/**
 * The scope of an upstream connection kept for one identity (issue 16): with identities on, an
 * HTTP server is reached by each identity other than the operator on a connection of its own,
 * shared by all that identity's sessions, so what it signs in to upstream (its tokens, the
 * server's session) is its alone. Not a host: no single host owns such a connection, so
 * attribution goes by the calls in flight, as on a shared one; but every question on it is
 * this identity's.
 */
export class IdentityScope {
  constructor(readonly identity: string) {}
}

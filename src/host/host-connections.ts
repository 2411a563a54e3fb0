/**
 * Connections of their own for hosts: a server configured `sharing: "per-host"` gets one
 * connection (for stdio, one process) per host session, started on that host's first request
 * and stopped when the host goes. The gateway's shared connection to it still provides the
 * catalogue. Every question on a host's own connection is provably that host's.
 *
 * The same for identities (identity-scope.ts): the scope is then an `IdentityScope`, and the
 * connection lives while any session of that identity does.
 */
import type { ServerConfig } from "../config/types.js";
import type { Upstream } from "../upstream/upstream.js";
import type { IdentityScope } from "./identity-scope.js";
import type { HostSession } from "./session.js";

export type ConnectionScope = HostSession | IdentityScope;

export class HostConnections {
  readonly #bySession = new Map<ConnectionScope, Map<string, Upstream>>();

  constructor(private readonly open: (config: ServerConfig, scope: ConnectionScope) => Upstream) {}

  /** `session`'s (or an identity's) own connection to the server behind `shared`, started if need be. */
  async get(session: ConnectionScope, shared: Upstream): Promise<Upstream> {
    let mine = this.#bySession.get(session);
    if (!mine) this.#bySession.set(session, (mine = new Map()));
    let upstream = mine.get(shared.name);
    if (!upstream) {
      upstream = this.open(shared.config, session);
      mine.set(shared.name, upstream);
    }
    await upstream.start();
    return upstream;
  }

  /** `session`'s (or an identity's) own connection to `server`, if it has one: none is started. */
  peek(session: ConnectionScope, server: string): Upstream | undefined {
    return this.#bySession.get(session)?.get(server);
  }

  /** Every host's own connection, live now. */
  all(): Upstream[] {
    return [...this.#bySession.values()].flatMap((mine) => [...mine.values()]);
  }

  /** The host (or the identity's last session) has gone: stop its connections. */
  async close(session: ConnectionScope): Promise<void> {
    const mine = this.#bySession.get(session);
    this.#bySession.delete(session);
    // Every connection is stopped, even when stopping one of them fails.
    await Promise.allSettled([...(mine?.values() ?? [])].map((upstream) => upstream.stop()));
  }
}

/**
 * Connections of their own for hosts: a server configured `sharing: "per-host"` gets one
 * connection (for stdio, one process) per host session, started on that host's first request
 * and stopped when the host goes. The gateway's shared connection to it still provides the
 * catalogue. Every question on a host's own connection is provably that host's.
 */
import type { ServerConfig } from "../config/types.js";
import type { Upstream } from "../upstream/upstream.js";
import type { HostSession } from "./session.js";

export class HostConnections {
  readonly #bySession = new Map<HostSession, Map<string, Upstream>>();

  constructor(private readonly open: (config: ServerConfig, session: HostSession) => Upstream) {}

  /** `session`'s own connection to the server behind `shared`, started if need be. */
  async get(session: HostSession, shared: Upstream): Promise<Upstream> {
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

  /** Every host's own connection, live now. */
  all(): Upstream[] {
    return [...this.#bySession.values()].flatMap((mine) => [...mine.values()]);
  }

  /** The host has gone: stop its connections. */
  async close(session: HostSession): Promise<void> {
    const mine = this.#bySession.get(session);
    this.#bySession.delete(session);
    // Every connection is stopped, even when stopping one of them fails.
    await Promise.allSettled([...(mine?.values() ?? [])].map((upstream) => upstream.stop()));
  }
}

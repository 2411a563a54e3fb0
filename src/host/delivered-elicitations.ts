/**
 * URL elicitations that were delivered to a host, so that the upstream's
 * `notifications/elicitation/complete` reaches that host alone (the spec's MUST), on the
 * stream of the call that asked while it is still open.
 */
import type { Upstream } from "../upstream/upstream.js";
import type { AskedHost, HostSession } from "./session.js";

/**
 * Keyed by the connection that asked, not the server's name: a per-host server has one
 * connection per host, and a completion on one of them must never reach another host.
 */
export class DeliveredElicitations {
  readonly #byConnection = new Map<Upstream, Map<string, AskedHost>>();

  remember(upstream: Upstream, elicitationId: string, asked: AskedHost): void {
    let ids = this.#byConnection.get(upstream);
    if (!ids) this.#byConnection.set(upstream, (ids = new Map()));
    ids.set(elicitationId, asked);
  }

  /** The host that was asked, once; unknown or already-completed ids give undefined. */
  take(upstream: Upstream, elicitationId: string): AskedHost | undefined {
    const ids = this.#byConnection.get(upstream);
    const asked = ids?.get(elicitationId);
    ids?.delete(elicitationId);
    if (ids?.size === 0) this.#byConnection.delete(upstream);
    return asked;
  }

  /** A host went away: nothing more can be delivered to it. */
  forget(session: HostSession): void {
    for (const [upstream, ids] of this.#byConnection) {
      for (const [id, asked] of ids) if (asked.session === session) ids.delete(id);
      if (ids.size === 0) this.#byConnection.delete(upstream);
    }
  }
}

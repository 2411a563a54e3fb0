/**
 * URL elicitations that were delivered to a host, so that the upstream's
 * `notifications/elicitation/complete` reaches that host alone (the spec's MUST), on the
 * stream of the call that asked while it is still open.
 */
import type { Upstream } from "../upstream/upstream.js";
import { ByConnection } from "./by-connection.js";
import type { AskedHost, HostSession } from "./session.js";

/** Keyed by the connection that asked (see ByConnection): a completion reaches only its own host. */
export class DeliveredElicitations {
  readonly #asked = new ByConnection<AskedHost>();

  remember(upstream: Upstream, elicitationId: string, asked: AskedHost): void {
    this.#asked.set(upstream, elicitationId, asked);
  }

  /** The host that was asked, once; unknown or already-completed ids give undefined. */
  take(upstream: Upstream, elicitationId: string): AskedHost | undefined {
    return this.#asked.take(upstream, elicitationId);
  }

  /** A host went away: nothing more can be delivered to it. */
  forget(session: HostSession): void {
    this.#asked.deleteWhere((asked) => asked.session === session);
  }
}

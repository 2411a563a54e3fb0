/**
 * URL elicitations that were delivered to a host, so that the upstream's
 * `notifications/elicitation/complete` reaches that host alone (the spec's MUST), on the
 * stream of the call that asked while it is still open.
 */
import type { Upstream } from "../upstream/upstream.js";
import { ByConnection } from "./by-connection.js";
import type { AskedHost, HostSession } from "./session.js";

/**
 * Keyed by the connection that asked (see ByConnection): a completion reaches only its own
 * hosts. Mostly one; a sign-in raised before any call is put to each host whose call waits for it.
 */
export class DeliveredElicitations {
  readonly #asked = new ByConnection<AskedHost[]>();

  remember(upstream: Upstream, elicitationId: string, asked: AskedHost): void {
    const hosts = this.#asked.get(upstream, elicitationId) ?? [];
    this.#asked.set(upstream, elicitationId, [...hosts.filter((host) => host.session !== asked.session), asked]);
  }

  /** The hosts that were asked, once; unknown or already-completed ids give none. */
  take(upstream: Upstream, elicitationId: string): AskedHost[] {
    return this.#asked.take(upstream, elicitationId) ?? [];
  }

  /** A host went away: nothing more can be delivered to it. */
  forget(session: HostSession): void {
    // The host leaves every list it is on; a list left empty goes.
    this.#asked.deleteWhere((hosts) => {
      const left = hosts.filter((asked) => asked.session !== session);
      hosts.splice(0, hosts.length, ...left);
      return left.length === 0;
    });
  }
}

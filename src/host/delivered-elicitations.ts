/**
 * URL elicitations that were delivered to a host, so that the upstream's
 * `notifications/elicitation/complete` reaches that host alone (the spec's MUST), on the
 * stream of the call that asked while it is still open.
 */
import type { HostCall, HostSession } from "./session.js";

export class DeliveredElicitations {
  readonly #byKey = new Map<string, HostCall>();

  remember(server: string, elicitationId: string, call: HostCall): void {
    this.#byKey.set(key(server, elicitationId), call);
  }

  /** The call that was asked, once; unknown or already-completed ids give undefined. */
  take(server: string, elicitationId: string): HostCall | undefined {
    const call = this.#byKey.get(key(server, elicitationId));
    this.#byKey.delete(key(server, elicitationId));
    return call;
  }

  /** A host went away: nothing more can be delivered to it. */
  forget(session: HostSession): void {
    for (const [entry, call] of this.#byKey) if (call.session === session) this.#byKey.delete(entry);
  }
}

function key(server: string, elicitationId: string): string {
  return `${server}\u0000${elicitationId}`;
}

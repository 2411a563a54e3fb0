/**
 * Values keyed by the upstream connection they came on and an id of that upstream's (an
 * `elicitationId`). Keyed by connection, not by server name: a per-host server has one
 * connection per host, and what one of them says must never reach another host (design rule 5).
 */
import type { Upstream } from "../upstream/upstream.js";

export class ByConnection<V> {
  readonly #byConnection = new Map<Upstream, Map<string, V>>();

  set(upstream: Upstream, id: string, value: V): void {
    let values = this.#byConnection.get(upstream);
    if (!values) this.#byConnection.set(upstream, (values = new Map()));
    values.set(id, value);
  }

  get(upstream: Upstream, id: string): V | undefined {
    return this.#byConnection.get(upstream)?.get(id);
  }

  /** The value, once: it is removed as it is read. */
  take(upstream: Upstream, id: string): V | undefined {
    const value = this.get(upstream, id);
    this.delete(upstream, id);
    return value;
  }

  delete(upstream: Upstream, id: string): void {
    const values = this.#byConnection.get(upstream);
    values?.delete(id);
    if (values?.size === 0) this.#byConnection.delete(upstream);
  }

  /** Remove every value `drop` says to, on every connection. */
  deleteWhere(drop: (value: V) => boolean): void {
    for (const [upstream, values] of this.#byConnection) {
      for (const [id, value] of values) if (drop(value)) values.delete(id);
      if (values.size === 0) this.#byConnection.delete(upstream);
    }
  }
}

/**
 * How many questions each upstream connection has waiting. An upstream that floods the broker
 * with questions (each a row, a timer, a waiter) is bounded: beyond the limit it is answered
 * `cancel` at once, which is what a person ignoring it would eventually say.
 */
import type { Upstream } from "../upstream/upstream.js";

export class PendingQuestions {
  readonly #counts = new Map<Upstream, number>();

  constructor(private readonly limit: number) {}

  /** A slot for one more question, released by calling the result; undefined when full. */
  take(upstream: Upstream): (() => void) | undefined {
    const count = this.#counts.get(upstream) ?? 0;
    if (count >= this.limit) return undefined;
    this.#counts.set(upstream, count + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.#counts.get(upstream) ?? 1) - 1;
      if (left > 0) this.#counts.set(upstream, left);
      else this.#counts.delete(upstream);
    };
  }

  count(upstream: Upstream): number {
    return this.#counts.get(upstream) ?? 0;
  }
}

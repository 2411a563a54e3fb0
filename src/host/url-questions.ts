/**
 * URL questions by the connection that asked and the upstream's `elicitationId`, so that the
 * upstream's `notifications/elicitation/complete` (on any stream of that connection) records
 * the completion of the question it is about, and of no other: keyed by connection, not by
 * server name, as a per-host server's connections are different hosts' (design rule 5).
 */
import type { Upstream } from "../upstream/upstream.js";

export class UrlQuestions {
  readonly #byConnection = new Map<Upstream, Map<string, string>>();

  remember(upstream: Upstream, elicitationId: string, questionId: string): void {
    let ids = this.#byConnection.get(upstream);
    if (!ids) this.#byConnection.set(upstream, (ids = new Map()));
    ids.set(elicitationId, questionId);
  }

  /** The question an upstream's completion is about, once; unknown ids give undefined (spec: ignored). */
  take(upstream: Upstream, elicitationId: string): string | undefined {
    const ids = this.#byConnection.get(upstream);
    const questionId = ids?.get(elicitationId);
    this.forget(upstream, elicitationId, questionId);
    return questionId;
  }

  /** The question is finished one way or another: a later completion for it is ignored. */
  forget(upstream: Upstream, elicitationId: string, questionId: string | undefined): void {
    const ids = this.#byConnection.get(upstream);
    if (!ids || questionId === undefined || ids.get(elicitationId) !== questionId) return;
    ids.delete(elicitationId);
    if (ids.size === 0) this.#byConnection.delete(upstream);
  }
}

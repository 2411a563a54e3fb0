/**
 * URL questions by the connection that asked and the upstream's `elicitationId`, so that the
 * upstream's `notifications/elicitation/complete` (on any stream of that connection) records
 * the completion of the question it is about, and of no other: keyed by connection, not by
 * server name, as a per-host server's connections are different hosts' (design rule 5).
 */
import type { Upstream } from "../upstream/upstream.js";
import { ByConnection } from "./by-connection.js";

export class UrlQuestions {
  readonly #questions = new ByConnection<string>();

  remember(upstream: Upstream, elicitationId: string, questionId: string): void {
    this.#questions.set(upstream, elicitationId, questionId);
  }

  /** The question an upstream's URL question is, while it waits for its completion. */
  get(upstream: Upstream, elicitationId: string): string | undefined {
    return this.#questions.get(upstream, elicitationId);
  }

  /** The question an upstream's completion is about, once; unknown ids give undefined (spec: ignored). */
  take(upstream: Upstream, elicitationId: string): string | undefined {
    return this.#questions.take(upstream, elicitationId);
  }

  /** The question is finished one way or another: a later completion for it is ignored. */
  forget(upstream: Upstream, elicitationId: string, questionId: string | undefined): void {
    if (questionId !== undefined && this.#questions.get(upstream, elicitationId) === questionId) this.#questions.delete(upstream, elicitationId);
  }
}

/**
 * A host's call on its way upstream, which may have to answer the host before the upstream is
 * done: when a URL question of this very call cannot be delivered inline to a host that could
 * take it (a 2025-11-25 host that declared `elicitation.url`, on an HTTP POST that accepts only
 * JSON), the host's request is answered `-32042` listing exactly the blocking questions, and
 * the work goes on, parked (`parked-calls.ts`), until the host retries the same request: the
 * retry then waits for the outcome (the question's answer or completion is what it waits for).
 */
import { ErrorCode, type JsonObject } from "../protocol/jsonrpc.js";
import { RpcError } from "../protocol/errors.js";
import type { IncomingContext } from "../rpc/peer.js";
import type { BlockedUrlQuestion, CallerContext } from "./session.js";

type Step = { result: JsonObject } | { error: unknown } | { blocked: BlockedUrlQuestion[] };

export class ForwardedCall {
  readonly outcome: Promise<JsonObject>;
  readonly #abort = new AbortController();
  /** Made only when a question of the call asks for it (most calls raise none). */
  #ended: AbortController | undefined;
  #over = false;
  #blocked: BlockedUrlQuestion[] = [];
  #flush: NodeJS.Immediate | undefined;
  #waiter: ((blocked: BlockedUrlQuestion[]) => void) | undefined;

  /**
   * @param owner the call as the upstream layer and attribution see it; its `requestId` moves
   * to the host's retry, so what the call asks later travels with the request now waiting.
   */
  constructor(
    readonly owner: CallerContext,
    readonly server: string,
    start: (signal: AbortSignal) => Promise<JsonObject>,
  ) {
    owner.signal = this.#abort.signal;
    owner.ended = () => this.#endedSignal();
    owner.urlBlocked = (blocked) => this.#block(blocked);
    this.outcome = start(this.#abort.signal);
    // A parked call's failure is the retry's to report; either way the call is over.
    const over = (): void => {
      this.#over = true;
      this.#ended?.abort();
    };
    this.outcome.then(over, over);
  }

  /** Aborted once the call is over or cancelled. */
  #endedSignal(): AbortSignal {
    if (this.#ended) return this.#ended.signal;
    const ended = new AbortController();
    this.#ended = ended;
    if (this.#over || this.#abort.signal.aborted) ended.abort();
    else this.#abort.signal.addEventListener("abort", () => ended.abort(), { once: true });
    return ended.signal;
  }

  /**
   * Wait for the outcome on behalf of the host's request `context`. Throws `-32042` (after
   * calling `parked`) when URL questions of the call block it; cancelling the request ends it.
   */
  async serve(context: IncomingContext, parked: () => void): Promise<JsonObject> {
    this.owner.requestId = context.request.id;
    const follow = (): void => this.#abort.abort(context.signal.reason);
    if (context.signal.aborted) follow();
    context.signal.addEventListener("abort", follow, { once: true });
    try {
      // One promise settled by whichever comes first: the outcome, or questions that block it.
      const step = await new Promise<Step>((resolve) => {
        this.#waiter = (blocked) => resolve({ blocked });
        this.outcome.then(
          (result) => resolve({ result }),
          (error: unknown) => resolve({ error }),
        );
        if (this.#blocked.length > 0) this.#schedule(); // blocked while nobody was waiting
      });
      if ("blocked" in step) {
        parked();
        throw urlElicitationRequired(this.server, step.blocked);
      }
      if ("error" in step) throw step.error;
      return step.result;
    } finally {
      this.#waiter = undefined;
      context.signal.removeEventListener("abort", follow);
    }
  }

  abort(reason: string): void {
    this.#abort.abort(reason);
  }

  #block(blocked: BlockedUrlQuestion): void {
    this.#blocked.push(blocked);
    if (this.#waiter) this.#schedule();
  }

  /** Questions raised together (one -32042 of the upstream's, say) are listed together. */
  #schedule(): void {
    if (this.#flush) return;
    this.#flush = setImmediate(() => {
      this.#flush = undefined;
      const waiter = this.#waiter;
      if (!waiter || this.#blocked.length === 0) return;
      const list = this.#blocked;
      this.#blocked = [];
      waiter(list);
    });
  }
}

/** The error the 2025-11-25 schema defines: `data.elicitations` are URL-mode params with their ids. */
function urlElicitationRequired(server: string, blocked: BlockedUrlQuestion[]): RpcError {
  const ids = blocked.map((entry) => entry.questionId).join(", ");
  return new RpcError(
    ErrorCode.UrlElicitationRequired,
    `URL elicitation required: "${server}" needs ${blocked.length === 1 ? "a URL" : `${blocked.length} URLs`} opened and completed ` +
      `before it can answer (mcpx question ${ids}); retry this request once done`,
    { elicitations: blocked.map((entry) => entry.elicitation) },
  );
}

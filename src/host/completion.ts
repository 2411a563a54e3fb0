/**
 * A URL question's completion, on its way to the host that was asked (design rule 5: that host
 * alone). The upstream's own notification is relayed by `notifications.ts`; this covers a
 * person saying it is done (`mcpx elicit done`, the page's "Finished", REST) for an upstream
 * that never notifies: mcpx then tells the asked host itself, once.
 */
import type { Broker } from "../broker/broker.js";
import type { JsonObject } from "../protocol/jsonrpc.js";
import type { QuestionRecord } from "../broker/types.js";
import type { Upstream } from "../upstream/upstream.js";
import type { Logger } from "../util/log.js";
import type { DeliveredElicitations } from "./delivered-elicitations.js";
import type { UrlQuestions } from "./url-questions.js";

export const COMPLETE = "notifications/elicitation/complete";

interface CompletionRelay {
  readonly broker: Broker | undefined;
  readonly log: Logger;
  readonly delivered: DeliveredElicitations;
  readonly urlQuestions: UrlQuestions;
}

/** Watch a URL question until it is finished (or expires unanswered); a person's completion reaches the asked host. */
export function relayCompletionByPerson(gateway: CompletionRelay, upstream: Upstream, record: QuestionRecord, elicitationId: string): void {
  const broker = gateway.broker;
  if (!broker) return;
  broker.untilFinished(record.id, Date.parse(record.expiresAt)).then(
    (finished) => {
      gateway.urlQuestions.forget(upstream, elicitationId, record.id);
      if (!finished.completion || finished.completion.by.startsWith("server:")) return;
      tellAskedHost(gateway.delivered, upstream, elicitationId);
    },
    (error: unknown) => gateway.log.debug("stopped following a URL question's completion", { question: record.id, error }),
  );
}

/** The hosts that were asked hear `notifications/elicitation/complete` (`params`: the upstream's, else just the id), once; nobody else does. */
export function tellAskedHost(delivered: DeliveredElicitations, upstream: Upstream, elicitationId: string, params: JsonObject = { elicitationId }): void {
  for (const asked of delivered.take(upstream, elicitationId)) {
    asked.session.notify(COMPLETE, params, asked.requestId !== undefined ? { relatedRequestId: asked.requestId } : undefined);
  }
}

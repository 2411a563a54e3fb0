/**
 * Asking the host that made the call, inline, while the question also waits in the broker.
 *
 * The host's answer settles the question like any other surface's; if another surface
 * answers first, the caller aborts `signal` and the host's open request is cancelled.
 */
import { isObject, type JsonObject } from "../protocol/jsonrpc.js";
import { RpcError } from "../protocol/errors.js";
import type { Broker, AnswerInput } from "../broker/broker.js";
import { BrokerError } from "../broker/errors.js";
import type { QuestionRecord } from "../broker/types.js";
import type { Question } from "../render/question.js";
import { renderForHost } from "../render/render.js";
import type { Logger } from "../util/log.js";
import type { Upstream } from "../upstream/upstream.js";
import type { AskedHost, HostSession } from "./session.js";
import type { DeliveredElicitations } from "./delivered-elicitations.js";


export interface InlineRequest {
  question: Question;
  owner: AskedHost;
  /** The connection that asked: its completion notification comes on it. */
  upstream: Upstream;
  /** Name the upstream in the message (not for passthrough servers). */
  nameServer: boolean;
  signal: AbortSignal;
  log: Logger;
  /** Where a delivered URL question is remembered, for its completion notification. */
  delivered: DeliveredElicitations;
}

/**
 * Send the question to the calling host when it can take it. Resolves with the host's
 * answer, or with the reason the host cannot be asked; rejects when the host went away.
 */
export async function askHost({ question, owner, upstream, nameServer, signal, log, delivered }: InlineRequest): Promise<AnswerInput | string> {
  const profile = owner.session.profile();
  if (!profile || owner.session.closed) return "the calling host has not finished initializing";
  const rendered = renderForHost(question, profile, { nameServer });
  if (!rendered.sendable) {
    log.info("the calling host cannot take this question; it waits for other answerers", {
      session: owner.session.id,
      reason: rendered.reason,
    });
    return rendered.reason;
  }
  log.info("asking the host that made the call", { session: owner.session.id });
  const id = question.params.elicitationId;
  if (question.mode === "url" && typeof id === "string") delivered.remember(upstream, id, owner);
  const result = await owner.session.peer.request(rendered.method, rendered.params, {
    ...(owner.requestId !== undefined ? { route: { relatedRequestId: owner.requestId } } : {}),
    signal,
  });
  return answerFromHost(question, result);
}

/** A host's result as a broker answer: elicitation results as they are, anything else accepted. */
export function answerFromHost(question: Question, result: JsonObject): AnswerInput {
  if (question.kind !== "elicitation") return { action: "accept", content: result };
  const action = result.action === "accept" || result.action === "decline" ? result.action : "cancel";
  return action === "accept" && isObject(result.content) ? { action, content: result.content } : { action };
}

/**
 * Settle the question with the host's answer, as the host gave it (design rule 8): the
 * upstream judges whether it fits, as it would over a direct connection.
 */
export function settleFromHost(broker: Broker, record: QuestionRecord, host: HostSession, answer: AnswerInput, log: Logger): void {
  try {
    broker.answer(record.id, answer, { by: `host:${host.id}`, asGiven: true });
  } catch (error) {
    if (error instanceof BrokerError && error.code === "ALREADY_SETTLED") return;
    log.warn("the host's answer was refused; the question stays open", { error });
  }
}

/** What a failed inline request means: the host refused (an error it sent) or went away. */
export function hostFailure(error: unknown): "refused" | "gone" {
  return error instanceof RpcError ? "refused" : "gone";
}

/**
 * Asking the host that made the call, inline, while the question also waits in the broker.
 *
 * The host's answer settles the question like any other surface's; if another surface
 * answers first, the caller aborts `signal` and the host's open request is cancelled.
 */
import { isObject, type JsonObject, type RequestId } from "../protocol/jsonrpc.js";
import { RpcError } from "../protocol/errors.js";
import { createMessageResultProblem, elicitResultProblem } from "../protocol/host-results.js";
import type { Broker } from "../broker/broker.js";
import type { AnswerInput } from "../broker/check-answer.js";
import { BrokerError } from "../broker/errors.js";
import type { QuestionRecord } from "../broker/types.js";
import type { Question } from "../render/question.js";
import { renderForHost } from "../render/render.js";
import { missingCapabilities } from "../render/host.js";
import type { Logger } from "../util/log.js";
import type { Upstream } from "../upstream/upstream.js";
import type { AskedHost, HostSession } from "./session.js";
import type { DeliveredElicitations } from "./delivered-elicitations.js";
import { otherSurfaces } from "./where-it-waits.js";
import { routeOf, type Attribution } from "./attribution.js";
import { defines } from "../protocol/revisions.js";

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
  /** This process serves the web page (what a message may point people at). */
  servesPage: boolean;
}

/** The host cannot be sent the question at all; `requiredCapabilities` when only its declaration lacked (render/host.ts). */
export interface CannotTake {
  cannotTake: string;
  requiredCapabilities?: JsonObject;
}

/** The host could take the question, but not on the request it made (rendered for it all the same). */
export interface Undeliverable {
  undeliverable: string;
  params: JsonObject;
}

/**
 * Send the question to the calling host when it can take it. Resolves with the host's answer;
 * with why it cannot be sent the question (`CannotTake`) or not on this call (`Undeliverable`);
 * or with why its answer did not count (a string). Rejects when the host went away.
 */
export async function askHost({
  question,
  owner,
  upstream,
  nameServer,
  signal,
  log,
  delivered,
  servesPage,
}: InlineRequest): Promise<AnswerInput | string | CannotTake | Undeliverable> {
  const profile = owner.session.profile();
  if (!profile || owner.session.closed) return { cannotTake: "the calling host has not finished initializing" };
  const rendered = renderForHost(question, profile, { nameServer });
  if (!rendered.sendable) {
    log.info("the calling host cannot take this question", { session: owner.session.id, reason: rendered.reason });
    const required = missingCapabilities(question, profile);
    return { cannotTake: rendered.reason, ...(required ? { requiredCapabilities: required } : {}) };
  }
  const id = question.params.elicitationId;
  if (!owner.session.canCarryRequests(owner.requestId)) {
    const why = "the host's request cannot carry a request of mcpx's (an HTTP POST that accepts only application/json)";
    log.info("the calling host can take this question but cannot be sent it on this call", { session: owner.session.id });
    // Its completion still reaches this host (on its GET stream), whoever finishes the question.
    if (question.mode === "url" && typeof id === "string") delivered.remember(upstream, id, { session: owner.session });
    return { undeliverable: why, params: rendered.params };
  }
  log.info("asking the host that made the call", { session: owner.session.id });
  if (question.mode === "url" && typeof id === "string") delivered.remember(upstream, id, owner);
  const route = owner.requestId !== undefined ? { relatedRequestId: owner.requestId } : undefined;
  const result = await owner.session.askInline(question.inputKey ?? question.id, rendered.method, rendered.params, { ...(route ? { route } : {}), signal });
  const answer = answerFromHost(question, result);
  if (!("malformed" in answer)) return answer;
  if (signal.aborted) return "it was answered elsewhere first";
  const why = `its result to ${question.method} was refused: ${answer.malformed}`;
  log.warn("the calling host's result is not one the protocol allows; the question stays open for other answerers", {
    session: owner.session.id,
    why: answer.malformed,
  });
  tellHost(owner, route, question, answer.malformed, servesPage);
  return why;
}

/**
 * A host's result as a broker answer, as the host gave it, or why the protocol allows no such
 * result (then it answers nothing: the question stays open). Sampling results are accepted.
 */
export function answerFromHost(question: Question, result: JsonObject): AnswerInput | { malformed: string } {
  if (question.kind !== "elicitation") {
    const problem = createMessageResultProblem(result);
    return problem ? { malformed: `not a CreateMessageResult: ${problem}` } : { action: "accept", content: result };
  }
  const problem = elicitResultProblem(result);
  if (problem) return { malformed: `not an ElicitResult: ${problem}` };
  const action = result.action as AnswerInput["action"];
  return action === "accept" && isObject(result.content) ? { action, content: result.content } : { action };
}

/**
 * The host answered our request with a result we cannot take; there is no error response to a
 * response, so a warning goes to it, on the stream of the call the question belongs to.
 */
function tellHost(owner: AskedHost, route: { relatedRequestId: RequestId } | undefined, question: Question, why: string, servesPage: boolean): void {
  if (!owner.session.wantsLog("warning")) return;
  const message =
    `mcpx refused your answer to question ${question.id} (${question.method} from "${question.server}"): ${why}. ` +
    `It stays open for other answerers (${otherSurfaces(servesPage, undefined, owner.session.identity)}) until it expires.`;
  owner.session.notify(
    "notifications/message",
    { level: "warning", logger: "mcpx", data: { message, question: question.id, server: question.server, reason: why } },
    route,
  );
}

/**
 * Settle the question with the host's answer, as the host gave it (design rule 8): the
 * upstream judges whether it fits, as it would over a direct connection.
 */
export async function settleFromHost(broker: Broker, record: QuestionRecord, host: HostSession, answer: AnswerInput, log: Logger): Promise<void> {
  try {
    await broker.answer(record.id, answer, { by: `host:${host.id}`, asGiven: true });
  } catch (error) {
    if (error instanceof BrokerError && error.code === "ALREADY_SETTLED") return;
    log.warn("the host's answer was refused; the question stays open", { error });
  }
}

/** What a failed inline request means: the host refused (an error it sent) or went away. */
export function hostFailure(error: unknown): "refused" | "gone" {
  return error instanceof RpcError ? "refused" : "gone";
}

/** What asking the host inline needs of the gateway. */
export interface InlineRelay {
  readonly broker: Broker | undefined;
  readonly delivered: DeliveredElicitations;
  readonly servesPage: boolean;
}

/** What the asker does when the host is not asked, or its answer does not settle the question. */
export interface InlineFallbacks {
  /** The host cannot be sent it (`required`: the capabilities it lacked), on any request or on this call. */
  notAsked(why: string, required?: JsonObject): void;
  /** The host was asked, but its answer did not count (it was told why), or another surface's came first. */
  didNotCount(why: string): void;
  /** The host went away while asked. */
  gone(): void;
}

/**
 * Ask the host the question belongs to (`attribution`), inline on its call (on stdio, without
 * one), and settle `record` with its answer; a URL question it can take but not on this request
 * goes to it by `-32042` on its call where design rule 7 allows. Runs in the background until
 * the host answers or `signal` aborts.
 */
export function askInlineAndSettle(
  gateway: InlineRelay,
  upstream: Upstream,
  asked: { question: Question; record: QuestionRecord; host: HostSession; attribution: Attribution; signal: AbortSignal; log: Logger },
  fallbacks: InlineFallbacks,
): void {
  const { question, record, host, attribution, signal, log } = asked;
  const route = routeOf(attribution);
  const broker = gateway.broker!;
  askHost({
    question,
    owner: { session: host, ...(route?.requestId !== undefined ? { requestId: route.requestId } : {}) },
    nameServer: !upstream.config.passthrough,
    signal,
    log,
    delivered: gateway.delivered,
    upstream,
    servesPage: gateway.servesPage,
  }).then(
    async (answer) => {
      if (typeof answer === "string") fallbacks.didNotCount(answer);
      else if ("cannotTake" in answer) fallbacks.notAsked(answer.cannotTake, answer.requiredCapabilities);
      else if ("undeliverable" in answer) {
        // A URL question may still reach the host, by -32042 on its call (design rule 7).
        if (!blockedUrl(question, record, host, attribution, answer.params)) fallbacks.notAsked(answer.undeliverable);
      } else await settleFromHost(broker, record, host, answer, log);
    },
    (error: unknown) => {
      if (signal.aborted) return;
      if (hostFailure(error) === "gone") fallbacks.gone();
      else log.warn("the host refused the question; it stays open for other answerers", { error });
    },
  );
}

/**
 * Design rule 7, as a server: a URL question of this very call that a url-capable 2025-11-25
 * host could not be sent inline is handed to the call's forwarding, which answers the host's
 * request with -32042 (`forwarded-call.ts`). Never for form questions or other revisions.
 * Whether it was handed on.
 */
function blockedUrl(question: Question, record: QuestionRecord, host: HostSession, attribution: Attribution, params: JsonObject): boolean {
  if (question.mode !== "url" || attribution.level !== "call" || !attribution.call.urlBlocked) return false;
  if (!host.revision || !defines(host.revision, "urlElicitationRequiredError")) return false;
  const { mode, elicitationId, url, message } = params;
  attribution.call.urlBlocked({ questionId: record.id, elicitation: { mode, elicitationId, url, message } as JsonObject });
  return true;
}

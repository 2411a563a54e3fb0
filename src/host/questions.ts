/**
 * Requests an upstream sends to the user side (elicitation, sampling; roots are the gateway's,
 * see roots.ts).
 *
 * Each becomes a question in the broker. A policy rule may answer it at once; otherwise the
 * host it is proven to belong to is asked inline when it can take it (design rules 1 and 5),
 * while every other surface (CLI, web page, REST, agent tools) can answer it too. The first
 * answer goes to the upstream; expiry and a vanished call answer `cancel`.
 */
import { randomUUID } from "node:crypto";
import { isObject, type JsonObject } from "../protocol/jsonrpc.js";
import { GatewayError, invalidParams, methodNotFound, RpcError } from "../protocol/errors.js";
import type { IncomingContext } from "../rpc/peer.js";
import { questionFromRequest, questionRefusal, type Question } from "../render/question.js";
import { decideAudience } from "../broker/audience.js";
import { matchRule, modeDecision, ruleAnswer, type Decision } from "../broker/policy.js";
import { outcomeFor, USER_REJECTED } from "../broker/outcome.js";
import { checkAnswer } from "../broker/check-answer.js";
import type { Origin, QuestionRecord } from "../broker/types.js";
import { CLOSED_BECAUSE } from "../broker/settled-why.js";
import type { Candidates } from "../upstream/calls.js";
import type { Upstream } from "../upstream/upstream.js";
import type { Logger } from "../util/log.js";
import type { Config } from "../config/types.js";
import type { Broker } from "../broker/broker.js";
import type { Rule } from "../broker/policy.js";
import { askInlineAndSettle } from "./inline.js";
import { attribute, callOf, hostOf, routeOf, type Attribution } from "./attribution.js";
import { answerRoots } from "./roots.js";
import { questionIdentity } from "./question-identity.js";
import { tellCallerItWaits, tellWhereItWaits } from "./where-it-waits.js";
import { closeWhenServerStops, followCalls } from "./nobody-waits.js";
import type { DeliveredElicitations } from "./delivered-elicitations.js";
import type { UrlQuestions } from "./url-questions.js";
import { relayCompletionByPerson } from "./completion.js";
import { scriptDecision, scriptOf } from "./script-questions.js";
import type { PendingQuestions } from "./pending-questions.js";
import type { HostSession } from "./session.js";

/** What relaying a question needs of the gateway. */
export interface QuestionRelay {
  readonly config: Config;
  readonly log: Logger;
  /** Where questions wait; without one (`mcpx servers`), nobody here can answer. */
  readonly broker: Broker | undefined;
  readonly rules: Rule[];
  readonly delivered: DeliveredElicitations;
  /** URL questions by the connection that asked and their elicitationId, for completions. */
  readonly urlQuestions: UrlQuestions;
  readonly pendingQuestions: PendingQuestions;
  /** This process serves the web page: messages may point people at it. */
  readonly servesPage: boolean;
  connectionOwner(upstream: Upstream): HostSession | undefined;
}

const QUESTION_METHODS = ["elicitation/create", "sampling/createMessage"];

export async function relayQuestion(
  gateway: QuestionRelay,
  upstream: Upstream,
  context: IncomingContext,
  candidates: Candidates,
  inputKey?: string,
): Promise<JsonObject> {
  const { request } = context;
  // What the protocol forbids is the upstream's error (-32601 or -32602 to it), never relayed.
  const refusal = questionRefusal(request.method, request.params, upstream.revision);
  if (refusal) throw new RpcError(refusal.code, refusal.message);
  const connectionOwner = gateway.connectionOwner(upstream);
  if (request.method === "roots/list") {
    // A 2026-07-28 server asks for roots within one request: they are that request's host's, when proven.
    const call = inputKey === undefined ? undefined : callOf(attribute(candidates, connectionOwner));
    if (!call?.session) return answerRoots(gateway.config, upstream, connectionOwner, gateway.log);
    const route = call.requestId === undefined ? undefined : { relatedRequestId: call.requestId };
    return answerRoots(gateway.config, upstream, call.session, gateway.log, { inputKey: inputKey!, ...(route ? { route } : {}) });
  }
  const question = questionFromRequest(randomUUID(), upstream.name, request.method, request.params);
  if (!question) {
    if (QUESTION_METHODS.includes(request.method)) throw invalidParams(`mcpx did not declare what this ${request.method} asks for`);
    throw methodNotFound(request.method);
  }
  if (inputKey !== undefined) question.inputKey = inputKey;
  return askAndWait(gateway, upstream, context.signal, question, attribute(candidates, connectionOwner));
}

/**
 * One question through the broker: a rule or the mode may answer it at once; otherwise it is
 * stored, the host it is proven to belong to is asked inline when it can take it, and the
 * first answer from anywhere is the outcome. Aborting `signal` withdraws it.
 */
export async function askAndWait(
  gateway: QuestionRelay,
  upstream: Upstream,
  signal: AbortSignal,
  question: Question,
  attribution: Attribution,
  /** How long it waits (default: the server's `elicitation.ttlSeconds`, else the config's). */
  ttlSeconds?: number,
): Promise<JsonObject> {
  const log = gateway.log.child({ server: upstream.name, question: question.id, method: question.method });
  const broker = gateway.broker;
  if (!broker) return nobodyHere(question, log);

  const origin = originOf(attribution, upstream);
  const decided = decide(gateway, question, origin.tool, attribution, signal, log);
  // Decided at once unless a script's onElicit is asked: questions raised together then stay one batch (a modern host's input_required).
  const decision = decided instanceof Promise ? await decided : decided;
  if (decision === "error") {
    log.warn("refused a question: elicitation.mode is error");
    throw new RpcError(-32603, `mcpx is configured to refuse questions (elicitation.mode is "error"); ${question.server} asked ${question.method}`);
  }
  const release = gateway.pendingQuestions.take(upstream);
  if (!release) return tooMany(gateway, question, log);
  const ttl = ttlSeconds ?? upstream.config.elicitation.ttlSeconds ?? gateway.config.elicitation.ttlSeconds;
  try {
    const record = await broker.open(question, origin, ttl, decision);
    if (record.state !== "pending") {
      await broker.delivered(record.id); // answered by a rule here and now: it goes straight back
      return outcomeFor(record);
    }
    const elicitationId = question.params.elicitationId;
    if (question.mode === "url" && typeof elicitationId === "string") {
      gateway.urlQuestions.remember(upstream, elicitationId, record.id);
      relayCompletionByPerson(gateway, upstream, record, elicitationId);
    }
    // A script's deadline does not run while its question waits for an answer (a person's time).
    const resume = scriptOf(attribution)?.hold();
    try {
      return await waitForAnswer(gateway, upstream, signal, question, record, attribution, log);
    } finally {
      resume?.();
    }
  } finally {
    release();
  }
}

async function waitForAnswer(
  gateway: QuestionRelay,
  upstream: Upstream,
  signal: AbortSignal,
  question: Question,
  record: QuestionRecord,
  attribution: Attribution,
  log: Logger,
): Promise<JsonObject> {
  const broker = gateway.broker!;
  const done = new AbortController();
  const stopWatching = closeWhenServerStops(broker, upstream, signal, record, attribution, log);
  const stopFollowing = followCalls(attribution, (why) => broker.closeSoon(record.id, why));
  // Whichever of these calls is waiting on it, its timeout must not run out while a person answers.
  const release = upstream.holdTimeout(attribution.calls);
  let notAsked: string | undefined;
  const host = hostOf(attribution);
  // elicitation.mode "host": the calling host is the only one asked; what it cannot take is over at once.
  const hostOnly = gateway.config.elicitation.mode === "host";
  const route = routeOf(attribution);
  const hostNotAsked = (why: string, required?: JsonObject): void => {
    notAsked = why;
    if (!hostOnly) {
      if (route) tellCallerItWaits(record, route, why, gateway.servesPage);
      return;
    }
    const reason = `elicitation.mode is "host" and ${why}`;
    log.info("the question cannot go to the calling host; it is cancelled", { reason });
    if (required) host?.lacksCapabilities(required, `${question.method} from "${question.server}" needs a capability the host did not declare (${why})`);
    broker.closeSoon(record.id, reason);
  };
  try {
    if (host && (route || host.transport === "stdio")) {
      askInlineAndSettle(
        gateway,
        upstream,
        { question, record, host, attribution, signal: done.signal, log },
        {
          notAsked: hostNotAsked,
          // Its answer did not count (the host was told why) or another surface's came first.
          didNotCount: (why) => (hostOnly ? hostNotAsked(why) : (notAsked = why)),
          gone: () => broker.closeSoon(record.id, CLOSED_BECAUSE.hostGone),
        },
      );
    } else if (host) {
      hostNotAsked("no call of the host's is open to carry the question");
    } else if (hostOnly) {
      hostNotAsked("no single host it belongs to can be proven");
    } else {
      log.info("no single host it belongs to can be proven; it waits for people", { calls: attribution.calls.length });
      tellWhereItWaits(record, upstream, attribution.calls, gateway.servesPage);
    }
    const settled = await broker.wait(record.id);
    await broker.delivered(settled.id); // a person-only answer's content leaves the store; the copy in hand goes upstream
    try {
      return outcomeFor(settled);
    } catch (error) {
      // Tell the upstream why its calling host was not simply asked.
      if (error instanceof RpcError && notAsked) throw new RpcError(error.code, `${error.message}; the calling host could not be asked: ${notAsked}`);
      throw error;
    }
  } finally {
    done.abort();
    release();
    stopFollowing();
    stopWatching();
  }
}

/** Where the question came from, and whose it is, as far as it is proven. */
function originOf(attribution: Attribution, upstream: Upstream): Origin {
  const host = hostOf(attribution);
  const call = callOf(attribution);
  const tools = new Set(attribution.calls.map((candidate) => candidate.tool));
  const [tool] = tools;
  return {
    ...(attribution.level !== "none" && tools.size === 1 && tool ? { tool } : {}),
    ...(host ? { hostSession: host.id } : {}),
    ...(call?.callId ? { callId: call.callId } : {}),
    identity: questionIdentity(attribution, upstream),
  };
}

export type Decided = (Decision & { by: string }) | "error" | undefined;

/**
 * Who answers at once, in this order: the operator's rules, then the run's script (its
 * `onElicit`, host/script-questions.ts), then `elicitation.mode`; undefined: the question is
 * asked (the calling host, every other surface). Only asking a script takes a wait.
 */
function decide(
  gateway: QuestionRelay,
  question: Question,
  tool: string | undefined,
  attribution: Attribution,
  signal: AbortSignal,
  log: Logger,
): Decided | Promise<Decided> {
  const ruled = ruleDecision(gateway, question, tool);
  if (ruled) return ruled;
  const mode = (): Decided => modeDecision(gateway.config.elicitation.mode);
  if (!scriptOf(attribution)?.handlesQuestions) return mode();
  return scriptDecision(question, attribution, signal, (answer) => answerFit(question, answer), log).then((scripted) => scripted ?? mode());
}

/** What answers a question at once without asking anyone: a rule, else the mode (a task's questions, host/tasks/task-questions.ts). */
export function decidedAtOnce(gateway: QuestionRelay, question: Question, tool: string | undefined): Decided {
  return ruleDecision(gateway, question, tool) ?? modeDecision(gateway.config.elicitation.mode);
}

/** The first rule that matches, when its answer fits the question. */
function ruleDecision(gateway: QuestionRelay, question: Question, tool: string | undefined): Decision | undefined {
  const rule = matchRule(gateway.rules, { question, tool, audience: decideAudience(question) });
  if (rule) {
    const answer = ruleAnswer(rule, question);
    const fit = answerFit(question, answer);
    if (fit === undefined) {
      gateway.log.info("policy rule fired", { question: question.id, server: question.server, rule: rule.index, action: answer.action, reason: rule.reason });
      return answer;
    }
    gateway.log.warn("policy rule matched but its answer does not fit the question; the mode decides", {
      question: question.id,
      rule: rule.index,
      problem: fit,
    });
  }
  return undefined;
}

/** Why an answer would be refused for this question, or undefined when it fits. */
function answerFit(question: Question, answer: Decision): string | undefined {
  const schema = question.params.requestedSchema;
  try {
    checkAnswer({ kind: question.kind, mode: question.mode ?? "form", ...(isObject(schema) ? { requestedSchema: schema } : {}) }, answer);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/** The upstream already has `limits.maxPendingQuestionsPerServer` questions waiting: this one is not stored. */
function tooMany(gateway: QuestionRelay, question: Question, log: Logger): JsonObject {
  const limit = gateway.config.limits.maxPendingQuestionsPerServer;
  log.warn("too many questions waiting from this server; answering cancel", { limit });
  if (question.kind === "elicitation") return { action: "cancel" };
  throw new RpcError(
    USER_REJECTED,
    `${question.method} from "${question.server}" was cancelled: it already has ${limit} questions waiting (limits.maxPendingQuestionsPerServer)`,
  );
}

/** No broker (`mcpx servers` only looks, it serves no host): nobody here can answer. */
function nobodyHere(question: Question, log: Logger): JsonObject {
  log.info("no one can answer questions here; answering cancel");
  if (question.kind === "elicitation") return { action: "cancel" };
  throw new GatewayError("UPSTREAM_UNAVAILABLE", `no one can answer ${question.method} from "${question.server}" here`);
}

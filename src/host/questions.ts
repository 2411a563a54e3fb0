/**
 * Requests an upstream sends to the user side (elicitation, sampling, roots).
 *
 * Each becomes a question in the broker. A policy rule may answer it at once; otherwise the
 * host whose call caused it is asked inline when it can take it (design rules 1 and 5), while
 * every other surface (CLI, web page, REST, agent tools) can answer it too. The first answer
 * goes to the upstream; expiry and a vanished call answer `cancel`.
 */
import { randomUUID } from "node:crypto";
import { isObject, type JsonObject } from "../protocol/jsonrpc.js";
import { GatewayError, invalidParams, methodNotFound, RpcError } from "../protocol/errors.js";
import type { IncomingContext } from "../rpc/peer.js";
import { questionFromRequest, type Question } from "../render/question.js";
import { decideAudience } from "../broker/audience.js";
import { matchRule, modeDecision, ruleAnswer, type Decision } from "../broker/policy.js";
import { outcomeFor } from "../broker/outcome.js";
import { checkAnswer } from "../broker/broker.js";
import type { Upstream } from "../upstream/upstream.js";
import type { Logger } from "../util/log.js";
import type { Gateway } from "./gateway.js";
import { askHost, hostFailure, settleFromHost } from "./inline.js";
import type { CallerContext } from "./session.js";


const QUESTION_METHODS = ["elicitation/create", "sampling/createMessage", "roots/list"];

export async function relayQuestion(
  gateway: Gateway,
  upstream: Upstream,
  context: IncomingContext,
  owner: CallerContext | undefined,
): Promise<JsonObject> {
  const { request } = context;
  const question = questionFromRequest(randomUUID(), upstream.name, request.method, request.params);
  if (!question) {
    if (QUESTION_METHODS.includes(request.method)) throw invalidParams(`mcpx did not declare what this ${request.method} asks for`);
    throw methodNotFound(request.method);
  }
  const log = gateway.log.child({ server: upstream.name, question: question.id, method: question.method });
  const broker = gateway.broker;
  if (!broker) return nobodyHere(question, log);

  const decision = decide(gateway, question, owner?.tool);
  if (decision === "error") {
    log.warn("refused a question: elicitation.mode is error");
    throw new RpcError(-32603, `mcpx is configured to refuse questions (elicitation.mode is "error"); ${question.server} asked ${question.method}`);
  }
  const ttl = upstream.config.elicitation.ttlSeconds ?? gateway.config.elicitation.ttlSeconds;
  const record = broker.open(
    question,
    { ...(owner?.tool ? { tool: owner.tool } : {}), ...(owner?.session ? { hostSession: owner.session.id } : {}), ...(owner?.callId ? { callId: owner.callId } : {}) },
    ttl,
    decision,
  );
  if (record.state !== "pending") return outcomeFor(record);

  const done = new AbortController();
  const withdraw = (): void => broker.close(record.id, "the server withdrew the question");
  const callGone = (): void => broker.close(record.id, "the call that caused it ended");
  context.signal.addEventListener("abort", withdraw, { once: true });
  owner?.signal?.addEventListener("abort", callGone, { once: true });
  const release = upstream.holdTimeout(owner);
  let notAsked: string | undefined;
  try {
    if (owner?.session && owner.requestId !== undefined) {
      const host = { session: owner.session, requestId: owner.requestId };
      askHost({ question, owner: host, nameServer: !upstream.config.passthrough, signal: done.signal, log, delivered: gateway.delivered }).then(
        (answer) => {
          if (typeof answer === "string") notAsked = answer;
          else settleFromHost(broker, record, host, answer, log);
        },
        (error: unknown) => {
          if (done.signal.aborted) return;
          if (hostFailure(error) === "gone") broker.close(record.id, "the host that made the call went away");
          else log.warn("the host refused the question; it stays open for other answerers", { error });
        },
      );
    } else if (!owner) {
      log.info("no single call it belongs to can be proven; it waits for other answerers");
    }
    const settled = await broker.wait(record.id);
    broker.delivered(settled.id); // a person-only answer's content leaves the store; the copy in hand goes upstream
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
    context.signal.removeEventListener("abort", withdraw);
    owner?.signal?.removeEventListener("abort", callGone);
  }
}

function decide(gateway: Gateway, question: Question, tool: string | undefined): (Decision & { by: string }) | "error" | undefined {
  const rule = matchRule(gateway.rules, { question, tool, audience: decideAudience(question) });
  if (rule) {
    const answer = ruleAnswer(rule, question);
    const fit = answerFit(question, answer);
    if (fit === undefined) {
      gateway.log.info("policy rule fired", { question: question.id, server: question.server, rule: rule.index, action: answer.action, reason: rule.reason });
      return answer;
    }
    gateway.log.warn("policy rule matched but its answer does not fit the question; the mode decides", { question: question.id, rule: rule.index, problem: fit });
  }
  return modeDecision(gateway.config.elicitation.mode);
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

/** No broker (`mcpx servers` only looks, it serves no host): nobody here can answer. */
function nobodyHere(question: Question, log: Logger): JsonObject {
  log.info("no one can answer questions here; answering cancel");
  if (question.kind === "elicitation") return { action: "cancel" };
  throw new GatewayError("UPSTREAM_UNAVAILABLE", `no one can answer ${question.method} from "${question.server}" here`);
}

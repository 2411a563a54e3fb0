/**
 * A script's own answer to a question of its run (`onElicit`, register ELI-21). Offered after
 * the operator's rules and before everything else (the mode, the calling host, every other
 * surface): the script is the run's own code, the nearest answerer there is, and the operator
 * keeps the last word by rules. Offered only what an agent may answer (design rule 9): a form
 * question whose audience is `agent`; never a URL, a secret, a consent, nor sampling. Offered
 * only a question proven to be of that run (design rule 5). Its answer is checked as an answer
 * on mcpx's own surfaces is (design rule 8: the script is not the calling host) and recorded as
 * answered by "script"; a pass, a failure, or an answer that does not fit goes on to the usual
 * path.
 */
import { decideAudience } from "../broker/audience.js";
import type { Decision } from "../broker/policy.js";
import { isObject, type JsonObject } from "../protocol/jsonrpc.js";
import type { Question } from "../render/question.js";
import type { ScriptAnswer } from "../scripts/types.js";
import type { Logger } from "../util/log.js";
import { callOf, type Attribution } from "./attribution.js";
import type { CallerContext } from "./session.js";

/** Who answered, in the store and on every surface. */
export const SCRIPT_ANSWERER = "script";

/**
 * The script's answer as a decision the broker stores with the question, or undefined when it
 * was not offered or did not answer (in time, or in a way that fits). `misfit` says why an answer
 * does not fit the question; `signal` is the upstream's: it stopped waiting.
 */
export async function scriptDecision(
  question: Question,
  attribution: Attribution,
  signal: AbortSignal,
  misfit: (answer: Decision) => string | undefined,
  log: Logger,
): Promise<Decision | undefined> {
  const script = scriptOf(attribution);
  if (!script?.handlesQuestions) return undefined;
  if (question.kind !== "elicitation" || question.mode === "url") return undefined;
  const audience = decideAudience(question);
  if (audience.audience !== "agent") {
    log.info("the question is for a person: it is not offered to the script's onElicit", { reason: audience.reason });
    return undefined;
  }
  const { params } = question;
  const tools = new Set(attribution.calls.map((candidate) => candidate.tool));
  const [tool] = tools;
  const answer = await untilAborted(
    script.offer({
      server: question.server,
      tool: tools.size === 1 && tool ? tool : "",
      message: typeof params.message === "string" ? params.message : "",
      requestedSchema: isObject(params.requestedSchema) ? params.requestedSchema : { type: "object", properties: {} },
    }),
    signal,
  );
  if (!answer) return undefined;
  const decision: Decision = { ...answerOf(answer), by: SCRIPT_ANSWERER, reason: "the script's onElicit answered" };
  const problem = misfit(decision);
  if (problem !== undefined) {
    log.warn("the script's onElicit answer does not fit the question; it goes on to the usual answerers", { problem });
    return undefined;
  }
  log.info("the script's onElicit answered the question", { action: decision.action });
  return decision;
}

/** The script of the run a question is proven to belong to, if any. */
export function scriptOf(attribution: Attribution): CallerContext["script"] {
  const call = callOf(attribution);
  return (call?.run ?? call)?.script;
}

function answerOf(answer: ScriptAnswer): { action: Decision["action"]; content?: JsonObject } {
  // What a script hands over is checked below like any surface's answer; content that is no object is none.
  return { action: answer.action, ...(isObject(answer.content) ? { content: answer.content } : {}) };
}

/** The offer's answer, or undefined once the upstream stops waiting (the offer is then left to end with the run). */
function untilAborted<T>(offer: Promise<T | undefined>, signal: AbortSignal): Promise<T | undefined> {
  if (signal.aborted) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const stop = (): void => resolve(undefined);
    signal.addEventListener("abort", stop, { once: true });
    offer.then(
      (answer) => {
        signal.removeEventListener("abort", stop);
        resolve(answer);
      },
      () => {
        signal.removeEventListener("abort", stop);
        resolve(undefined);
      },
    );
  });
}

/**
 * Whether an answer, as a surface gives it, fits the question it answers: one of the three
 * actions, content only with accept, no content for a URL question (accept there is consent),
 * a CreateMessageResult for sampling, and form content that fits the question's schema.
 */
import { isObject, type JsonObject } from "../protocol/jsonrpc.js";
import { BrokerError } from "./errors.js";
import type { Action, QuestionRecord } from "./types.js";
import { answerProblems } from "./validate-answer.js";

/** An answer as given, before it is checked and recorded (who gave it travels apart). */
export interface AnswerInput {
  action: Action;
  content?: JsonObject;
}

/** Check an answer's shape for the question it answers. */
export function checkAnswer(record: Pick<QuestionRecord, "kind" | "mode" | "requestedSchema">, input: AnswerInput): void {
  if (!["accept", "decline", "cancel"].includes(input.action)) {
    throw new BrokerError("INVALID_ANSWER", `action must be accept, decline or cancel, not ${JSON.stringify(input.action)}`);
  }
  if (input.action !== "accept") {
    if (input.content !== undefined) throw new BrokerError("INVALID_ANSWER", `a ${input.action} carries no content`);
    return;
  }
  if (record.kind === "elicitation" && record.mode === "url") {
    if (input.content !== undefined && Object.keys(input.content).length > 0) {
      throw new BrokerError("INVALID_ANSWER", "a URL question is accepted without content (accept means the person consents)");
    }
    return;
  }
  if (!input.content) throw new BrokerError("INVALID_ANSWER", "accepting this question needs content");
  if (record.kind === "sampling" && !(isObject(input.content.content) && typeof input.content.model === "string")) {
    throw new BrokerError("INVALID_ANSWER", 'a sampling answer is a CreateMessageResult: {"role":"assistant","content":{"type":"text","text":…},"model":…}');
  }
  if (record.kind === "elicitation" && record.requestedSchema) {
    const problems = answerProblems(record.requestedSchema, input.content);
    if (problems.length) throw new BrokerError("INVALID_ANSWER", `the answer does not fit the question: ${problems.join("; ")}`);
  }
}

/**
 * The record a new question starts as: pending, with its deadline, the audience it is for
 * (decideAudience), where it came from, and which process waits on it.
 */
import { isObject } from "../protocol/jsonrpc.js";
import type { Question } from "../render/question.js";
import { decideAudience } from "./audience.js";
import { LOCAL_IDENTITY } from "./identity.js";
import type { Origin, QuestionRecord } from "./types.js";

export interface Asker {
  /** The broker instance that will wait on the question. */
  instance: string;
  /** Epoch milliseconds: when the question is asked. */
  now: number;
}

export function newQuestionRecord(question: Question, origin: Origin, ttlSeconds: number, asker: Asker): QuestionRecord {
  const audience = decideAudience(question);
  const params = question.params;
  return {
    id: question.id,
    server: question.server,
    kind: question.kind,
    method: question.method,
    message: typeof params.message === "string" ? params.message : describe(question),
    params,
    audience: audience.audience,
    audienceReason: audience.reason,
    createdAt: new Date(asker.now).toISOString(),
    expiresAt: new Date(asker.now + ttlSeconds * 1000).toISOString(),
    state: "pending",
    ownerPid: process.pid,
    ownerInstance: asker.instance,
    ...(question.kind === "elicitation" ? { mode: question.mode ?? "form" } : {}),
    ...(typeof params.url === "string" ? { url: params.url } : {}),
    ...(isObject(params.requestedSchema) ? { requestedSchema: params.requestedSchema } : {}),
    ...(origin.tool ? { tool: origin.tool } : {}),
    ...(origin.hostSession ? { hostSession: origin.hostSession } : {}),
    ...(origin.callId ? { callId: origin.callId } : {}),
    ...(origin.identity && origin.identity !== LOCAL_IDENTITY ? { identity: origin.identity } : {}),
  };
}

/** A question without a message of its own (sampling) is described by what it asks for. */
function describe(question: Question): string {
  if (question.kind === "sampling") return `${question.server} asks for a model completion`;
  return `${question.server} asks a question`;
}

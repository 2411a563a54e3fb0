/**
 * The document `mcpx call` prints when it stops on questions nobody else will answer
 * (interface.md "Input required"): each question with a ready command line to answer it.
 */
import type { JsonObject } from "../protocol/jsonrpc.js";
import type { QuestionRecord } from "../broker/types.js";
import { formProperties } from "../broker/audience.js";

export interface InputRequired {
  status: "input-required";
  callId: string;
  /** Collect the result once the questions are answered. */
  collectWith: string;
  questions: JsonObject[];
}

export function inputRequired(callId: string, questions: QuestionRecord[]): InputRequired {
  return {
    status: "input-required",
    callId,
    collectWith: `mcpx result ${callId}`,
    questions: questions.map((question) => ({
      id: question.id,
      server: question.server,
      kind: question.kind,
      mode: question.mode ?? null,
      message: question.message,
      ...(question.requestedSchema ? { requestedSchema: question.requestedSchema } : {}),
      ...(question.url ? { url: question.url } : {}),
      ...(question.kind !== "elicitation" ? { params: question.params } : {}),
      audience: question.audience,
      audienceReason: question.audienceReason,
      expiresAt: question.expiresAt,
      respondWith: respondWith(question),
    })),
  };
}

/** A command line that answers the question, with a skeleton to fill in. */
export function respondWith(question: QuestionRecord): string {
  if (question.kind === "elicitation" && question.mode === "url") return `mcpx elicit accept ${question.id}`;
  if (question.kind === "sampling") {
    return `mcpx elicit answer ${question.id} ${shellQuote(JSON.stringify({ role: "assistant", content: { type: "text", text: "…" }, model: "a-person" }))}`;
  }
  return `mcpx elicit answer ${question.id} ${shellQuote(JSON.stringify(skeleton(question.params)))}`;
}

/** Defaults where the schema has them, else a placeholder of the right type. */
function skeleton(params: JsonObject): JsonObject {
  const content: JsonObject = {};
  for (const [name, schema] of Object.entries(formProperties(params))) {
    if (schema.default !== undefined) content[name] = schema.default;
    else if (schema.type === "number" || schema.type === "integer") content[name] = 0;
    else if (schema.type === "boolean") content[name] = true;
    else if (schema.type === "array") content[name] = [];
    else if (Array.isArray(schema.enum) && schema.enum.length > 0) content[name] = schema.enum[0];
    else if (Array.isArray(schema.oneOf) && schema.oneOf.length > 0) content[name] = (schema.oneOf[0] as JsonObject).const ?? "";
    else content[name] = "";
  }
  return content;
}

export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

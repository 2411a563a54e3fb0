/**
 * The document `mcpx call` prints when it stops on questions nobody else will answer
 * (interface.md "Input required"): each question with a ready command line to answer it.
 */
import { isObject, type JsonObject } from "../protocol/jsonrpc.js";
import type { QuestionRecord } from "../broker/types.js";
import { formProperties } from "../broker/audience.js";
import { consentIn } from "../broker/sensitive-words.js";
import { placeholder } from "../broker/validate-answer.js";
import { fieldsOf } from "./elicit/fields.js";

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

/**
 * A command line that answers the question: accepted as it stands when every field has a
 * default or is optional; otherwise visibly a template, whose placeholders are refused.
 */
export function respondWith(question: QuestionRecord): string {
  if (question.kind === "elicitation" && question.mode === "url") return `mcpx elicit accept ${question.id}`;
  if (question.kind === "sampling") {
    return `mcpx elicit answer ${question.id} ${shellQuote(JSON.stringify({ role: "assistant", content: { type: "text", text: "…" }, model: "a-person" }))}`;
  }
  return `mcpx elicit answer ${question.id} ${shellQuote(JSON.stringify(skeleton(question.params)))}`;
}

/**
 * What the suggested answer holds: a field's default where it has one, nothing for an optional
 * field without one, and a placeholder that the broker refuses for a required field without
 * one. A consent (a lone yes/no, or a yes/no whose wording asks for consent) and any yes/no
 * without a default are never filled in: those are the person's to decide.
 */
function skeleton(params: JsonObject): JsonObject {
  const content = Object.create(null) as JsonObject;
  const properties = formProperties(params);
  const schema = isObject(params.requestedSchema) ? params.requestedSchema : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const lone = Object.keys(properties).length === 1;
  for (const [name, property] of Object.entries(properties)) {
    const consent = isYesNo(property) && (lone || readsAsConsent(name, property));
    if (property.default !== undefined && !consent) content[name] = property.default;
    else if (required.has(name) || consent) content[name] = placeholder(hintFor(property));
  }
  return { ...content };
}

function isYesNo(property: JsonObject): boolean {
  return property.type === "boolean" || (Array.isArray(property.type) && property.type.includes("boolean"));
}

function readsAsConsent(name: string, property: JsonObject): boolean {
  return [name, property.title, property.description].some((text) => typeof text === "string" && consentIn(text) !== undefined);
}

/** What to write in place of the placeholder, in the JSON the answer is given as. */
function hintFor(property: JsonObject): string {
  const choices = fieldsOf({ properties: { x: property } })[0]?.choices;
  if (choices) return `${property.type === "array" ? "a list of" : "one of"} ${choices.map((choice) => choice.value).join(", ")}`;
  if (isYesNo(property)) return "true or false";
  if (property.type === "integer") return "a whole number";
  if (property.type === "number") return "a number";
  if (property.type === "array") return "a list";
  return "text";
}

export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

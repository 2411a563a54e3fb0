/**
 * Who may answer a question: a person only, or an agent too. Some questions must never be
 * answered by a model: a URL to open, a password or other credential, a lone consent.
 * Pure: decided from the question alone, with the reason shown wherever the question is.
 */
import { isObject, type JsonObject } from "../protocol/jsonrpc.js";
import type { Question } from "../render/question.js";
import type { Audience } from "./types.js";

export interface AudienceDecision {
  audience: Audience;
  reason: string;
  /** Fields that made it person-only; a policy rule must name each of them to answer it. */
  sensitiveFields: string[];
}

const CREDENTIAL = /pass(word|wd|phrase|code)|secret|token|api[-_ ]?key|credential|private[-_ ]?key/i;
const CONSENT = /confirm|approve|approval|proceed|consent|agree/i;

export function decideAudience(question: Question): AudienceDecision {
  if (question.kind === "elicitation" && question.mode === "url") {
    return { audience: "person", reason: "a URL question needs a person's consent and a browser", sensitiveFields: [] };
  }
  if (question.kind !== "elicitation") {
    return { audience: "agent", reason: `${question.method} asks for what an agent can supply`, sensitiveFields: [] };
  }
  const properties = formProperties(question.params);
  const sensitive: string[] = [];
  let reason = "";
  for (const [name, schema] of Object.entries(properties)) {
    if (schema.format === "password") {
      sensitive.push(name);
      reason ||= `the field "${name}" is a password`;
    } else if (CREDENTIAL.test(name)) {
      sensitive.push(name);
      reason ||= `the field "${name}" looks like a credential`;
    }
  }
  const names = Object.keys(properties);
  const only = names.length === 1 ? names[0]! : undefined;
  if (only !== undefined && properties[only]?.type === "boolean" && CONSENT.test(only) && !sensitive.includes(only)) {
    sensitive.push(only);
    reason ||= `a lone yes/no ("${only}") is consent, which only a person may give`;
  }
  if (sensitive.length > 0) return { audience: "person", reason, sensitiveFields: sensitive };
  return { audience: "agent", reason: "nothing in it needs a person", sensitiveFields: [] };
}

export function formProperties(params: JsonObject): Record<string, JsonObject> {
  const schema = isObject(params.requestedSchema) ? params.requestedSchema : {};
  const properties = isObject(schema.properties) ? schema.properties : {};
  return Object.fromEntries(Object.entries(properties).filter((entry): entry is [string, JsonObject] => isObject(entry[1])));
}

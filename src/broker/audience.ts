/**
 * Who may answer a question: a person only, or an agent too. Some questions must never be
 * answered by a model: a URL to open, a secret (a password, a one-time code, a key or token, a
 * session cookie, a card, bank or identity number, a seed phrase), a consent (a lone yes/no, a
 * yes/no worded as approval or under a message asking for it, a message asking to approve an
 * irreversible act, whatever else the form holds). Read from the whole question: each field's
 * name, title, description, format and `writeOnly`, the choices of a yes/no, and the message.
 * When in doubt, a person (design rule 9).
 * Pure: decided from the question alone, with the reason shown wherever the question is.
 */
import { isObject, type JsonObject } from "../protocol/jsonrpc.js";
import type { Question } from "../render/question.js";
import { approvalAskedIn, approvalIn, irreversibleIn } from "./consent-words.js";
import { CATEGORY_NAMES, consentIn, isYesNo, secretIn } from "./sensitive-words.js";
import type { Audience } from "./types.js";

export interface AudienceDecision {
  audience: Audience;
  reason: string;
  /**
   * Fields that made it person-only; a policy rule must name each of them to answer it. When
   * the message asks for a secret, that is every field. A person-only question with none (a
   * consent asked with no fields) is answered by no rule.
   */
  sensitiveFields: string[];
}

/** Decided once per question: the policy and the store both ask, and reading the words is not free. */
const decided = new WeakMap<Question, AudienceDecision>();

export function decideAudience(question: Question): AudienceDecision {
  let decision = decided.get(question);
  if (!decision) decided.set(question, (decision = decide(question)));
  return decision;
}

function decide(question: Question): AudienceDecision {
  // No field to name: no rule can answer it (policy.ts), and a script or an agent tool answers agent questions only.
  if (question.personOnly !== undefined) return { audience: "person", reason: question.personOnly, sensitiveFields: [] };
  if (question.kind === "elicitation" && question.mode === "url") {
    return { audience: "person", reason: "a URL question needs a person's consent and a browser", sensitiveFields: [] };
  }
  if (question.kind !== "elicitation") {
    return { audience: "agent", reason: `${question.method} asks for what an agent can supply`, sensitiveFields: [] };
  }
  const properties = formProperties(question.params);
  const names = Object.keys(properties);
  const prose = questionProse(question.params);
  const found: Finding[] = [];

  for (const name of names) {
    const why = secretField(name, properties[name]!);
    if (why) found.push({ fields: [name], reason: why });
  }
  const asked = secretIn(prose, "prose");
  if (asked) {
    const every = names.length > 0 ? ", so every field of it is for a person" : "";
    found.push({ fields: names, reason: `the message asks for ${CATEGORY_NAMES[asked]}${every}` });
  }
  const act = irreversibleIn(prose);
  if (act !== undefined) {
    const every = names.length > 0 ? ", so every field of it is for a person" : "";
    found.push({ fields: names, reason: `the message asks to approve an irreversible act (it reads "${act}"), a consent only a person may give${every}` });
  }
  if (names.length <= 1) {
    const consent = loneConsent(names[0], names[0] === undefined ? undefined : properties[names[0]]!, prose);
    if (consent) found.push(consent);
  } else {
    found.push(...consentAmongOthers(properties, prose));
  }

  if (found.length === 0) return { audience: "agent", reason: "nothing in it needs a person", sensitiveFields: [] };
  const sensitiveFields = [...new Set(found.flatMap((finding) => finding.fields))];
  return { audience: "person", reason: found[0]!.reason, sensitiveFields };
}

interface Finding {
  fields: string[];
  reason: string;
}

/** Why this field asks for a secret, or undefined. */
function secretField(name: string, schema: JsonObject): string | undefined {
  if (schema.writeOnly === true) return `the field "${name}" is write-only, as a secret is`;
  if (schema.format === "password") return `the field "${name}" has format "password"`;
  const labels: Array<[string, unknown]> = [
    ["looks like", name],
    ["is titled like", schema.title],
    ["has a format that reads as", schema.format],
  ];
  for (const [how, label] of labels) {
    const category = typeof label === "string" ? secretIn(label, "label") : undefined;
    if (category) return `the field "${name}" ${how} ${CATEGORY_NAMES[category]}`;
  }
  const described = typeof schema.description === "string" ? secretIn(schema.description, "prose") : undefined;
  if (described) return `the field "${name}" is described as ${CATEGORY_NAMES[described]}`;
  return undefined;
}

/**
 * A form of one field or none is a decision, not data, when the field is a yes/no (a
 * boolean, or choices that are all yes or no), or when its wording asks for consent: that
 * decision is the person's. With no field, accepting is the yes.
 */
function loneConsent(name: string | undefined, schema: JsonObject | undefined, prose: string): Finding | undefined {
  const wording = [name, schema?.title, schema?.description, prose]
    .filter((text): text is string => typeof text === "string")
    .map(consentIn)
    .find((found) => found !== undefined);
  const asks = wording !== undefined ? ` (it reads "${wording}")` : "";
  if (name === undefined) {
    return wording !== undefined
      ? { fields: [], reason: `a consent asked with no fields: accepting it is the yes, which only a person may give${asks}` }
      : undefined;
  }
  if (isYesNoField(schema!)) return { fields: [name], reason: `a lone yes/no ("${name}") is consent, which only a person may give${asks}` };
  if (wording !== undefined) return { fields: [name], reason: `a lone field ("${name}") asking for consent, which only a person may give${asks}` };
  return undefined;
}

/**
 * In a form of several fields, consent is still the question's (issue 13): a yes/no worded as
 * approval (`confirm`, "I agree to the terms"), or any yes/no under a message asking for
 * approval ("Allow access to your calendar?"), is the person's. Other yes/no fields
 * ("Vegetarian") stay an agent's, so a form is not a consent merely for holding a boolean.
 */
function consentAmongOthers(properties: Record<string, JsonObject>, prose: string): Finding[] {
  const asked = approvalAskedIn(prose);
  const found: Finding[] = [];
  for (const [name, schema] of Object.entries(properties)) {
    if (!isYesNoField(schema)) continue;
    const labels = [name, schema.title, schema.description, ...choicesOf(schema).flat()].filter((text): text is string => typeof text === "string");
    const wording = labels.map((label) => approvalIn(label)).find((each) => each !== undefined);
    if (wording !== undefined) {
      found.push({ fields: [name], reason: `the yes/no "${name}" asks for consent (it reads "${wording}"), which only a person may give` });
    } else if (asked !== undefined) {
      found.push({ fields: [name], reason: `the yes/no "${name}" answers a message asking for consent (it reads "${asked}"), which only a person may give` });
    }
  }
  return found;
}

function isYesNoField(schema: JsonObject): boolean {
  if (schema.type === "boolean") return true;
  const choices = choicesOf(schema);
  return choices.length > 0 && choices.every((choice) => choice.some(isYesNo));
}

/** Each choice of a single-select field as its value and any titles given for it. */
function choicesOf(schema: JsonObject): string[][] {
  const titles = Array.isArray(schema.enumNames) ? schema.enumNames : [];
  if (Array.isArray(schema.enum)) {
    return schema.enum.map((value, index) => [String(value), ...(typeof titles[index] === "string" ? [titles[index] as string] : [])]);
  }
  const options = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : [];
  return options.filter(isObject).map((option) => [String(option.const), ...(typeof option.title === "string" ? [option.title] : [])]);
}

/** What the question says in words: its message, and a title or description of the whole form. */
function questionProse(params: JsonObject): string {
  const schema = isObject(params.requestedSchema) ? params.requestedSchema : {};
  return [params.message, schema.title, schema.description].filter((text): text is string => typeof text === "string").join("\n");
}

export function formProperties(params: JsonObject): Record<string, JsonObject> {
  const schema = isObject(params.requestedSchema) ? params.requestedSchema : {};
  const properties = isObject(schema.properties) ? schema.properties : {};
  return Object.fromEntries(Object.entries(properties).filter((entry): entry is [string, JsonObject] => isObject(entry[1])));
}

/**
 * Policy rules from config: answer some questions automatically, each firing logged.
 *
 * A rule matches on server, tool, mode and field names, and gives an action. Rules are tried
 * in order; the first that matches answers. A person-only question (see `audience.ts`) is
 * answered by a rule only when the rule names its server and every field that made it
 * person-only: when its message asks for a secret, that is every field of the form. A URL
 * question needs the server and `mode: "url"`. A person-only question with no field to name
 * (a consent asked with an empty form) is answered by no rule: nothing in a rule could say
 * that its author meant this question; `elicitation.mode` still decides when nobody answers.
 */
import { isObject, type JsonObject } from "../protocol/jsonrpc.js";
import { ConfigError } from "../config/errors.js";
import type { ElicitationMode } from "../config/types.js";
import { formProperties, type AudienceDecision } from "./audience.js";
import type { Action } from "./types.js";
import type { Question } from "../render/question.js";

export type RuleAction = "accept" | "acceptDefaults" | "decline" | "cancel";

export interface Rule {
  index: number;
  match: { server?: string; tool?: string; mode?: "form" | "url"; fields?: string[] };
  action: RuleAction;
  content?: JsonObject;
  reason: string;
}

export interface Decision {
  action: Action;
  content?: JsonObject;
  by: string;
  reason: string;
}

const ACTIONS: readonly RuleAction[] = ["accept", "acceptDefaults", "decline", "cancel"];
const MATCH_KEYS = ["server", "tool", "mode", "fields"];

/** Check rules from the config; an empty match or an unknown key is refused. */
export function parseRules(raw: unknown[], file: string): Rule[] {
  return raw.map((entry, index) => {
    const where = `${file}: elicitation.rules[${index}]`;
    if (!isObject(entry)) throw new ConfigError(`${where} must be an object`);
    for (const key of Object.keys(entry)) {
      if (!["match", "action", "content", "reason"].includes(key)) throw new ConfigError(`${where}.${key} is not a known key`);
    }
    const match = entry.match;
    if (!isObject(match) || Object.keys(match).length === 0) {
      throw new ConfigError(`${where}.match must name at least one of ${MATCH_KEYS.join(", ")}: a rule that matches everything is refused`);
    }
    for (const key of Object.keys(match)) {
      if (!MATCH_KEYS.includes(key)) throw new ConfigError(`${where}.match.${key} is not a known key (use ${MATCH_KEYS.join(", ")})`);
    }
    for (const key of ["server", "tool"] as const) {
      if (match[key] !== undefined && (typeof match[key] !== "string" || match[key] === ""))
        throw new ConfigError(`${where}.match.${key} must be a non-empty string`);
    }
    if (match.mode !== undefined && match.mode !== "form" && match.mode !== "url") throw new ConfigError(`${where}.match.mode must be "form" or "url"`);
    if (
      match.fields !== undefined &&
      (!Array.isArray(match.fields) || match.fields.length === 0 || !match.fields.every((field) => typeof field === "string"))
    ) {
      throw new ConfigError(`${where}.match.fields must be a non-empty array of field names`);
    }
    if (!ACTIONS.includes(entry.action as RuleAction)) throw new ConfigError(`${where}.action must be one of ${ACTIONS.join(", ")}`);
    if (entry.action === "accept" && entry.content !== undefined && !isObject(entry.content)) throw new ConfigError(`${where}.content must be an object`);
    if (entry.reason !== undefined && typeof entry.reason !== "string") throw new ConfigError(`${where}.reason must be a string`);
    return {
      index,
      match: match as Rule["match"],
      action: entry.action as RuleAction,
      ...(isObject(entry.content) ? { content: entry.content } : {}),
      reason: typeof entry.reason === "string" ? entry.reason : `rule ${index}`,
    };
  });
}

export interface PolicyInput {
  question: Question;
  tool: string | undefined;
  audience: AudienceDecision;
}

/** The first rule that matches and may answer this question. */
export function matchRule(rules: Rule[], input: PolicyInput): Rule | undefined {
  return rules.find((rule) => matches(rule, input) && mayAnswer(rule, input));
}

function matches(rule: Rule, { question, tool }: PolicyInput): boolean {
  const { match } = rule;
  if (match.server !== undefined && match.server !== question.server) return false;
  if (match.tool !== undefined && match.tool !== tool) return false;
  if (match.mode !== undefined && (question.kind !== "elicitation" || (question.mode ?? "form") !== match.mode)) return false;
  if (match.fields !== undefined) {
    const properties = formProperties(question.params);
    // Own fields only: `in` would find "toString" or "constructor" on every form.
    if (!match.fields.every((field) => Object.hasOwn(properties, field))) return false;
  }
  return true;
}

function mayAnswer(rule: Rule, { question, audience }: PolicyInput): boolean {
  if (audience.audience !== "person") return true;
  if (rule.match.server !== question.server) return false;
  if (question.mode === "url") return rule.match.mode === "url";
  if (audience.sensitiveFields.length === 0) return false;
  return audience.sensitiveFields.every((field) => rule.match.fields?.includes(field));
}

/** The answer a rule gives. `acceptDefaults` fills every field that has a default. */
export function ruleAnswer(rule: Rule, question: Question): Decision {
  const by = `rule:${rule.index}`;
  switch (rule.action) {
    case "accept":
      return { action: "accept", ...(rule.content ? { content: rule.content } : {}), by, reason: rule.reason };
    case "acceptDefaults":
      return { action: "accept", content: defaultsOf(question), by, reason: rule.reason };
    default:
      return { action: rule.action, by, reason: rule.reason };
  }
}

export function defaultsOf(question: Question): JsonObject {
  const content: JsonObject = {};
  for (const [name, schema] of Object.entries(formProperties(question.params))) {
    if (schema.default !== undefined) content[name] = schema.default;
  }
  return content;
}

/** What the configured mode says when no rule answered; undefined means "wait for someone". */
export function modeDecision(mode: ElicitationMode): Decision | "error" | undefined {
  switch (mode) {
    case "ask":
    case "host": // the calling host is asked; what it cannot take is cancelled (host/questions.ts)
      return undefined;
    case "auto":
      return { action: "cancel", by: "policy:auto", reason: "elicitation.mode is auto and no rule matched" };
    case "decline":
      return { action: "decline", by: "policy:decline", reason: "elicitation.mode is decline" };
    case "error":
      return "error";
  }
}

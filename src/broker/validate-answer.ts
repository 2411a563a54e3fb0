/**
 * Check an answer's content against the question's schema before it goes to the upstream,
 * with a message that names the field.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import type { JsonObject } from "../protocol/jsonrpc.js";

// `verbose`: an error carries the schema it failed, so a titled choice can be listed by its titles.
const ajv = new Ajv({ allErrors: true, strict: false, validateSchema: false, verbose: true });
(addFormats as unknown as (ajv: Ajv) => void)(ajv);
// Keyed by the schema's text: records are read afresh from the store, so the same schema is
// a new object every time. Bounded, and ajv's own identity-keyed cache is emptied after each
// compile (it would grow with every answer, and refuse a second schema with the same `$id`).
const cache = new Map<string, ValidateFunction>();
const CACHE_SIZE = 100;

/**
 * Suggested answers (`respondWith`) mark what a person must fill in with this; such a value
 * is never accepted, so a suggestion run as printed is refused, not sent.
 */
export const PLACEHOLDER_PREFIX = "<fill in";

export function placeholder(hint: string): string {
  return `${PLACEHOLDER_PREFIX}: ${hint}>`;
}

function isPlaceholder(value: unknown): value is string {
  return typeof value === "string" && value.startsWith(PLACEHOLDER_PREFIX) && value.endsWith(">");
}

/** Problems with `content` as an answer to a form with `schema`; empty when it fits. */
export function answerProblems(schema: JsonObject, content: JsonObject): string[] {
  const unfilled = Object.entries(content)
    .filter(([, value]) => isPlaceholder(value) || (Array.isArray(value) && value.some(isPlaceholder)))
    .map(([name]) => `field "${name}" still holds the placeholder from the suggested answer; put the answer in its place`);
  return [...unfilled, ...schemaProblems(schema, content)];
}

function schemaProblems(schema: JsonObject, content: JsonObject): string[] {
  const key = JSON.stringify(schema);
  let validate = cache.get(key);
  if (!validate) {
    // `$schema` may name a dialect this validator does not load; the keywords are the same.
    const { $schema: _dialect, ...rest } = schema;
    const compiled = { ...rest, type: "object" };
    try {
      validate = ajv.compile(compiled);
    } catch (error) {
      return [`the question's schema cannot be checked (${(error as Error).message}); decline or cancel it instead`];
    } finally {
      ajv.removeSchema(compiled);
    }
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
    cache.set(key, validate);
  }
  if (validate(content)) return [];
  const errors = validate.errors ?? [];
  // A single-select of `{const, title}` options fails once per option; say it once, with the choices.
  const choiceErrors = errors.filter((error) => choicesOf(error) !== undefined);
  const withinChoice = (error: ErrorObject): boolean => choiceErrors.some((choice) => choice !== error && error.schemaPath.startsWith(`${choice.schemaPath}/`));
  return errors.filter((error) => !withinChoice(error)).map(describe);
}

/** The options of a failed `oneOf`/`anyOf` whose every member is a `{const}` choice. */
function choicesOf(error: ErrorObject): Array<{ const: unknown; title?: unknown }> | undefined {
  if (error.keyword !== "oneOf" && error.keyword !== "anyOf") return undefined;
  const options: unknown = error.schema;
  if (!Array.isArray(options) || options.length === 0) return undefined;
  const isChoice = (option: unknown): option is { const: unknown; title?: unknown } => typeof option === "object" && option !== null && "const" in option;
  return options.every(isChoice) ? options : undefined;
}

function choiceText(option: { const: unknown; title?: unknown }): string {
  const value = typeof option.const === "string" ? option.const : JSON.stringify(option.const);
  return typeof option.title === "string" && option.title !== value ? `${value} (${option.title})` : value;
}

function describe(error: ErrorObject): string {
  const field = error.instancePath.replace(/^\//, "").replace(/\//g, ".");
  const choices = choicesOf(error);
  if (choices) return `${field ? `field "${field}"` : "the answer"} must be one of: ${choices.map(choiceText).join(", ")}`;
  if (error.keyword === "required") return `missing required field "${String(error.params.missingProperty)}"`;
  if (error.keyword === "additionalProperties") return `unknown field "${String(error.params.additionalProperty)}"`;
  if (error.keyword === "enum") {
    return `field "${field}" must be one of ${(error.params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(", ")}`;
  }
  return field ? `field "${field}" ${error.message ?? "is invalid"}` : (error.message ?? "invalid answer");
}

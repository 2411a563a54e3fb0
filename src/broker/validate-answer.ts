/**
 * Check an answer's content against the question's schema before it goes to the upstream,
 * with a message that names the field.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import type { JsonObject } from "../protocol/jsonrpc.js";

const ajv = new Ajv({ allErrors: true, strict: false, validateSchema: false });
(addFormats as unknown as (ajv: Ajv) => void)(ajv);
// Keyed by the schema's text: records are read afresh from the store, so the same schema is
// a new object every time. Bounded, and ajv's own identity-keyed cache is emptied after each
// compile (it would grow with every answer, and refuse a second schema with the same `$id`).
const cache = new Map<string, ValidateFunction>();
const CACHE_SIZE = 100;

/** Problems with `content` as an answer to a form with `schema`; empty when it fits. */
export function answerProblems(schema: JsonObject, content: JsonObject): string[] {
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
  return (validate.errors ?? []).map(describe);
}

function describe(error: ErrorObject): string {
  const field = error.instancePath.replace(/^\//, "").replace(/\//g, ".");
  if (error.keyword === "required") return `missing required field "${String(error.params.missingProperty)}"`;
  if (error.keyword === "additionalProperties") return `unknown field "${String(error.params.additionalProperty)}"`;
  if (error.keyword === "enum") {
    return `field "${field}" must be one of ${(error.params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(", ")}`;
  }
  return field ? `field "${field}" ${error.message ?? "is invalid"}` : (error.message ?? "invalid answer");
}

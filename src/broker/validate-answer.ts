/**
 * Check an answer's content against the question's schema before it goes to the upstream,
 * with a message that names the field.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import type { JsonObject } from "../protocol/jsonrpc.js";

const ajv = new Ajv({ allErrors: true, strict: false, validateSchema: false });
(addFormats as unknown as (ajv: Ajv) => void)(ajv);
const cache = new WeakMap<JsonObject, ValidateFunction>();

/** Problems with `content` as an answer to a form with `schema`; empty when it fits. */
export function answerProblems(schema: JsonObject, content: JsonObject): string[] {
  let validate = cache.get(schema);
  if (!validate) {
    // `$schema` may name a dialect this validator does not load; the keywords are the same.
    const { $schema: _dialect, ...rest } = schema;
    validate = ajv.compile({ ...rest, type: "object" });
    cache.set(schema, validate);
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

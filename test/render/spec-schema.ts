/**
 * Validates rendered requests against the official schema of a revision
 * (`test/spec/<rev>/schema.json`). Local to the render tests on purpose.
 *
 * The official schemas never set `additionalProperties: false`, so they accept any extra
 * keyword. `closed: true` (2025-06-18 only) additionally closes the request params, the
 * requested schema and the four primitive property shapes, so a leftover `default`, `oneOf`,
 * `$schema`, `mode` or `elicitationId` fails validation instead of slipping through.
 */

import { readFileSync } from "node:fs";
import { Ajv, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { JsonObject } from "../../src/protocol/jsonrpc.js";
import type { Revision } from "../../src/protocol/revisions.js";

const DEFINITIONS: Record<string, string> = {
  "elicitation/create": "ElicitRequest",
  "sampling/createMessage": "CreateMessageRequest",
  "roots/list": "ListRootsRequest",
};

type Schema = Record<string, any>;

function load(revision: Revision): Schema {
  return JSON.parse(readFileSync(new URL(`../spec/${revision}/schema.json`, import.meta.url), "utf8")) as Schema;
}

function close(schema: Schema): Schema {
  const copy = structuredClone(schema);
  const defs = copy.definitions;
  for (const name of ["StringSchema", "NumberSchema", "BooleanSchema", "EnumSchema"]) defs[name].additionalProperties = false;
  const params = defs.ElicitRequest.properties.params;
  params.additionalProperties = false;
  // Every request's params may carry `_meta` (the base `Request` of 2025-06-18).
  params.properties._meta = { type: "object" };
  params.properties.requestedSchema.additionalProperties = false;
  return copy;
}

const cache = new Map<string, ValidateFunction>();

function validator(revision: Revision, method: string, closed: boolean): ValidateFunction {
  const key = `${revision} ${method} ${closed}`;
  const cached = cache.get(key);
  if (cached) return cached;
  let schema = load(revision);
  if (closed) {
    if (revision !== "2025-06-18") throw new Error("closed validation is only defined for 2025-06-18");
    schema = close(schema);
  }
  const modern = "$defs" in schema;
  // Strict mode off: the official schemas use formats and annotations Ajv does not know.
  const ajv = modern ? new Ajv2020({ strict: false, validateFormats: false }) : new Ajv({ strict: false, validateFormats: false });
  ajv.addSchema(schema, "schema.json");
  const definition = DEFINITIONS[method];
  if (definition === undefined) throw new Error(`no definition for ${method}`);
  const validate = ajv.compile({ $ref: `schema.json#/${modern ? "$defs" : "definitions"}/${definition}` });
  cache.set(key, validate);
  return validate;
}

/**
 * Validate `{jsonrpc, id, method, params}` against `revision`'s schema. Returns the Ajv errors
 * as readable lines, empty when valid.
 */
export function specErrors(revision: Revision, method: string, params: JsonObject, options: { closed?: boolean } = {}): string[] {
  const validate = validator(revision, method, options.closed ?? false);
  if (validate({ jsonrpc: "2.0", id: 1, method, params })) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ""} ${JSON.stringify(e.params)}`);
}

/**
 * A form question's `requestedSchema`, rendered for the host's revision.
 *
 * 2025-11-25 added to the flat form schema: titled enums (`oneOf`), multi-select (`type:
 * "array"`), `default` on every primitive, and `$schema`. For a revision without them
 * (2025-06-18, the only earlier one with elicitation) each is handled by what it means
 * for the answer:
 *
 * - titled single-select `oneOf [{const, title}]` becomes `enum` + `enumNames` in the same
 *   order: the same answers validate (one of the consts), only the spelling of the labels
 *   changes. Untitled `enum` and legacy `enum` + `enumNames` already are 2025-06-18 shapes.
 * - multi-select cannot be expressed: its answer is a `string[]`, which a 2025-06-18
 *   `ElicitResult` cannot even carry, and flattening it to one string would hand the
 *   upstream an answer its own validation rejects. The question is not sendable.
 * - `default` is an annotation (it pre-fills the form and never decides whether an answer
 *   is valid), so it is dropped where 2025-06-18 has none: everywhere but booleans.
 * - `$schema` names the dialect; the flat keywords mean the same in draft-07 and 2020-12, so
 *   dropping it changes no answer's validity.
 *
 * Keywords that no revision defines (for example `pattern`, which the 2025-11-25 prose shows
 * and its schema lacks) are left alone: every revision's schema accepts unknown keywords, a
 * host of any revision treats them the same way, and stripping one such as `pattern` would
 * widen what the host accepts. Rendering changes only what the revisions differ in.
 *
 * A property whose type no 2025-06-18 primitive has (object, null, a list of types, none)
 * makes the question not sendable: that host's schema would reject the whole request.
 */

import { isObject, type JsonObject } from "../protocol/jsonrpc.js";
import { defines, type Revision } from "../protocol/revisions.js";

export type SchemaRendering = { ok: true; schema: JsonObject } | { ok: false; reason: string };

const PRIMITIVE_TYPES: ReadonlySet<unknown> = new Set(["string", "number", "integer", "boolean"]);

/**
 * Render `requestedSchema` (already a private copy) for `revision`. Revisions that define
 * everything 2025-11-25 added get it back as it came.
 */
export function renderFormSchema(requestedSchema: unknown, revision: Revision): SchemaRendering {
  const rich = defines(revision, "richEnums");
  const defaults = defines(revision, "elicitationDefaults");
  const dialect = defines(revision, "elicitationSchemaDialect");
  if (rich && defaults && dialect) {
    return isObject(requestedSchema) ? { ok: true, schema: requestedSchema } : notAnObject();
  }
  if (!isObject(requestedSchema)) return notAnObject();
  const properties = requestedSchema.properties;
  if (!isObject(properties)) return { ok: false, reason: 'the requested schema has no "properties" object' };

  const schema: JsonObject = { ...requestedSchema };
  if (!dialect) delete schema.$schema;
  // Entries, not assignment: a field named "__proto__" must stay a field.
  const rendered: Array<[string, JsonObject]> = [];
  for (const [name, property] of Object.entries(properties)) {
    const result = renderProperty(name, property, revision, rich, defaults);
    if (!result.ok) return result;
    rendered.push([name, result.schema]);
  }
  schema.properties = Object.fromEntries(rendered);
  return { ok: true, schema };
}

function notAnObject(): SchemaRendering {
  return { ok: false, reason: "the requested schema is not an object" };
}

function renderProperty(name: string, property: unknown, revision: Revision, rich: boolean, defaults: boolean): SchemaRendering {
  if (!isObject(property)) return { ok: false, reason: `property "${name}" is not a schema object` };
  const out: JsonObject = { ...property };
  if (!rich) {
    if (out.type === "array") {
      return {
        ok: false,
        reason: `property "${name}" is a multi-select (type "array"), which revision ${revision} cannot express`,
      };
    }
    if (!PRIMITIVE_TYPES.has(out.type)) {
      return {
        ok: false,
        reason: `property "${name}" has type ${JSON.stringify(out.type) ?? "(none)"}, which revision ${revision} cannot express`,
      };
    }
    if (out.oneOf !== undefined) {
      const legacy = titledToLegacy(name, out, revision);
      if (!legacy.ok) return legacy;
    }
  }
  // Booleans keep a boolean default: the one default 2025-06-18 has.
  if (!defaults && !(out.type === "boolean" && typeof out.default === "boolean")) delete out.default;
  return { ok: true, schema: out };
}

/** Rewrite a titled single-select in place into `enum` + `enumNames`, order preserved. */
function titledToLegacy(name: string, property: JsonObject, revision: Revision): SchemaRendering {
  const cannot = (why: string): SchemaRendering => ({
    ok: false,
    reason: `property "${name}" ${why}, which revision ${revision} cannot express`,
  });
  const options = property.oneOf;
  if (property.type !== "string") return cannot('uses "oneOf" on a non-string type');
  if (property.enum !== undefined || property.enumNames !== undefined) {
    return cannot('combines "oneOf" with "enum"/"enumNames"');
  }
  if (!Array.isArray(options)) return cannot('has a "oneOf" that is not a list');
  const values: string[] = [];
  const titles: string[] = [];
  for (const option of options) {
    if (!isObject(option) || typeof option.const !== "string" || typeof option.title !== "string") {
      return cannot('has a "oneOf" that is not a list of {const, title} options');
    }
    values.push(option.const);
    titles.push(option.title);
  }
  delete property.oneOf;
  property.enum = values;
  property.enumNames = titles;
  return { ok: true, schema: property };
}

/**
 * A form question's schema as a list of fields, in schema order: what `show` prints, what the
 * prompt asks for, and what `key=value` answers are typed by. Pure.
 */
import { isObject, type JsonObject } from "../../protocol/jsonrpc.js";

export type FieldType = "string" | "number" | "integer" | "boolean" | "array";

export interface Choice {
  value: string;
  title?: string;
}

export interface Field {
  name: string;
  type: FieldType;
  required: boolean;
  title?: string;
  description?: string;
  default?: unknown;
  /** Single-select (string) choices, or the item choices of a multi-select (array). */
  choices?: Choice[];
  /** For arrays: the type of each item. */
  itemType?: FieldType;
  format?: string;
  /** Human notes on limits: "0..150", "at most 3 items", ... */
  limits: string[];
  schema: JsonObject;
}

const TYPES: readonly FieldType[] = ["string", "number", "integer", "boolean", "array"];

export function fieldsOf(schema: JsonObject | undefined): Field[] {
  if (!schema) return [];
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((name) => typeof name === "string") : []);
  const fields: Field[] = [];
  for (const [name, property] of Object.entries(properties)) {
    if (!isObject(property)) continue;
    fields.push(fieldOf(name, property, required.has(name)));
  }
  return fields;
}

function fieldOf(name: string, schema: JsonObject, required: boolean): Field {
  const type = typeOf(schema);
  const field: Field = { name, type, required, limits: limitsOf(schema), schema };
  if (typeof schema.title === "string") field.title = schema.title;
  if (typeof schema.description === "string") field.description = schema.description;
  if (schema.default !== undefined) field.default = schema.default;
  if (typeof schema.format === "string") field.format = schema.format;
  if (type === "array") {
    const items = isObject(schema.items) ? schema.items : {};
    field.itemType = typeOf(items);
    const choices = choicesOf(items);
    if (choices) field.choices = choices;
  } else {
    const choices = choicesOf(schema);
    if (choices) field.choices = choices;
  }
  return field;
}

/** The field's type; a union with null counts as its other member; choices without a type are strings. */
function typeOf(schema: JsonObject): FieldType {
  const declared = Array.isArray(schema.type) ? schema.type.find((type) => type !== "null") : schema.type;
  return TYPES.includes(declared as FieldType) ? (declared as FieldType) : "string";
}

/** `enum` (+ legacy `enumNames`), or `oneOf`/`anyOf` of `{const, title}`. */
function choicesOf(schema: JsonObject): Choice[] | undefined {
  if (Array.isArray(schema.enum)) {
    const names = Array.isArray(schema.enumNames) ? schema.enumNames : [];
    return schema.enum.map((value, index) => {
      const title = names[index];
      return { value: String(value), ...(typeof title === "string" ? { title } : {}) };
    });
  }
  const options = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : undefined;
  if (!options) return undefined;
  const choices: Choice[] = [];
  for (const option of options) {
    if (!isObject(option) || option.const === undefined) return undefined;
    choices.push({ value: String(option.const), ...(typeof option.title === "string" ? { title: option.title } : {}) });
  }
  return choices;
}

function limitsOf(schema: JsonObject): string[] {
  const limits: string[] = [];
  const range = (low: unknown, high: unknown, unit: string): void => {
    const hasLow = typeof low === "number";
    const hasHigh = typeof high === "number";
    // "1 character", "3 characters": the unit agrees with the number it follows.
    const of = (count: unknown): string => (count === 1 ? unit.replace(/s$/, "") : unit);
    if (hasLow && hasHigh) limits.push(`${low}..${high}${of(high)}`);
    else if (hasLow) limits.push(`at least ${low}${of(low)}`);
    else if (hasHigh) limits.push(`at most ${high}${of(high)}`);
  };
  range(schema.minimum, schema.maximum, "");
  range(schema.minLength, schema.maxLength, " characters");
  range(schema.minItems, schema.maxItems, " items");
  if (typeof schema.pattern === "string") limits.push(`matching /${schema.pattern}/`);
  return limits;
}

/** A short type hint: `integer`, `yes/no`, `one of 3`, `text, email`. */
export function typeHint(field: Field): string {
  const parts: string[] = [];
  if (field.type === "array") parts.push(field.choices ? "choose any, comma-separated" : `list of ${field.itemType ?? "string"}, comma-separated`);
  else if (field.choices) parts.push("choose one");
  else if (field.type === "boolean") parts.push("yes/no");
  else if (field.type === "string") parts.push("text");
  else parts.push(field.type);
  if (field.format) parts.push(field.format);
  parts.push(...field.limits);
  return parts.join(", ");
}

/** A value as a person would type it back: booleans as yes/no, lists comma-separated. */
export function displayValue(value: unknown): string {
  if (typeof value === "boolean") return value ? "yes" : "no";
  if (Array.isArray(value) && value.every((item) => typeof item !== "object")) return value.map(String).join(",");
  if (typeof value === "string") return value;
  return JSON.stringify(value);
}

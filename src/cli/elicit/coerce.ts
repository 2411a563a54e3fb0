/**
 * Typing an answer given on the command line. JSON content is taken as typed; `key=value`
 * pairs are typed by the question's schema, so `age=36` is the number 36, `ok=yes` is true and
 * `tags=a,b` is ["a","b"]. A field left out of the pairs takes its schema `default`, as the
 * page (which shows it filled in) and the prompt (where Enter keeps it) send it, so the same
 * accept sends the same content on every surface. Whether the typed answer fits the schema is
 * the broker's call.
 */
import { isObject, type JsonObject } from "../../protocol/jsonrpc.js";
import { CliError, Exit } from "../exit.js";
import type { Field, FieldType } from "./fields.js";

/** Content from `answer ID '{json}'` or `answer ID key=value ...`. */
export function parseContent(args: string[], fields: Field[]): JsonObject {
  const first = args[0];
  if (args.length === 1 && first !== undefined && first.trimStart().startsWith("{")) return parseJsonObject(first, "the answer");
  const byName = new Map(fields.map((field) => [field.name, field]));
  const content: JsonObject = {};
  for (const arg of args) {
    const equals = arg.indexOf("=");
    if (equals <= 0) {
      throw new CliError(`expected the answer as '{json}' or as key=value pairs, got ${JSON.stringify(arg)}`, Exit.Usage);
    }
    const name = arg.slice(0, equals);
    const field = byName.get(name);
    if (!field && fields.length > 0) {
      throw new CliError(`unknown field "${name}"; the question asks for: ${fields.map((known) => known.name).join(", ")}`);
    }
    if (Object.hasOwn(content, name)) throw new CliError(`field "${name}" is given twice`, Exit.Usage);
    content[name] = field ? coerceValue(field, arg.slice(equals + 1)) : arg.slice(equals + 1);
  }
  for (const field of fields) {
    if (!Object.hasOwn(content, field.name) && field.default !== undefined) content[field.name] = field.default;
  }
  return content;
}

/** A JSON object given on the command line; `what` names it in the usage error ("the answer"). */
export function parseJsonObject(text: string, what: string): JsonObject {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CliError(`${what} is not valid JSON: ${(error as Error).message}`, Exit.Usage);
  }
  if (!isObject(value)) throw new CliError(`${what} must be a JSON object`, Exit.Usage);
  return value;
}

/** One field's text as the field's type; an error naming the field when it cannot be. */
export function coerceValue(field: Field, raw: string): unknown {
  if (field.type !== "array") return coerceScalar(field.name, field.type, raw);
  const text = raw.trim();
  if (text.startsWith("[")) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new CliError(`field "${field.name}" is not a valid JSON array: ${(error as Error).message}`);
    }
    if (!Array.isArray(value)) throw new CliError(`field "${field.name}" must be a list`);
    return value;
  }
  const items = text === "" ? [] : text.split(",").map((item) => item.trim());
  return items.map((item) => coerceScalar(field.name, field.itemType ?? "string", item));
}

export function coerceScalar(name: string, type: FieldType, raw: string): unknown {
  if (type === "integer" || type === "number") {
    const text = raw.trim();
    const value = Number(text);
    if (text === "" || !Number.isFinite(value)) throw new CliError(`field "${name}" must be a number, got ${JSON.stringify(raw)}`);
    return value;
  }
  if (type === "boolean") {
    const value = parseBoolean(raw);
    if (value === undefined) throw new CliError(`field "${name}" must be yes or no (true/false, 1/0), got ${JSON.stringify(raw)}`);
    return value;
  }
  return raw;
}

export function parseBoolean(raw: string): boolean | undefined {
  const text = raw.trim().toLowerCase();
  if (["true", "yes", "y", "1"].includes(text)) return true;
  if (["false", "no", "n", "0"].includes(text)) return false;
  return undefined;
}

/**
 * A tool's arguments as given to `mcpx call`: one JSON object, or `key=value` pairs that are
 * typed by the tool's inputSchema once the tool is known (`n=3` is the number 3 for a number
 * property, `ok=yes` is true, `tags=a,b` a list, an object property's value is JSON).
 * Whether the typed arguments fit the schema is the server's call. Pure.
 */
import { isObject, type JsonObject } from "../protocol/jsonrpc.js";
import { CliError, Exit } from "./exit.js";
import { coerceValue, parseJsonObject } from "./elicit/coerce.js";
import { fieldsOf } from "./elicit/fields.js";
import { didYouMean, nearest } from "../util/nearest.js";

export type GivenArguments = { kind: "json"; value: JsonObject } | { kind: "pairs"; pairs: Record<string, string> };

export function parseGivenArguments(args: readonly string[]): GivenArguments {
  const first = args[0];
  if (args.length === 0 || (args.length === 1 && first!.trim() === "")) return { kind: "json", value: {} };
  if (args.length === 1 && /^\s*[{[]/.test(first!)) return { kind: "json", value: parseJsonObject(first!, "the arguments") };
  const pairs: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const arg of args) {
    const equals = arg.indexOf("=");
    if (equals <= 0) throw new CliError(`expected the arguments as '{json}' or as key=value pairs, got ${JSON.stringify(arg)}`, Exit.Usage);
    const name = arg.slice(0, equals);
    if (Object.hasOwn(pairs, name)) throw new CliError(`argument "${name}" is given twice`, Exit.Usage);
    pairs[name] = arg.slice(equals + 1);
  }
  return { kind: "pairs", pairs: { ...pairs } };
}

/** `key=value` pairs typed by the tool's inputSchema; an error naming the argument when one cannot be. */
export function typeArguments(pairs: Record<string, string>, inputSchema: unknown, tool: string): JsonObject {
  const schema = isObject(inputSchema) ? inputSchema : {};
  const properties = isObject(schema.properties) ? schema.properties : {};
  const known = Object.keys(properties);
  const typed = Object.create(null) as JsonObject; // a `__proto__` argument is an argument
  for (const [name, raw] of Object.entries(pairs)) {
    const property = properties[name];
    if (!Object.hasOwn(properties, name) || !isObject(property)) {
      if (known.length === 0) {
        typed[name] = raw; // a tool that describes no arguments: given as text, for it to judge
        continue;
      }
      throw new CliError(`${tool} has no argument "${name}"${didYouMean(nearest(name, known))} (it takes: ${known.join(", ")})`, Exit.Usage);
    }
    typed[name] = typeOne(name, property, raw);
  }
  return typed;
}

function typeOne(name: string, property: JsonObject, raw: string): unknown {
  const types = Array.isArray(property.type) ? property.type : [property.type];
  if (types.includes("object") || (property.type === undefined && /^\s*[{[]/.test(raw))) {
    try {
      return JSON.parse(raw);
    } catch (error) {
      if (types.includes("object")) throw new CliError(`argument "${name}" must be a JSON object: ${(error as Error).message}`, Exit.Usage);
      return raw;
    }
  }
  const field = fieldsOf({ properties: { [name]: property } })[0]!;
  try {
    return coerceValue(field, raw);
  } catch (error) {
    if (error instanceof CliError) throw new CliError(error.message.replace(/^field /, "argument "), Exit.Usage);
    throw error;
  }
}

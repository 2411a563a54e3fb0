/**
 * Is what a host returned for a question a result the protocol allows, in any revision? A
 * result that is not is refused (the question stays open for other answerers), never read as
 * some action it did not say. Only the shape is judged here: content that misses the
 * upstream's requestedSchema is the upstream's to judge (design rule 8).
 *
 * Pure: no I/O.
 */
import { isObject, type JsonObject } from "./jsonrpc.js";

const ACTIONS = ["accept", "decline", "cancel"];

/** Why `result` is no ElicitResult of any revision, or undefined when it is one. */
export function elicitResultProblem(result: JsonObject): string | undefined {
  const { action, content } = result;
  if (typeof action !== "string" || !ACTIONS.includes(action)) {
    return `"action" must be "accept", "decline" or "cancel", not ${JSON.stringify(action) ?? "missing"}`;
  }
  if (content === undefined) return undefined;
  if (action !== "accept") return `a ${action} carries no "content"`;
  if (!isObject(content)) return '"content" must be an object';
  for (const [name, value] of Object.entries(content)) {
    if (!isFormValue(value)) return `field ${JSON.stringify(name)} is ${describe(value)}; a form value is a string, number, boolean or list of strings`;
  }
  return undefined;
}

/** Why `result` is no CreateMessageResult of any revision, or undefined when it is one. */
export function createMessageResultProblem(result: JsonObject): string | undefined {
  if (result.role !== "assistant" && result.role !== "user") return `"role" must be "assistant" or "user"`;
  if (typeof result.model !== "string") return '"model" must be a string naming the model';
  if (!isObject(result.content) && !Array.isArray(result.content)) return '"content" must be a content block or a list of them';
  return undefined;
}

function isFormValue(value: unknown): boolean {
  if (typeof value === "string" || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isFinite(value);
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list with a value that is not a string";
  return `of type ${typeof value}`;
}

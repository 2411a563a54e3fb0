/**
 * An `onElicit` handler's answer as the main thread takes it: `{action, content}` with action
 * accept, decline or cancel and content (accept only) an object of strings, numbers, booleans
 * and string arrays, which is all an elicitation answer may hold. Anything else is no answer:
 * the question goes on to the usual surfaces. Pure.
 */
import type { JsonObject } from "../../protocol/jsonrpc.js";
import type { ScriptAnswer } from "../types.js";

/** Longest answer taken from a handler, as JSON. */
export const MAX_ANSWER_BYTES = 256 * 1024;

export function answerOf(json: string | undefined): ScriptAnswer | undefined {
  if (json === undefined || json.length > MAX_ANSWER_BYTES) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (!isRecord(data)) return undefined;
  const { action, content } = data;
  if (action === "decline" || action === "cancel") return { action };
  if (action !== "accept") return undefined;
  if (content === undefined) return { action };
  if (!isRecord(content) || !Object.values(content).every(isPrimitiveAnswer)) return undefined;
  return { action, content: content as JsonObject };
}

function isPrimitiveAnswer(value: unknown): boolean {
  if (typeof value === "string" || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isFinite(value);
  return Array.isArray(value) && value.every((item) => typeof item === "string");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

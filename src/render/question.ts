/**
 * The neutral question: anything an upstream asks of the user side, one model inside mcpx
 * whatever revision the upstream or the eventual answerer speaks. Rendering per revision
 * happens at the edge (`render.ts`); this module only recognises and records.
 */

import type { JsonObject } from "../protocol/jsonrpc.js";

/** `roots/list` is not a question: roots are the gateway's (design rule 10, host/roots.ts). */
export type QuestionKind = "elicitation" | "sampling";
export type QuestionMethod = "elicitation/create" | "sampling/createMessage";
export type ElicitationMode = "form" | "url";

/** One question an upstream asked, as the upstream asked it. */
export interface Question {
  /** mcpx's own id for the question (the broker key), not the upstream's JSON-RPC id. */
  id: string;
  /** The configured name of the upstream that asked. */
  server: string;
  kind: QuestionKind;
  method: QuestionMethod;
  /** Exactly as the upstream sent them. Never mutated: renderers work on a copy. */
  params: JsonObject;
  /** Elicitation only. Absent means form, as the spec says for a request without `mode`. */
  mode?: ElicitationMode;
  /**
   * The key a 2026-07-28 upstream gave this input request in its `inputRequests`. A modern host
   * asked it sees the same key, so what it knows of the server's questions holds through mcpx.
   */
  inputKey?: string;
}

const KINDS: Record<QuestionMethod, QuestionKind> = {
  "elicitation/create": "elicitation",
  "sampling/createMessage": "sampling",
};

function isQuestionMethod(method: string): method is QuestionMethod {
  return Object.hasOwn(KINDS, method);
}

/**
 * Read a server-to-client request as a question.
 *
 * Returns `undefined` for methods that are not questions, and for an elicitation whose
 * `mode` is neither absent, `"form"` nor `"url"`: mcpx declared no such mode upstream, so
 * the caller answers it `-32602` as the spec tells a client to, rather than guessing.
 */
export function questionFromRequest(id: string, server: string, method: string, params: JsonObject | undefined): Question | undefined {
  if (!isQuestionMethod(method)) return undefined;
  // A copy, so that nothing the caller later does to its message can change the question.
  const own: JsonObject = params === undefined ? {} : structuredClone(params);
  const question: Question = { id, server, kind: KINDS[method], method, params: own };
  if (method !== "elicitation/create") return question;
  const mode = own.mode;
  if (mode === undefined) return question;
  if (mode !== "form" && mode !== "url") return undefined;
  question.mode = mode;
  return question;
}

/** The question's elicitation mode, with the spec's default applied. */
export function modeOf(question: Question): ElicitationMode {
  return question.mode ?? "form";
}

/**
 * The neutral question: anything an upstream asks of the user side, one model inside mcpx
 * whatever revision the upstream or the eventual answerer speaks. Rendering per revision
 * happens at the edge (`render.ts`); this module only recognises and records.
 */

import { ErrorCode, isObject, type JsonObject } from "../protocol/jsonrpc.js";
import { defines, type Revision } from "../protocol/revisions.js";

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
  /**
   * mcpx itself asks this of a person (an approval of a call): why. Such a question is for a
   * person alone: no policy rule, script or agent tool can answer it.
   */
  personOnly?: string;
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

/** Why mcpx refuses an upstream's request to the user side: the JSON-RPC code and what is wrong. */
export interface QuestionRefusal {
  code: number;
  message: string;
}

/** What an upstream may ask of the user side (roots are answered by the gateway, not as a question). */
const USER_SIDE_METHODS: readonly string[] = ["elicitation/create", "sampling/createMessage", "roots/list"];

/**
 * Why this request of an upstream is one the protocol forbids, or undefined: a method that is
 * no request to a client, an elicitation mode mcpx did not declare, a URL question whose `url`
 * is missing or not an absolute http(s) URL, or, from a server of a revision that requires one,
 * without its `elicitationId`. The same check for a legacy server's request (its error: -32602
 * or -32601 to it) and a 2026-07-28 server's input request (its protocol error, which ends the
 * call). Form questions are judged where they are rendered: a schema one host cannot take may
 * suit another, so it waits in the broker rather than failing (design rule 1).
 * @param revision the upstream's revision, when known.
 */
export function questionRefusal(method: string, params: unknown, revision: Revision | undefined): QuestionRefusal | undefined {
  if (!USER_SIDE_METHODS.includes(method)) return { code: ErrorCode.MethodNotFound, message: `Method not found: ${method}` };
  if (method !== "elicitation/create") return undefined;
  const own = isObject(params) ? params : {};
  const mode = own.mode;
  if (mode !== undefined && mode !== "form" && mode !== "url") {
    return invalid(`mcpx did not declare the elicitation mode ${JSON.stringify(mode)} (it takes "form" and "url")`);
  }
  if (mode !== "url") return undefined;
  const problem = urlProblem(own.url) ?? (revision && defines(revision, "elicitationId") ? idProblem(own.elicitationId, revision) : undefined);
  return problem === undefined ? undefined : invalid(`a URL-mode elicitation/create ${problem}`);
}

function invalid(why: string): QuestionRefusal {
  return { code: ErrorCode.InvalidParams, message: `Invalid params: ${why}` };
}

function urlProblem(url: unknown): string | undefined {
  if (url === undefined) return 'needs a "url"';
  if (typeof url !== "string") return 'needs a "url" string';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `needs an absolute http(s) "url", not ${JSON.stringify(url.slice(0, 200))}`;
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") {
    return `needs an absolute http(s) "url", not one of scheme ${JSON.stringify(parsed.protocol)}`;
  }
  return undefined;
}

function idProblem(elicitationId: unknown, revision: Revision): string | undefined {
  if (typeof elicitationId === "string" && elicitationId !== "") return undefined;
  return `of revision ${revision} needs an "elicitationId" string`;
}

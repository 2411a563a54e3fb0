/**
 * A question as every surface shows it (CLI `--json`, REST, the web page, gateway tools):
 * the shape interface.md promises, plus who may answer and why.
 */
import type { JsonObject } from "../protocol/jsonrpc.js";
import type { QuestionRecord } from "./types.js";
import type { Delivery } from "./delivery.js";
import { closedBecause } from "./settled-why.js";

export interface QuestionView {
  id: string;
  server: string;
  kind: QuestionRecord["kind"];
  mode: "form" | "url" | null;
  message: string;
  requestedSchema?: JsonObject;
  url?: string;
  /** For sampling: the upstream's request params. */
  params?: JsonObject;
  tool: string | null;
  hostSession: string | null;
  /** The `mcpx call` that caused it, when proven. */
  callId: string | null;
  audience: QuestionRecord["audience"];
  audienceReason: string;
  state: QuestionRecord["state"];
  createdAt: string;
  expiresAt: string;
  /** Seconds until expiry while pending; 0 otherwise. */
  secondsLeft: number;
  /**
   * Once settled, why, in words: who answered ("declined by cli"), that it expired, or why it
   * was closed ("the server stopped waiting", "the call was cancelled"). Null while pending.
   */
  closedBecause: string | null;
  /**
   * How it was settled. A person-only answer's content is never shown (`contentWithheld` says
   * so while the store still holds it, until it is delivered and forgotten).
   */
  answer: { action: string; content?: JsonObject; contentWithheld?: true; by: string; answeredAt: string } | null;
  /**
   * Once settled: whether the answer reached the upstream (`delivered`), is recorded and waits
   * for the waiting process to hand it over (`pending`), or never will (`undeliverable`: that
   * process is gone, or the question was closed). Null while the question is pending.
   */
  delivery: Delivery | null;
  /**
   * URL questions: how far the person got — `opened` (asked, no answer yet), `consented`
   * (accepted: accept is consent, not completion), `completed` (the interaction at the URL is
   * finished), or `ended` (declined, cancelled, expired or closed). Null for other questions.
   */
  progress: UrlProgress | null;
  /** URL questions: who finished it and when (the upstream's notification, or a person). */
  completion: { by: string; completedAt: string } | null;
}

export type UrlProgress = "opened" | "consented" | "completed" | "ended";

/** How far a URL question got (see `QuestionView.progress`); undefined for other questions. */
export function urlProgress(record: QuestionRecord): UrlProgress | undefined {
  if (record.kind !== "elicitation" || record.mode !== "url") return undefined;
  if (record.completion) return "completed";
  if (record.state === "pending") return "opened";
  return record.answer?.action === "accept" ? "consented" : "ended";
}

/**
 * The record as a surface may show it: a person-only answer's content (a password, a one-time
 * code, a consent) goes to the upstream that asked and nowhere else, not even in the moment
 * before it is delivered (design rule 9). Every surface shows questions through this.
 */
export function shareable(record: QuestionRecord): QuestionRecord {
  if (record.audience !== "person" || record.answer?.content === undefined) return record;
  const { content: _withheld, ...answer } = record.answer;
  return { ...record, answer };
}

/** `delivery`: the broker's `deliveryOf` (the store's liveness; `Broker.view` gives both at once). */
export function viewOf(stored: QuestionRecord, now: number, delivery: Delivery | undefined): QuestionView {
  const record = shareable(stored);
  const withheld = record !== stored;
  return {
    id: record.id,
    server: record.server,
    kind: record.kind,
    mode: record.mode ?? null,
    message: record.message,
    ...(record.requestedSchema ? { requestedSchema: record.requestedSchema } : {}),
    ...(record.url ? { url: record.url } : {}),
    ...(record.kind !== "elicitation" ? { params: record.params } : {}),
    tool: record.tool ?? null,
    hostSession: record.hostSession ?? null,
    callId: record.callId ?? null,
    audience: record.audience,
    audienceReason: record.audienceReason,
    state: record.state,
    createdAt: record.createdAt,
    expiresAt: record.expiresAt,
    secondsLeft: record.state === "pending" ? Math.max(0, Math.round((Date.parse(record.expiresAt) - now) / 1000)) : 0,
    closedBecause: closedBecause(record) ?? null,
    answer: record.answer
      ? {
          action: record.answer.action,
          by: record.answer.by,
          answeredAt: record.answer.answeredAt,
          ...(record.answer.content ? { content: record.answer.content } : {}),
          ...(withheld ? { contentWithheld: true as const } : {}),
        }
      : null,
    delivery: delivery ?? null,
    progress: urlProgress(record) ?? null,
    completion: record.completion ? { ...record.completion } : null,
  };
}

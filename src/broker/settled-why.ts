/**
 * Why a question is no longer pending, in the words every surface shows (CLI, REST, the page,
 * the error a late answer gets): who answered it, that it expired, or why it was closed (the
 * server stopped waiting, the call was cancelled, ...). Pure.
 */
import { BrokerError } from "./errors.js";
import type { Action, QuestionRecord } from "./types.js";

/** `answer.by` of a closed question: this prefix, then why. */
export const CLOSED_PREFIX = "closed: ";

/** Why a question was closed, as `Broker.close` records it. */
export const CLOSED_BECAUSE = {
  /** Every call the question could belong to was cancelled by its caller. */
  callCancelled: "the call was cancelled",
  /** Every call it could belong to ended, one at least without being cancelled. */
  callEnded: "the call ended",
  hostGone: "the host that made the call went away",
  processStopped: "the mcpx process that was waiting on it stopped",
  processGone: "the mcpx process that was waiting on it is gone",
} as const;

/** The upstream cancelled its request, or its connection ended: `detail` is what it or the connection said. */
export function serverStoppedWaiting(detail: string | undefined): string {
  const said = detail?.replace(/\s+/g, " ").trim().slice(0, 200);
  return said ? `the server stopped waiting (${said})` : "the server stopped waiting";
}

const PAST: Record<Action, string> = { accept: "accepted", decline: "declined", cancel: "cancelled" };

/** Why the question is settled ("declined by cli", "expired: nobody answered within 5m", ...); undefined while pending. */
export function closedBecause(record: QuestionRecord): string | undefined {
  if (record.state === "pending") return undefined;
  const answer = record.answer;
  if (record.state === "expired") return `expired: nobody answered within ${duration(Date.parse(record.expiresAt) - Date.parse(record.createdAt))}`;
  if (record.state === "closed") return answer?.by.startsWith(CLOSED_PREFIX) ? answer.by.slice(CLOSED_PREFIX.length) : "the call waiting for it is gone";
  return answer ? `${PAST[answer.action]} by ${answer.by}` : "answered";
}

/** The error an answer to a question no longer pending gets: why it is over, never "the first answer stands" when nobody answered. */
export function alreadySettled(record: QuestionRecord): BrokerError {
  const at = record.answer ? ` (at ${record.answer.answeredAt})` : "";
  if (record.state === "answered") {
    const by = record.answer ? ` (${record.answer.action} by ${record.answer.by} at ${record.answer.answeredAt})` : "";
    return new BrokerError("ALREADY_SETTLED", `question ${record.id} is already answered${by}; the first answer stands`);
  }
  if (record.state === "expired") {
    return new BrokerError("ALREADY_SETTLED", `question ${record.id} ${closedBecause(record)}${at}; the server was told cancel, and nothing more can be sent`);
  }
  return new BrokerError("ALREADY_SETTLED", `question ${record.id} was closed: ${closedBecause(record)}${at}; nobody is waiting for an answer any more`);
}

/** "45s", "5m", "2m 30s", "1h 05m". */
export function duration(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return seconds % 60 === 0 ? `${minutes}m` : `${minutes}m ${String(seconds % 60).padStart(2, "0")}s`;
  return minutes % 60 === 0 ? `${Math.floor(minutes / 60)}h` : `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, "0")}m`;
}

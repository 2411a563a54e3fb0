/**
 * How a question and its answer are laid out in SQLite: one row of `questions` joined with at
 * most one of `answers`. Times are stored as epoch milliseconds and read back as ISO strings;
 * JSON columns are text.
 */
import type { JsonObject } from "../protocol/jsonrpc.js";
import type { Answer, QuestionRecord, QuestionState } from "./types.js";

export interface QuestionRow {
  id: string;
  server: string;
  kind: string;
  method: string;
  mode: string | null;
  message: string;
  params_json: string;
  url: string | null;
  tool: string | null;
  host_session: string | null;
  call_id: string | null;
  identity: string | null;
  audience: string;
  audience_reason: string;
  created_ms: number;
  expires_ms: number;
  state: string;
  owner_pid: number;
  owner_instance: string;
  action: string | null;
  content_json: string | null;
  answered_by: string | null;
  answered_from: string | null;
  answered_ms: number | null;
  delivered_ms: number | null;
  completed_ms: number | null;
  completed_by: string | null;
}

/** Every question with its answer, if any; callers add WHERE and ORDER BY. */
export const SELECT_QUESTIONS = `SELECT q.*, a.action, a.content_json, a.answered_by, a.answered_from, a.answered_ms, a.delivered_ms
                FROM questions q LEFT JOIN answers a ON a.question_id = q.id`;

/** The named parameters of the `questions` INSERT for a new (pending) question. */
export function insertParams(record: QuestionRecord): Record<string, string | number | null> {
  return {
    id: record.id,
    server: record.server,
    kind: record.kind,
    method: record.method,
    mode: record.mode ?? null,
    message: record.message,
    params_json: JSON.stringify(record.params),
    url: record.url ?? null,
    tool: record.tool ?? null,
    host_session: record.hostSession ?? null,
    call_id: record.callId ?? null,
    identity: record.identity ?? null,
    audience: record.audience,
    audience_reason: record.audienceReason,
    created_ms: Date.parse(record.createdAt),
    expires_ms: Date.parse(record.expiresAt),
    owner_pid: record.ownerPid,
    owner_instance: record.ownerInstance,
  };
}

export function fromRow(row: QuestionRow): QuestionRecord {
  const params = JSON.parse(row.params_json) as JsonObject;
  const record: QuestionRecord = {
    id: row.id,
    server: row.server,
    kind: row.kind as QuestionRecord["kind"],
    method: row.method,
    message: row.message,
    params,
    audience: row.audience as QuestionRecord["audience"],
    audienceReason: row.audience_reason,
    createdAt: new Date(row.created_ms).toISOString(),
    expiresAt: new Date(row.expires_ms).toISOString(),
    state: row.state as QuestionState,
    ownerPid: row.owner_pid,
    ownerInstance: row.owner_instance,
  };
  if (row.mode) record.mode = row.mode as "form" | "url";
  if (row.url) record.url = row.url;
  if (row.tool) record.tool = row.tool;
  if (row.host_session) record.hostSession = row.host_session;
  if (row.call_id) record.callId = row.call_id;
  if (row.identity) record.identity = row.identity;
  if (record.mode === "form" && typeof params.requestedSchema === "object" && params.requestedSchema !== null) {
    record.requestedSchema = params.requestedSchema as JsonObject;
  }
  if (row.completed_ms !== null && row.completed_by !== null) {
    record.completion = { by: row.completed_by, completedAt: new Date(row.completed_ms).toISOString() };
  }
  if (row.delivered_ms !== null) record.deliveredAt = new Date(row.delivered_ms).toISOString();
  if (row.action && row.answered_by && row.answered_ms !== null) {
    record.answer = {
      action: row.action as Answer["action"],
      by: row.answered_by,
      ...(row.answered_from ? { from: row.answered_from } : {}),
      answeredAt: new Date(row.answered_ms).toISOString(),
      ...(row.content_json ? { content: JSON.parse(row.content_json) as JsonObject } : {}),
    };
  }
  return record;
}

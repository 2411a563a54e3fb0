/**
 * The audit trail (issue 18): every tool call (whose, which server and tool, its arguments
 * with secrets redacted, how it ended, how long it took) and every question (which server and
 * call asked, who answered from which surface, the decision; never a person-only answer's
 * content, nor any answer's), in the store beside the questions. Append-only: rows are added,
 * and removed only by retention; no surface edits them.
 * The entry's shape; each store keeps it its own way (SQLite: sqlite/audit-table.ts).
 */

export type AuditKind = "call" | "question";

export interface AuditEntry {
  seq: number;
  at: string;
  kind: AuditKind;
  identity: string;
  hostSession?: string;
  /** A call through a profile's endpoint (`/mcp/<name>`, `serve --profile`): the profile's name. */
  profile?: string;
  /** The host's clientInfo, as `name version`. */
  client?: string;
  callId?: string;
  server: string;
  tool?: string;
  /** Calls: the arguments, secrets redacted. */
  arguments?: unknown;
  /** Calls: ok, error (an isError result), failed (an error), refused (an approval). Questions: the answer's action, or expired, closed. */
  outcome: string;
  durationMs?: number;
  questionId?: string;
  method?: string;
  /** Questions: who answered (cli, web, rest, host:<session>, rule:<n>, expiry, …). */
  answeredBy?: string;
  /** Questions answered over HTTP (REST, the page): the address the answer came from. */
  answeredFrom?: string;
  detail?: string;
}

export type NewAuditEntry = Omit<AuditEntry, "seq" | "at">;

export interface AuditFilter {
  sinceMs?: number;
  server?: string;
  tool?: string;
  hostSession?: string;
  profile?: string;
  /** Only this identity's (a signed-in caller's view). */
  identity?: string;
  limit?: number;
}

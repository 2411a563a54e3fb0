/**
 * The audit trail (broker/audit-store.ts) in the SQLite store's `audit` table: rows are added,
 * and removed only by retention. Entries are written together, once per turn of the event loop,
 * in one transaction: a call's answer is not held up by its entry, and calls that end together
 * pay for one commit (one insert alone was a tenth of a millisecond of each call). Whatever reads
 * or removes entries, or closes the store, writes those waiting first.
 */
import type Database from "better-sqlite3";
import type { AuditEntry, AuditFilter, AuditKind, NewAuditEntry } from "../audit-store.js";
import type { AuditTable } from "../store-api.js";

interface AuditRow {
  seq: number;
  at_ms: number;
  kind: AuditKind;
  identity: string;
  host_session: string | null;
  profile: string | null;
  client: string | null;
  call_id: string | null;
  server: string;
  tool: string | null;
  arguments_json: string | null;
  outcome: string;
  duration_ms: number | null;
  question_id: string | null;
  method: string | null;
  answered_by: string | null;
  answered_from: string | null;
  detail: string | null;
}

interface Waiting {
  row: Record<string, unknown>;
  written: () => void;
  failed: (error: unknown) => void;
}

export class SqliteAuditTable implements AuditTable {
  readonly #insert: Database.Statement;
  readonly #prune: Database.Statement;
  readonly #waiting: Waiting[] = [];
  #due: NodeJS.Immediate | undefined;

  constructor(private readonly db: Database.Database) {
    this.#insert = db.prepare(
      `INSERT INTO audit (at_ms, kind, identity, host_session, profile, client, call_id, server, tool, arguments_json, outcome, duration_ms, question_id, method, answered_by, answered_from, detail)
       VALUES (@at_ms, @kind, @identity, @host_session, @profile, @client, @call_id, @server, @tool, @arguments_json, @outcome, @duration_ms, @question_id, @method, @answered_by, @answered_from, @detail)`,
    );
    this.#prune = db.prepare("DELETE FROM audit WHERE at_ms < ?");
  }

  append(entry: NewAuditEntry, atMs = Date.now()): Promise<void> {
    // The row is made now: the entry says what the arguments were when the call ended.
    const row = this.#row(entry, atMs);
    return new Promise((written, failed) => {
      this.#waiting.push({ row, written, failed });
      this.#due ??= setImmediate(() => this.flush());
    });
  }

  /** Write the entries waiting, in one transaction. */
  flush(): void {
    clearImmediate(this.#due);
    this.#due = undefined;
    const batch = this.#waiting.splice(0);
    if (batch.length === 0) return;
    try {
      // One alone commits by itself: a transaction around it would only add its BEGIN and COMMIT.
      if (batch.length === 1) this.#insert.run(batch[0]!.row);
      else
        this.db.transaction(() => {
          for (const { row } of batch) this.#insert.run(row);
        })();
    } catch (error) {
      for (const { failed } of batch) failed(error);
      return;
    }
    for (const { written } of batch) written();
  }

  #row(entry: NewAuditEntry, atMs: number): Record<string, unknown> {
    return {
      at_ms: atMs,
      kind: entry.kind,
      identity: entry.identity,
      host_session: entry.hostSession ?? null,
      profile: entry.profile ?? null,
      client: entry.client ?? null,
      call_id: entry.callId ?? null,
      server: entry.server,
      tool: entry.tool ?? null,
      arguments_json: entry.arguments === undefined ? null : JSON.stringify(entry.arguments),
      outcome: entry.outcome,
      duration_ms: entry.durationMs ?? null,
      question_id: entry.questionId ?? null,
      method: entry.method ?? null,
      answered_by: entry.answeredBy ?? null,
      answered_from: entry.answeredFrom ?? null,
      detail: entry.detail ?? null,
    };
  }

  /** Oldest first. */
  async list(filter: AuditFilter = {}): Promise<AuditEntry[]> {
    this.flush();
    const where: string[] = [];
    const params: Record<string, unknown> = {};
    const add = (column: string, key: string, value: unknown): void => {
      if (value === undefined) return;
      where.push(`${column} ${key === "since" ? ">=" : "="} @${key}`);
      params[key] = value;
    };
    add("at_ms", "since", filter.sinceMs);
    add("server", "server", filter.server);
    add("tool", "tool", filter.tool);
    add("host_session", "session", filter.hostSession);
    add("profile", "profile", filter.profile);
    add("identity", "identity", filter.identity);
    const sql = `SELECT * FROM (SELECT * FROM audit${where.length ? ` WHERE ${where.join(" AND ")}` : ""} ORDER BY seq DESC LIMIT @limit) ORDER BY seq`;
    return (this.db.prepare(sql).all({ ...params, limit: filter.limit ?? 10_000 }) as AuditRow[]).map(fromRow);
  }

  /** Rows older than `beforeMs` go (retention); how many. */
  async prune(beforeMs: number): Promise<number> {
    this.flush();
    return this.#prune.run(beforeMs).changes;
  }
}

function fromRow(row: AuditRow): AuditEntry {
  return {
    seq: row.seq,
    at: new Date(row.at_ms).toISOString(),
    kind: row.kind,
    identity: row.identity,
    ...(row.host_session !== null ? { hostSession: row.host_session } : {}),
    ...(row.profile !== null ? { profile: row.profile } : {}),
    ...(row.client !== null ? { client: row.client } : {}),
    ...(row.call_id !== null ? { callId: row.call_id } : {}),
    server: row.server,
    ...(row.tool !== null ? { tool: row.tool } : {}),
    ...(row.arguments_json !== null ? { arguments: JSON.parse(row.arguments_json) as unknown } : {}),
    outcome: row.outcome,
    ...(row.duration_ms !== null ? { durationMs: row.duration_ms } : {}),
    ...(row.question_id !== null ? { questionId: row.question_id } : {}),
    ...(row.method !== null ? { method: row.method } : {}),
    ...(row.answered_by !== null ? { answeredBy: row.answered_by } : {}),
    ...(row.answered_from !== null ? { answeredFrom: row.answered_from } : {}),
    ...(row.detail !== null ? { detail: row.detail } : {}),
  };
}

/**
 * The questions and their answers in the SQLite store (`questions` joined with `answers`).
 * Settling is a compare-and-set on `state = 'pending'` in one IMMEDIATE transaction, so when
 * two surfaces answer at once, in any processes, exactly one wins and the other learns it lost.
 */
import type Database from "better-sqlite3";
import type { Owner, QuestionTable } from "../store-api.js";
import type { Answer, QuestionRecord, QuestionState } from "../types.js";
import { fromRow, insertParams, type QuestionRow, SELECT_QUESTIONS } from "../question-row.js";

type Settlement = Omit<Answer, "answeredAt">;
type Settled = Exclude<QuestionState, "pending">;

export class SqliteQuestionTable implements QuestionTable {
  readonly #statements;
  readonly #insertSettled;
  readonly #settle;
  readonly #complete;

  constructor(db: Database.Database) {
    const statements = {
      insert: db.prepare(
        `INSERT INTO questions (id, server, kind, method, mode, message, params_json, url, tool, host_session, call_id, identity,
           audience, audience_reason, created_ms, expires_ms, state, owner_pid, owner_instance)
         VALUES (@id, @server, @kind, @method, @mode, @message, @params_json, @url, @tool, @host_session, @call_id, @identity,
           @audience, @audience_reason, @created_ms, @expires_ms, 'pending', @owner_pid, @owner_instance)`,
      ),
      get: db.prepare(`${SELECT_QUESTIONS} WHERE q.id = ?`),
      all: db.prepare(`${SELECT_QUESTIONS} ORDER BY q.created_ms, q.id`),
      pending: db.prepare(`${SELECT_QUESTIONS} WHERE q.state = 'pending' ORDER BY q.created_ms, q.id`),
      ofCall: db.prepare(`${SELECT_QUESTIONS} WHERE q.call_id = ? ORDER BY q.created_ms, q.id`),
      attachToCall: db.prepare(`UPDATE questions SET call_id = ? WHERE id = ? AND state = 'pending' AND call_id IS NULL AND host_session IS NULL`),
      setState: db.prepare(`UPDATE questions SET state = @state WHERE id = @id AND state = 'pending'`),
      answer: db.prepare(`INSERT INTO answers (question_id, action, content_json, answered_by, answered_from, answered_ms) VALUES (?, ?, ?, ?, ?, ?)`),
      overdue: db.prepare(`SELECT id FROM questions WHERE state = 'pending' AND expires_ms <= ?`),
      owners: db.prepare(`SELECT DISTINCT owner_pid, owner_instance FROM questions WHERE state = 'pending'`),
      ownedPending: db.prepare(`SELECT id FROM questions WHERE state = 'pending' AND owner_instance = ?`),
      prune: db.prepare(`DELETE FROM questions WHERE state != 'pending' AND created_ms < ?`),
      unattributed: db.prepare(`SELECT COUNT(*) AS n FROM questions WHERE server = ? AND host_session IS NULL AND call_id IS NULL`),
      forgetContent: db.prepare(
        // EXISTS looks up this one question; IN (SELECT …) read every person-only question each time.
        `UPDATE answers SET content_json = NULL
         WHERE question_id = ? AND content_json IS NOT NULL
           AND EXISTS (SELECT 1 FROM questions WHERE id = answers.question_id AND audience = 'person')`,
      ),
      delivered: db.prepare(`UPDATE answers SET delivered_ms = ? WHERE question_id = ? AND delivered_ms IS NULL`),
      complete: db.prepare(`UPDATE questions SET completed_ms = ?, completed_by = ? WHERE id = ? AND completed_ms IS NULL`),
      heldSecrets: db.prepare(
        `SELECT q.id, q.owner_pid, q.owner_instance FROM questions q JOIN answers a ON a.question_id = q.id
         WHERE q.audience = 'person' AND a.content_json IS NOT NULL`,
      ),
    };
    this.#statements = statements;
    const settle = (id: string, state: Settled, answer: Settlement, now: number): boolean => {
      if (statements.setState.run({ id, state }).changes === 0) return false;
      statements.answer.run(id, answer.action, answer.content ? JSON.stringify(answer.content) : null, answer.by, answer.from ?? null, now);
      return true;
    };
    this.#settle = db.transaction(settle);
    this.#insertSettled = db.transaction((record: QuestionRecord, answer: Settlement, now: number): void => {
      statements.insert.run(insertParams(record));
      settle(record.id, "answered", answer, now);
    });
    // Reading, accepting and completing in one transaction: no other process settles it in between.
    this.#complete = db.transaction((id: string, by: string, now: number, from: string | undefined): boolean => {
      const record = this.#get(id);
      if (!record || record.completion) return false;
      if (record.state === "pending") {
        if (!settle(id, "answered", { action: "accept", by, ...(from ? { from } : {}) }, now)) return false;
      } else if (record.state !== "answered" || record.answer?.action !== "accept") return false;
      return statements.complete.run(now, by, id).changes > 0;
    });
  }

  async insert(record: QuestionRecord): Promise<void> {
    this.#statements.insert.run(insertParams(record));
  }

  async insertSettled(record: QuestionRecord, answer: Settlement): Promise<void> {
    this.#insertSettled.immediate(record, answer, Date.now());
  }

  async get(id: string): Promise<QuestionRecord | undefined> {
    return this.#get(id);
  }

  async list(all = false): Promise<QuestionRecord[]> {
    return ((all ? this.#statements.all : this.#statements.pending).all() as QuestionRow[]).map(fromRow);
  }

  async ofCall(callId: string): Promise<QuestionRecord[]> {
    return (this.#statements.ofCall.all(callId) as QuestionRow[]).map(fromRow);
  }

  async attachToCall(id: string, callId: string): Promise<boolean> {
    return this.#statements.attachToCall.run(callId, id).changes > 0;
  }

  async settle(id: string, state: Settled, answer: Settlement, now = Date.now()): Promise<boolean> {
    return this.#settle.immediate(id, state, answer, now);
  }

  async complete(id: string, by: string, now = Date.now(), from?: string): Promise<boolean> {
    return this.#complete.immediate(id, by, now, from);
  }

  async overdue(now = Date.now()): Promise<string[]> {
    return (this.#statements.overdue.all(now) as Array<{ id: string }>).map((row) => row.id);
  }

  async pendingOwners(): Promise<Owner[]> {
    return (this.#statements.owners.all() as Array<{ owner_pid: number; owner_instance: string }>).map((row) => ({
      pid: row.owner_pid,
      instance: row.owner_instance,
    }));
  }

  async pendingOwnedBy(instance: string): Promise<string[]> {
    return (this.#statements.ownedPending.all(instance) as Array<{ id: string }>).map((row) => row.id);
  }

  /** Call the store's `compact()` after, so no old copy stays in the WAL. */
  async forgetPersonOnlyContent(id: string): Promise<boolean> {
    return this.#statements.forgetContent.run(id).changes > 0;
  }

  async markDelivered(id: string, now = Date.now()): Promise<boolean> {
    return this.#statements.delivered.run(now, id).changes > 0;
  }

  async heldSecrets(): Promise<Array<{ id: string } & Owner>> {
    return (this.#statements.heldSecrets.all() as Array<{ id: string; owner_pid: number; owner_instance: string }>).map((row) => ({
      id: row.id,
      pid: row.owner_pid,
      instance: row.owner_instance,
    }));
  }

  async unattributedFrom(server: string): Promise<number> {
    return (this.#statements.unattributed.get(server) as { n: number }).n;
  }

  async prune(beforeMs: number): Promise<number> {
    return this.#statements.prune.run(beforeMs).changes;
  }

  #get(id: string): QuestionRecord | undefined {
    const row = this.#statements.get.get(id) as QuestionRow | undefined;
    return row ? fromRow(row) : undefined;
  }
}

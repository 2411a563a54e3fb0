/**
 * The question store: one SQLite file in the state directory, shared by every mcpx process
 * of the user. WAL mode so readers never block the writer; the file is private (0600).
 * `secure_delete` zeroes what is deleted, and a checkpoint after forgetting a secret moves the
 * zeroed pages into the file and empties the WAL, so deleted bytes leave the disk too.
 *
 * Settling is a compare-and-set on `state = 'pending'`, so when two surfaces answer at once,
 * exactly one wins and the other learns it lost.
 */
import type Database from "better-sqlite3";
import { closeSync, existsSync, openSync } from "node:fs";
import { join } from "node:path";
import { GatewayError } from "../protocol/errors.js";
import { CallStore } from "./call-store.js";
import { TaskStore } from "./task-store.js";
import { AuditStore } from "./audit-store.js";
import { UsedPageCodes } from "./used-page-codes.js";
import { nativeModuleProblem } from "./native-module.js";
import { openDatabase } from "./open-database.js";
import { fromRow, insertParams, type QuestionRow, SELECT_QUESTIONS } from "./question-row.js";
import { ensurePrivateDir, ensurePrivateFile } from "./state-dir.js";
import type { Answer, QuestionRecord, QuestionState } from "./types.js";

export const STORE_FILE = "mcpx.db";

/** How long a readiness probe waits for another process's write lock. */
const PROBE_BUSY_MS = 1_000;

export class QuestionStore {
  readonly #db: Database.Database;
  readonly #statements;
  #dataVersion = -1;
  /** Calls made by `mcpx call`, in the same file. */
  readonly calls: CallStore;
  /** The web page's one-time codes already used, in the same file. */
  readonly usedPageCodes: UsedPageCodes;
  /** The tasks relayed for hosts, in the same file. */
  readonly tasks: TaskStore;
  /** The audit trail of calls and questions, in the same file. */
  readonly audit: AuditStore;

  private constructor(
    readonly path: string,
    db: Database.Database,
  ) {
    this.#db = db;
    this.calls = new CallStore(db);
    this.usedPageCodes = new UsedPageCodes(db);
    this.tasks = new TaskStore(db);
    this.audit = new AuditStore(db);
    this.#statements = {
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
  }

  /** Open (creating if needed) the store in `dir`. Fails with a clear message, never mid-call. */
  static open(dir: string): QuestionStore {
    ensurePrivateDir(dir);
    const path = join(dir, STORE_FILE);
    // SQLite creates the -wal and -shm with the main file's mode; ones left from before may not be.
    for (const file of [path, `${path}-wal`, `${path}-shm`]) ensurePrivateFile(file);
    try {
      if (!existsSync(path)) closeSync(openSync(path, "a", 0o600));
      return new QuestionStore(path, openDatabase(path));
    } catch (error) {
      const native = nativeModuleProblem(error);
      if (native) throw new GatewayError("STORE_UNAVAILABLE", native, { path });
      throw new GatewayError(
        "STORE_UNAVAILABLE",
        `the question store ${path} cannot be used: ${(error as Error).message}. ` +
          "Check the permissions of the state directory, or move the file aside to start with an empty store.",
        { path },
      );
    }
  }

  close(): void {
    this.#db.close();
  }

  /** Still open (a broker's timers may outlive a store closed without stopping it). */
  get open(): boolean {
    return this.#db.open;
  }

  /** Why the store cannot take a write now (read-only, locked past the busy timeout, gone), or undefined when it can. */
  unwritable(): string | undefined {
    // A probe answers within its own timeout: a second of waiting for another writer, not the usual five.
    const usual = this.#db.pragma("busy_timeout", { simple: true }) as number;
    this.#db.pragma(`busy_timeout = ${PROBE_BUSY_MS}`);
    try {
      // The write lock is taken and given back: nothing is written.
      this.#db.exec("BEGIN IMMEDIATE");
      this.#db.exec("ROLLBACK");
      return undefined;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    } finally {
      this.#db.pragma(`busy_timeout = ${usual}`);
    }
  }

  insert(record: QuestionRecord): void {
    this.#statements.insert.run(insertParams(record));
  }

  /** Every question a `mcpx call` call asked, in order. */
  ofCall(callId: string): QuestionRecord[] {
    return (this.#statements.ofCall.all(callId) as QuestionRow[]).map(fromRow);
  }

  /** A pending question nobody owned is a `mcpx call` call's from now on (it waits for it); whether it was. */
  attachToCall(id: string, callId: string): boolean {
    return this.#statements.attachToCall.run(callId, id).changes > 0;
  }

  /** Insert a question that is answered from the start (a policy rule answered it). */
  insertSettled(record: QuestionRecord, answer: Omit<Answer, "answeredAt">): void {
    this.#db
      .transaction(() => {
        this.insert(record);
        this.settle(record.id, "answered", answer);
      })
      .immediate();
  }

  get(id: string): QuestionRecord | undefined {
    const row = this.#statements.get.get(id) as QuestionRow | undefined;
    return row ? fromRow(row) : undefined;
  }

  list(all = false): QuestionRecord[] {
    return ((all ? this.#statements.all : this.#statements.pending).all() as QuestionRow[]).map(fromRow);
  }

  /**
   * Settle a pending question. True when this call settled it; false when it was no longer
   * pending (someone else answered first, or it expired).
   */
  settle(id: string, state: Exclude<QuestionState, "pending">, answer: Omit<Answer, "answeredAt">, now = Date.now()): boolean {
    const run = this.#db.transaction((): boolean => {
      if (this.#statements.setState.run({ id, state }).changes === 0) return false;
      this.#statements.answer.run(id, answer.action, answer.content ? JSON.stringify(answer.content) : null, answer.by, answer.from ?? null, now);
      return true;
    });
    return run.immediate();
  }

  /**
   * Record that a URL question's interaction is finished. A question still pending is accepted
   * by the same hand in the same transaction (finishing it is consenting to it). True when this
   * call recorded it; false when it was already complete, or settled other than by accept.
   */
  complete(id: string, by: string, now = Date.now(), from?: string): boolean {
    const run = this.#db.transaction((): boolean => {
      const record = this.get(id);
      if (!record || record.completion) return false;
      if (record.state === "pending") {
        if (!this.settle(id, "answered", { action: "accept", by, ...(from ? { from } : {}) })) return false;
      } else if (record.state !== "answered" || record.answer?.action !== "accept") return false;
      return this.#statements.complete.run(now, by, id).changes > 0;
    });
    return run.immediate();
  }

  /** Ids of pending questions whose deadline has passed. */
  overdue(now = Date.now()): string[] {
    return (this.#statements.overdue.all(now) as Array<{ id: string }>).map((row) => row.id);
  }

  /** Owners (process and instance) of pending questions, to find those whose process is gone. */
  pendingOwners(): Array<{ pid: number; instance: string }> {
    return (this.#statements.owners.all() as Array<{ owner_pid: number; owner_instance: string }>).map((row) => ({
      pid: row.owner_pid,
      instance: row.owner_instance,
    }));
  }

  pendingOwnedBy(instance: string): string[] {
    return (this.#statements.ownedPending.all(instance) as Array<{ id: string }>).map((row) => row.id);
  }

  /**
   * Forget the content of a person-only answer (the action, who and when stay). True when there
   * was content to forget. Call `compact()` after, so no old copy stays in the WAL.
   */
  forgetPersonOnlyContent(id: string): boolean {
    return this.#statements.forgetContent.run(id).changes > 0;
  }

  /** Record that the answer was handed to the upstream. True the first time. */
  markDelivered(id: string, now = Date.now()): boolean {
    return this.#statements.delivered.run(now, id).changes > 0;
  }

  /** Person-only answers whose content is still stored (not yet delivered), with who waits on them. */
  heldSecrets(): Array<{ id: string; pid: number; instance: string }> {
    return (this.#statements.heldSecrets.all() as Array<{ id: string; owner_pid: number; owner_instance: string }>).map((row) => ({
      id: row.id,
      pid: row.owner_pid,
      instance: row.owner_instance,
    }));
  }

  /**
   * Move every page from the WAL into the file and empty the WAL, so what was deleted (and zeroed
   * by secure_delete) has no older copy left on disk. False when a reader in another process kept
   * it from finishing; the caller tries again later.
   */
  compact(): boolean {
    try {
      const [row] = this.#db.pragma("wal_checkpoint(TRUNCATE)") as Array<{ busy: number }>;
      return row?.busy === 0;
    } catch (error) {
      if (String((error as { code?: string }).code).startsWith("SQLITE_BUSY")) return false;
      throw error;
    }
  }

  /** How many of `server`'s stored questions no host or `mcpx call` could be proven to own. */
  unattributedFrom(server: string): number {
    return (this.#statements.unattributed.get(server) as { n: number }).n;
  }

  /** Remove settled questions created before `beforeMs`. */
  prune(beforeMs: number): number {
    return this.#statements.prune.run(beforeMs).changes;
  }

  /** SQLite's data_version for this connection: it moves whenever another connection commits. */
  dataVersion(): number {
    return this.#db.pragma("data_version", { simple: true }) as number;
  }

  /** True when another connection has written since the last call (cheap: no table read). */
  changed(): boolean {
    const version = this.dataVersion();
    const changed = version !== this.#dataVersion;
    this.#dataVersion = version;
    return changed;
  }
}

/**
 * The SQLite store: one file in the state directory, shared by every mcpx process of the user
 * (the default, one machine). WAL mode so readers never block the writer; the file is private
 * (0600). `secure_delete` zeroes what is deleted, and a checkpoint after forgetting a secret
 * moves the zeroed pages into the file and empties the WAL, so deleted bytes leave the disk too.
 *
 * better-sqlite3 answers synchronously: each method's work is done before it returns its
 * (settled) promise, so the asynchronous interface costs a microtask, not a round trip.
 */
import type Database from "better-sqlite3";
import { closeSync, existsSync, openSync } from "node:fs";
import { join } from "node:path";
import { GatewayError } from "../../protocol/errors.js";
import { ensurePrivateDir, ensurePrivateFile } from "../state-dir.js";
import type { BrokerStore, SharedSecrets } from "../store-api.js";
import { SqliteAuditTable } from "./audit-table.js";
import { SqliteCallTable } from "./call-table.js";
import { ChangePoller } from "./change-poller.js";
import { fileSecrets } from "./file-secrets.js";
import { nativeModuleProblem } from "./native-module.js";
import { openDatabase } from "./open-database.js";
import { SqlitePageCodeTable } from "./page-code-table.js";
import { SqlitePageSessionTable } from "./page-session-table.js";
import { processLiveness } from "./process-liveness.js";
import { SqliteQuestionTable } from "./question-table.js";
import { SqliteTaskTable } from "./task-table.js";

export const STORE_FILE = "mcpx.db";

/** How long a readiness probe waits for another process's write lock. */
const PROBE_BUSY_MS = 1_000;

export class SqliteStore implements BrokerStore {
  readonly #db: Database.Database;
  readonly #changes: ChangePoller;
  readonly questions: SqliteQuestionTable;
  readonly calls: SqliteCallTable;
  readonly tasks: SqliteTaskTable;
  readonly audit: SqliteAuditTable;
  readonly usedPageCodes: SqlitePageCodeTable;
  readonly pageSessions: SqlitePageSessionTable;
  readonly liveness = processLiveness;
  readonly secrets: SharedSecrets;

  private constructor(
    /** The file's path. */
    readonly where: string,
    readonly stateDir: string,
    db: Database.Database,
  ) {
    this.#db = db;
    this.#changes = new ChangePoller(db);
    this.questions = new SqliteQuestionTable(db);
    this.calls = new SqliteCallTable(db);
    this.tasks = new SqliteTaskTable(db);
    this.audit = new SqliteAuditTable(db);
    this.usedPageCodes = new SqlitePageCodeTable(db);
    this.pageSessions = new SqlitePageSessionTable(db);
    this.secrets = fileSecrets(stateDir);
  }

  /** Open (creating if needed) the store in `dir`. Fails with a clear message, never mid-call. */
  static open(dir: string): SqliteStore {
    ensurePrivateDir(dir);
    const path = join(dir, STORE_FILE);
    // SQLite creates the -wal and -shm with the main file's mode; ones left from before may not be.
    for (const file of [path, `${path}-wal`, `${path}-shm`]) ensurePrivateFile(file);
    try {
      if (!existsSync(path)) closeSync(openSync(path, "a", 0o600));
      return new SqliteStore(path, dir, openDatabase(path));
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

  get open(): boolean {
    return this.#db.open;
  }

  async close(): Promise<void> {
    // Entries still waiting for their turn are written before the file closes.
    if (this.#db.open) this.audit.flush();
    this.#changes.stop();
    this.#db.close();
  }

  async unwritable(): Promise<string | undefined> {
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

  onChange(listener: () => void): () => void {
    return this.#changes.listen(listener);
  }

  /**
   * Move every page from the WAL into the file and empty the WAL, so what was deleted (and zeroed
   * by secure_delete) has no older copy left on disk. False when a reader in another process kept
   * it from finishing; the caller tries again later.
   */
  async compact(): Promise<boolean> {
    try {
      const [row] = this.#db.pragma("wal_checkpoint(TRUNCATE)") as Array<{ busy: number }>;
      return row?.busy === 0;
    } catch (error) {
      if (String((error as { code?: string }).code).startsWith("SQLITE_BUSY")) return false;
      throw error;
    }
  }
}

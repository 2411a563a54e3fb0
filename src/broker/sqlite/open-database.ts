/**
 * Opening the store's SQLite file, which other mcpx processes may be opening at the same
 * moment: WAL so readers never block the writer (synchronous NORMAL, so commits do not wait
 * for the disk), `secure_delete` so deleted bytes are zeroed,
 * an integrity check, and the schema brought up to date (MIGRATIONS), each step retried while
 * another process holds the lock it needs.
 */
import Database from "better-sqlite3";
import { MIGRATIONS } from "./migrations.js";

/** Open the file at `path` (which must exist) ready for use; throws when it cannot be used. */
export function openDatabase(path: string): Database.Database {
  const db = new Database(path, { timeout: 5_000 });
  whileBusy(() => db.pragma("journal_mode = WAL"));
  db.pragma("foreign_keys = ON");
  db.pragma("secure_delete = ON"); // per connection: every process that writes sets it
  // In WAL mode NORMAL syncs at checkpoints, not at every commit: still consistent after any
  // crash, and only a power loss may take back the last commits. FULL cost a disk flush for
  // each of a question's writes (opened, answered, delivered).
  db.pragma("synchronous = NORMAL");
  const check = whileBusy(() => db.pragma("quick_check", { simple: true }));
  if (check !== "ok") throw new Error(`integrity check failed: ${String(check)}`);
  whileBusy(() => migrate(db));
  return db;
}

/**
 * Run `step`, retrying while another process holds the lock it needs. SQLite does not always
 * wait for itself: switching a fresh file to WAL while another connection does the same fails
 * at once with SQLITE_BUSY, whatever the busy timeout.
 */
function whileBusy<T>(step: () => T): T {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let attempt = 0; ; attempt++) {
    try {
      return step();
    } catch (error) {
      const code = (error as { code?: string }).code ?? "";
      if (!code.startsWith("SQLITE_BUSY") || attempt >= 50) throw error;
      Atomics.wait(pause, 0, 0, 10 + attempt * 10); // opening is synchronous; so is this short wait
    }
  }
}

function migrate(db: Database.Database): void {
  const version = db.pragma("user_version", { simple: true }) as number;
  if (version > MIGRATIONS.length) {
    throw new Error(`it was written by a newer mcpx (schema ${version}; this mcpx knows ${MIGRATIONS.length})`);
  }
  if (version === MIGRATIONS.length) return;
  // Re-read the version under the write lock: another process opening the same fresh store
  // at the same moment may have run this migration while we waited for the lock.
  const step = db.transaction((): boolean => {
    const current = db.pragma("user_version", { simple: true }) as number;
    if (current >= MIGRATIONS.length) return false;
    db.exec(MIGRATIONS[current]!);
    db.pragma(`user_version = ${current + 1}`);
    return true;
  });
  while (step.immediate());
}

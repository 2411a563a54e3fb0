/**
 * The web page's tab credentials, by digest: whose each is and until when. Every process on the
 * state dir reads the same rows, so a tab stays signed in whichever of them serves its port.
 */
import type Database from "better-sqlite3";
import type { PageSessionLimits, PageSessionTable } from "../store-api.js";

export class SqlitePageSessionTable implements PageSessionTable {
  readonly #open;
  readonly #identityOf;
  readonly #clear;

  constructor(db: Database.Database) {
    const forgetExpired = db.prepare(`DELETE FROM page_sessions WHERE expires_ms <= ?`);
    const countOwn = db.prepare(`SELECT COUNT(*) AS n FROM page_sessions WHERE identity = ?`);
    const dropOwnOldest = db.prepare(
      `DELETE FROM page_sessions WHERE digest = (SELECT digest FROM page_sessions WHERE identity = ? ORDER BY expires_ms, rowid LIMIT 1)`,
    );
    const countAll = db.prepare(`SELECT COUNT(*) AS n FROM page_sessions`);
    const dropOldest = db.prepare(`DELETE FROM page_sessions WHERE digest = (SELECT digest FROM page_sessions ORDER BY expires_ms, rowid LIMIT 1)`);
    const insert = db.prepare(`INSERT OR REPLACE INTO page_sessions (digest, identity, expires_ms) VALUES (?, ?, ?)`);
    const count = (statement: Database.Statement, ...args: unknown[]): number => (statement.get(...args) as { n: number }).n;
    // One transaction: the bounds hold whichever processes sign tabs in at once.
    this.#open = db.transaction((digest: string, identity: string, expiresMs: number, limits: PageSessionLimits, now: number): void => {
      forgetExpired.run(now);
      while (count(countOwn, identity) >= limits.perIdentity) dropOwnOldest.run(identity);
      while (count(countAll) >= limits.total) dropOldest.run();
      insert.run(digest, identity, expiresMs);
    });
    this.#identityOf = db.prepare(`SELECT identity FROM page_sessions WHERE digest = ? AND expires_ms > ?`);
    this.#clear = db.prepare(`DELETE FROM page_sessions`);
  }

  async open(digest: string, identity: string, expiresMs: number, limits: PageSessionLimits, now: number = Date.now()): Promise<void> {
    this.#open(digest, identity, expiresMs, limits, now);
  }

  async identityOf(digest: string, now: number = Date.now()): Promise<string | undefined> {
    return (this.#identityOf.get(digest, now) as { identity: string } | undefined)?.identity;
  }

  async clear(): Promise<void> {
    this.#clear.run();
  }
}

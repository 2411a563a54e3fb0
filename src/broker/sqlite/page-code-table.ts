/**
 * The web page's one-time codes already used, kept until they would have expired anyway: a
 * code is taken once by whichever process on this state dir gets it first, and a restarted one
 * knows it was used (issue 13: in memory, a quick restart forgot them).
 */
import type Database from "better-sqlite3";
import type { PageCodeTable } from "../store-api.js";

export class SqlitePageCodeTable implements PageCodeTable {
  readonly #forgetExpired;
  readonly #take;
  readonly #count;
  readonly #claim;

  constructor(db: Database.Database) {
    this.#forgetExpired = db.prepare(`DELETE FROM used_page_codes WHERE expires_ms <= ?`);
    this.#take = db.prepare(`INSERT OR IGNORE INTO used_page_codes (nonce, expires_ms) VALUES (?, ?)`);
    this.#count = db.prepare(`SELECT COUNT(*) AS n FROM used_page_codes`);
    // One transaction: the forgetting and the taking are seen together by other processes.
    this.#claim = db.transaction((nonce: string, expiresMs: number, now: number): boolean => {
      this.#forgetExpired.run(now);
      return this.#take.run(nonce, expiresMs).changes === 1;
    });
  }

  async claim(nonce: string, expiresMs: number, now: number = Date.now()): Promise<boolean> {
    return this.#claim(nonce, expiresMs, now);
  }

  async count(): Promise<number> {
    return (this.#count.get() as { n: number }).n;
  }
}

/**
 * The web page's one-time codes already used, kept in the store until they would have expired
 * anyway: a code is taken once by whichever instance on this state dir gets it first, and a
 * restarted instance knows it was used (issue 13: in memory, a quick restart forgot them).
 */
import type Database from "better-sqlite3";

export class UsedPageCodes {
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

  /** True the first time `nonce` is claimed (on any instance), until `expiresMs`. */
  claim(nonce: string, expiresMs: number, now: number = Date.now()): boolean {
    return this.#claim(nonce, expiresMs, now);
  }

  /** How many are kept (bounded by the codes that could still be used). */
  count(): number {
    return (this.#count.get() as { n: number }).n;
  }
}

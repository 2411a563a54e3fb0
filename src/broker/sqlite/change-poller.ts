/**
 * How the SQLite store hears other processes' writes: its connection's `data_version` moves
 * whenever another connection commits (its own writes do not move it), so one cheap pragma per
 * tick tells whether anything needs reading again. The poller runs only while someone listens.
 */
import type Database from "better-sqlite3";

/** Often enough that an answer or a delivery written by another process is seen within a blink; a pragma costs microseconds. */
const POLL_MS = 25;

export class ChangePoller {
  readonly #listeners = new Set<() => void>();
  #timer: NodeJS.Timeout | undefined;
  #seen = -1;

  constructor(
    private readonly db: Database.Database,
    private readonly pollMs = POLL_MS,
  ) {}

  listen(listener: () => void): () => void {
    // A fresh listener is told only of writes made after it came.
    if (this.#listeners.size === 0) this.#seen = this.#version();
    this.#listeners.add(listener);
    if (!this.#timer) {
      this.#timer = setInterval(() => this.#tick(), this.pollMs);
      this.#timer.unref();
    }
    return () => {
      this.#listeners.delete(listener);
      if (this.#listeners.size === 0) this.stop();
    };
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #version(): number {
    return this.db.open ? (this.db.pragma("data_version", { simple: true }) as number) : this.#seen;
  }

  #tick(): void {
    const version = this.#version();
    if (version === this.#seen) return;
    this.#seen = version;
    for (const listener of [...this.#listeners]) listener();
  }
}

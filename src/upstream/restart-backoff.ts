/**
 * When an upstream that failed or crashed is started again: after a delay that doubles with
 * each attempt in a row up to 30 s, and quickly again once it had stayed up a while, so that a
 * server crashing in a loop is not hammered and one that crashes rarely is back at once.
 */
import type { Logger } from "../util/log.js";
import { sleep } from "../util/sleep.js";

const BACKOFF_MS = [1_000, 2_000, 4_000, 8_000, 16_000, 30_000];
/** An upstream that stayed up this long is healthy again: its next crash restarts quickly. */
const STABLE_MS = 10_000;

export class RestartBackoff {
  #attempt = 0;
  #readyAt = 0;
  /** When the next start attempt is due (epoch ms), while one is scheduled. */
  retryAt: number | undefined;

  ready(): void {
    this.#readyAt = Date.now();
  }

  /** It went away after being ready: if it had been up long enough, its backoff starts over. */
  lost(): void {
    if (Date.now() - this.#readyAt >= STABLE_MS) this.#attempt = 0;
  }

  /** Run `restart` after the next delay (sooner when `signal` aborts: `restart` checks for that). */
  schedule(signal: AbortSignal, log: Logger, restart: () => Promise<void> | undefined): void {
    const delay = BACKOFF_MS[Math.min(this.#attempt, BACKOFF_MS.length - 1)] ?? 30_000;
    this.#attempt++;
    this.retryAt = Date.now() + delay;
    log.info("restarting upstream", { inMs: delay });
    void sleep(delay, signal).then(() => {
      this.retryAt = undefined;
      return restart();
    });
  }
}

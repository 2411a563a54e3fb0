/**
 * Noticing what other processes write. An answer given on another process's surface, or that
 * process's delivery of one, reaches this process only through the store, so whoever waits
 * here watches it: cheaply, by SQLite's data_version, which moves when another connection
 * commits, so rows are read again only then.
 */
import { sleep } from "../util/sleep.js";
import { type Delivery, deliveryOf } from "./delivery.js";
import { BrokerError } from "./errors.js";
import type { QuestionStore } from "./store.js";
import type { QuestionRecord } from "./types.js";

const POLL_MS = 100;
/** How long an answering surface waits for the waiting process to confirm delivery, and how often it looks. */
const DELIVERY_WAIT_MS = 2_500;
const DELIVERY_POLL_MS = 25;

type Waiter = (record: QuestionRecord) => void;

/**
 * Who in this process waits for which question to settle. While anyone does, a poller looks
 * for settlements written by other processes and reports each (`settledElsewhere`).
 */
export class Waiters {
  readonly #waiting = new Map<string, Set<Waiter>>();
  #poller: NodeJS.Timeout | undefined;
  /** The store's data_version when the poller last looked (its own: others may poll `changed()`). */
  #seenVersion = -1;

  constructor(
    private readonly store: QuestionStore,
    private readonly settledElsewhere: (id: string) => void,
  ) {}

  add(id: string, waiter: Waiter): void {
    let waiters = this.#waiting.get(id);
    if (!waiters) this.#waiting.set(id, (waiters = new Set()));
    waiters.add(waiter);
    this.#poll();
  }

  /** Someone in this process waits for this question. */
  has(id: string): boolean {
    return this.#waiting.has(id);
  }

  /** Hand the settled record to everyone waiting on it; they are waiting no more. */
  release(id: string, record: QuestionRecord): void {
    const waiters = this.#waiting.get(id);
    this.#waiting.delete(id);
    for (const waiter of waiters ?? []) waiter(record);
  }

  stop(): void {
    clearInterval(this.#poller);
    this.#poller = undefined;
  }

  #poll(): void {
    if (this.#poller) return;
    this.#poller = setInterval(() => {
      if (this.#waiting.size === 0) {
        this.stop();
        return;
      }
      const version = this.store.dataVersion();
      if (version === this.#seenVersion) return;
      this.#seenVersion = version;
      for (const id of [...this.#waiting.keys()]) {
        const record = this.store.get(id);
        if (record?.state !== "pending") this.settledElsewhere(id);
      }
    }, POLL_MS);
    this.#poller.unref();
  }
}

/**
 * Resolve with the URL question's record once its interaction is finished (`completion`), or
 * it was settled other than by accept, or `untilMs` (epoch) passed, or `signal` aborted:
 * the caller reads which from the record. Sees other processes' writes within a poll.
 */
export async function watchFinish(store: QuestionStore, id: string, untilMs: number, signal?: AbortSignal): Promise<QuestionRecord> {
  for (;;) {
    const record = store.get(id);
    if (!record) throw new BrokerError("UNKNOWN_QUESTION", `no question with id ${id}`);
    const refused = record.state !== "pending" && record.answer?.action !== "accept";
    if (record.completion || refused || Date.now() >= untilMs || signal?.aborted) return record;
    // Expiry of a pending one is the waiting process's timer; the rest is a store write, seen by polling.
    await idle(Math.min(POLL_MS, Math.max(1, untilMs - Date.now())), signal);
  }
}

/**
 * Wait (at most `timeoutMs`) until the process waiting on this settled question has handed
 * its answer over, or can no longer: the record then says `delivered` or `undeliverable`
 * (`deliveryOf`). Still `pending` at the deadline means that process is alive but has not
 * confirmed yet (busy, or stopped). `instance` is the broker watching.
 */
export async function watchDelivery(
  store: QuestionStore,
  instance: string,
  id: string,
  timeoutMs = DELIVERY_WAIT_MS,
): Promise<{ record: QuestionRecord; delivery: Delivery }> {
  const deadline = Date.now() + timeoutMs;
  let seen = -1;
  let record = store.get(id);
  for (;;) {
    if (!record) throw new BrokerError("UNKNOWN_QUESTION", `no question with id ${id}`);
    const delivery = deliveryOf(record) ?? "pending";
    if (delivery !== "pending" || Date.now() >= deadline) return { record, delivery };
    await sleep(DELIVERY_POLL_MS);
    // This process's own writes do not move data_version: when it is the waiting one, look anyway.
    const version = store.dataVersion();
    if (version !== seen || record.ownerInstance === instance) record = store.get(id);
    seen = version;
  }
}

/** Like `sleep`, but it does not keep the process alive: a watch must not hold up exiting. */
function idle(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    timer.unref();
    signal?.addEventListener("abort", done, { once: true });
  });
}

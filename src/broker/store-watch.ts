/**
 * Noticing what other processes write. An answer given on another process's (or instance's)
 * surface, or that process's delivery of one, reaches this process only through the store, so
 * whoever waits here listens to `store.onChange` (SQLite: its data_version, polled while someone
 * listens; Redis: pub/sub) and reads rows again only when it fires. This process's own writes
 * are heard from its broker (`LocalChanges`), since a store need not report them.
 */
import { coalesced } from "../util/coalesce.js";
import { type Delivery, deliveryOf } from "./delivery.js";
import { BrokerError } from "./errors.js";
import { RIDE_OUT_MS, rideOut, storeAway } from "./ride-out.js";
import type { BrokerStore } from "./store-api.js";
import type { QuestionRecord } from "./types.js";

/** How long an answering surface waits for the waiting process to confirm delivery. */
const DELIVERY_WAIT_MS = 2_500;
/** A waiting process that dies writes nothing: how often its liveness is looked at meanwhile. */
const LIVENESS_LOOK_MS = 100;
/** A look that failed because the store was away is tried again, after this pause growing to the longest. */
const LOOK_AGAIN_MS = 100;
const LOOK_AGAIN_LONGEST_MS = 1_000;

/** Someone waiting for a question to settle: handed the settled record, or the error that ended the wait. */
export interface Waiter {
  settled(record: QuestionRecord): void;
  failed(error: unknown): void;
}

/** Be told (with its id) when this process's broker changed a question: settled, completed, delivered. */
export type LocalChanges = (listener: (id: string) => void) => () => void;

/**
 * Who in this process waits for which question to settle. While anyone does, the store's
 * changes are listened to, and each waited question that another process settled is reported
 * (`settledElsewhere`). A look that fails because the store is away is tried again until one
 * succeeds (or nobody waits any more): a change heard just as the store came back is not lost.
 */
export class Waiters {
  readonly #waiting = new Map<string, Set<Waiter>>();
  #unlisten: (() => void) | undefined;
  readonly #look: () => void;
  #lookAgain: NodeJS.Timeout | undefined;
  #pause = LOOK_AGAIN_MS;

  constructor(
    private readonly store: BrokerStore,
    private readonly settledElsewhere: (id: string) => Promise<unknown>,
    onError: (error: unknown) => void,
  ) {
    this.#look = coalesced(
      () => this.#lookOnce(),
      (error) => {
        onError(error);
        if (storeAway(error)) this.#lookLater();
      },
    );
  }

  add(id: string, waiter: Waiter): void {
    let waiters = this.#waiting.get(id);
    if (!waiters) this.#waiting.set(id, (waiters = new Set()));
    waiters.add(waiter);
    this.#unlisten ??= this.store.onChange(() => this.#look());
  }

  /** Someone in this process waits for this question. */
  has(id: string): boolean {
    return this.#waiting.has(id);
  }

  /** Hand the settled record to everyone waiting on it; they are waiting no more. */
  release(id: string, record: QuestionRecord): void {
    const waiters = this.#waiting.get(id);
    this.#waiting.delete(id);
    for (const waiter of waiters ?? []) waiter.settled(record);
    if (this.#waiting.size === 0) this.stop();
  }

  /** End everyone's wait on this question with `error` (the store stayed away past its bound). */
  fail(id: string, error: unknown): void {
    const waiters = this.#waiting.get(id);
    this.#waiting.delete(id);
    for (const waiter of waiters ?? []) waiter.failed(error);
    if (this.#waiting.size === 0) this.stop();
  }

  /** This waiter waits no more (the question was not there after all). */
  forget(id: string, waiter: Waiter): void {
    const waiters = this.#waiting.get(id);
    waiters?.delete(waiter);
    if (waiters?.size === 0) this.#waiting.delete(id);
    if (this.#waiting.size === 0) this.stop();
  }

  stop(): void {
    this.#unlisten?.();
    this.#unlisten = undefined;
    clearTimeout(this.#lookAgain);
    this.#lookAgain = undefined;
  }

  #lookLater(): void {
    if (this.#lookAgain !== undefined || this.#waiting.size === 0 || !this.store.open) return;
    this.#lookAgain = setTimeout(() => {
      this.#lookAgain = undefined;
      this.#look();
    }, this.#pause);
    this.#lookAgain.unref();
    this.#pause = Math.min(this.#pause * 2, LOOK_AGAIN_LONGEST_MS);
  }

  async #lookOnce(): Promise<void> {
    if (!this.store.open) return;
    for (const id of [...this.#waiting.keys()]) {
      const record = await this.store.questions.get(id);
      if (record?.state !== "pending" && this.#waiting.has(id)) await this.settledElsewhere(id);
    }
    this.#pause = LOOK_AGAIN_MS;
  }
}

/**
 * A change heard from the store or from this process's broker, as something to await: `next`
 * resolves at the first change since the last `next` (or since `watching` began), at `untilMs`,
 * or when `signal` aborts. End it with `stop`.
 */
class Watch {
  #changed = false;
  #wake: (() => void) | undefined;
  readonly #stops: Array<() => void>;

  constructor(store: BrokerStore, local: LocalChanges, id: string) {
    const heard = (): void => {
      this.#changed = true;
      this.#wake?.();
    };
    this.#stops = [store.onChange(heard), local((changed) => changed === id && heard())];
  }

  /** `holdOpen`: the process stays up for it (an answering command waits for delivery, bounded); else it does not. */
  next(untilMs: number, options: { signal?: AbortSignal; holdOpen?: boolean } = {}): Promise<void> {
    const { signal } = options;
    if (this.#changed || signal?.aborted) {
      this.#changed = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", done);
        this.#wake = undefined;
        this.#changed = false;
        resolve();
      };
      const timer = setTimeout(done, Math.max(1, untilMs - Date.now()));
      // A watch of a URL question's end must not hold up exiting; a wait for delivery must.
      if (!options.holdOpen) timer.unref();
      signal?.addEventListener("abort", done, { once: true });
      this.#wake = done;
    });
  }

  stop(): void {
    for (const stop of this.#stops) stop();
  }
}

/**
 * Resolve with the URL question's record once its interaction is finished (`completion`), or
 * it was settled other than by accept, or `untilMs` (epoch) passed, or `signal` aborted:
 * the caller reads which from the record. Hears other processes' writes through the store; a
 * store away a while is ridden out (`rideOut`) until `untilMs`.
 */
export async function watchFinish(store: BrokerStore, local: LocalChanges, id: string, untilMs: number, signal?: AbortSignal): Promise<QuestionRecord> {
  const watch = new Watch(store, local, id);
  try {
    for (;;) {
      // A look when the store is away (a change heard as Redis comes back) is tried again, within the question's deadline.
      const record = await rideOut(store, Math.min(untilMs, Date.now() + RIDE_OUT_MS), () => store.questions.get(id));
      if (!record) throw new BrokerError("UNKNOWN_QUESTION", `no question with id ${id}`);
      const refused = record.state !== "pending" && record.answer?.action !== "accept";
      if (record.completion || refused || Date.now() >= untilMs || signal?.aborted) return record;
      // Expiry of a pending one is the waiting process's timer; the rest is a store write.
      await watch.next(untilMs, signal ? { signal } : {});
    }
  } finally {
    watch.stop();
  }
}

/**
 * Wait (at most `timeoutMs`) until the process waiting on this settled question has handed
 * its answer over, or can no longer: the record then says `delivered` or `undeliverable`
 * (`deliveryOf`, with the store's liveness). Still `pending` at the deadline means that process
 * is alive but has not confirmed yet (busy, or stopped).
 */
export async function watchDelivery(
  store: BrokerStore,
  local: LocalChanges,
  id: string,
  timeoutMs = DELIVERY_WAIT_MS,
): Promise<{ record: QuestionRecord; delivery: Delivery }> {
  const deadline = Date.now() + timeoutMs;
  const watch = new Watch(store, local, id);
  try {
    for (;;) {
      const record = await store.questions.get(id);
      if (!record) throw new BrokerError("UNKNOWN_QUESTION", `no question with id ${id}`);
      const alive = record.state === "pending" || record.deliveredAt !== undefined || (await store.liveness.alive(ownerOf(record)));
      const delivery = deliveryOf(record, () => alive) ?? "pending";
      if (delivery !== "pending" || Date.now() >= deadline) return { record, delivery };
      await watch.next(Math.min(deadline, Date.now() + LIVENESS_LOOK_MS), { holdOpen: true });
    }
  } finally {
    watch.stop();
  }
}

export function ownerOf(record: QuestionRecord): { pid: number; instance: string } {
  return { pid: record.ownerPid, instance: record.ownerInstance };
}

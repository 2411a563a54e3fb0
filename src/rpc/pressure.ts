/**
 * Backpressure from the side that messages flow to, for the readers of the side they come
 * from: while the host cannot take more, upstream readers stop reading (their peer then waits
 * on its own full pipe or socket) instead of mcpx buffering what they send.
 */
export class Pressure {
  #blocked = false;
  readonly #listeners = new Set<(blocked: boolean) => void>();
  #waiters: Array<() => void> = [];

  get blocked(): boolean {
    return this.#blocked;
  }

  set(blocked: boolean): void {
    if (this.#blocked === blocked) return;
    this.#blocked = blocked;
    for (const listener of this.#listeners) listener(blocked);
    if (!blocked) for (const wake of [...this.#waiters]) wake();
  }

  /** Called with every change; returns the unsubscribe. */
  subscribe(listener: (blocked: boolean) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Resolves at once when not blocked, else when the block lifts or `signal` aborts. */
  clear(signal?: AbortSignal): Promise<void> {
    if (!this.#blocked || signal?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        signal?.removeEventListener("abort", done);
        this.#waiters = this.#waiters.filter((waiter) => waiter !== done);
        resolve();
      };
      this.#waiters.push(done);
      signal?.addEventListener("abort", done, { once: true });
    });
  }
}

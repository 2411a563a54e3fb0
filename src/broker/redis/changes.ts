/**
 * Hearing what other instances write: every write that another instance must hear (questions,
 * answers, deliveries, calls, tasks) publishes on the channel `changed` from inside its script,
 * and each store listens on a connection of its own (a subscribed connection can do nothing
 * else). Subscribed from the store's opening, so nothing written after it is missed; after a
 * lost connection the listeners hear once that something may have changed meanwhile, when the
 * subscription is back (so a write they then miss on reading is heard as its own message).
 */
import type { Redis } from "ioredis";

export class ChangeFeed {
  readonly #listeners = new Set<() => void>();
  #lost = false;

  private constructor(
    readonly subscriber: Redis,
    channel: string,
  ) {
    subscriber.on("message", () => this.#tell());
    subscriber.on("close", () => {
      this.#lost = true;
    });
    // ioredis subscribes again by itself once back (autoResubscribe), but says "ready" before Redis
    // has confirmed it; what was said meanwhile is lost. Subscribing once more (harmless) waits
    // for the confirmation: a write after it is heard, one before it is found by the listeners' look.
    subscriber.on("ready", () => {
      if (!this.#lost) return;
      this.#lost = false;
      subscriber.subscribe(channel).then(
        () => this.#tell(),
        // Lost again before the confirmation: the next "ready" tells.
        () => {},
      );
    });
  }

  static async open(subscriber: Redis, channel: string): Promise<ChangeFeed> {
    const feed = new ChangeFeed(subscriber, channel);
    await subscriber.subscribe(channel);
    return feed;
  }

  listen(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  #tell(): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener();
      } catch {
        // One listener's failure is its own; the others still hear.
      }
    }
  }
}

/**
 * Riding out a store that is away for a while (Redis restarting): a step of a call that already
 * waits for its answer is tried again, with growing pauses, instead of ending the call at the
 * first STORE_UNAVAILABLE. A new question is not ridden out (its host hears "cannot store" at
 * once, from the store itself); every ride ends by a bound, and then the step's last error is
 * what the caller hears. A store that answers at once (SQLite) never throws STORE_UNAVAILABLE
 * once open, so nothing here changes for it.
 */
import { GatewayError } from "../protocol/errors.js";
import type { BrokerStore } from "./store-api.js";

/** The longest a waiting call's step keeps trying while the store is away (a Redis restart with its AOF takes seconds). */
export const RIDE_OUT_MS = 30_000;

/** The first pause between two tries, and the longest. */
const FIRST_PAUSE_MS = 50;
const LONGEST_PAUSE_MS = 1_000;

/** The store could not be reached (as opposed to what the caller asked being refused). */
export function storeAway(error: unknown): boolean {
  return error instanceof GatewayError && error.code === "STORE_UNAVAILABLE";
}

/**
 * `step`, tried again while it fails because the store is away and the store is still open,
 * the last time at `untilMs` (epoch): then it throws the step's last error.
 */
export async function rideOut<T>(store: BrokerStore, untilMs: number, step: () => Promise<T>): Promise<T> {
  let pause = FIRST_PAUSE_MS;
  for (;;) {
    try {
      return await step();
    } catch (error) {
      const left = untilMs - Date.now();
      if (!storeAway(error) || !store.open || left <= 0) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.min(pause, left)));
    }
    pause = Math.min(pause * 2, LONGEST_PAUSE_MS);
  }
}

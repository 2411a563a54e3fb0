/**
 * Host calls that were answered `-32042` while their work goes on upstream, waiting for the
 * host to retry them (design rule 7, as a server). A retry is the same request from the same
 * host session: the same method and the same params, `_meta` aside (a retry may carry a new
 * progress token). Another session's identical call is a call of its own (design rule 5).
 */
import type { JsonObject } from "../protocol/jsonrpc.js";
import type { ForwardedCall } from "./forwarded-call.js";
import type { HostSession } from "./session.js";

/** How long an outcome that came while the call was parked waits for the host's retry. */
const UNCLAIMED_MS = 10 * 60_000;

export class ParkedCalls {
  readonly #calls = new Map<string, { session: HostSession; call: ForwardedCall }>();

  park(session: HostSession, key: string, call: ForwardedCall): void {
    const slot = `${session.id}\u0000${key}`;
    this.#calls.get(slot)?.call.abort("a newer call of the same request took its place");
    this.#calls.set(slot, { session, call });
    // Done and never retried: let it go after a while.
    void call.outcome
      .catch(() => undefined)
      .then(() => {
        setTimeout(() => {
          if (this.#calls.get(slot)?.call === call) this.#calls.delete(slot);
        }, UNCLAIMED_MS).unref();
      });
  }

  /** The parked call this request retries, taken out (the retry now serves it). */
  take(session: HostSession, key: string): ForwardedCall | undefined {
    const slot = `${session.id}\u0000${key}`;
    const parked = this.#calls.get(slot);
    this.#calls.delete(slot);
    return parked?.call;
  }

  /** The host went away: its parked calls end (their questions close with them). */
  forget(session: HostSession): void {
    for (const [slot, parked] of this.#calls) {
      if (parked.session !== session) continue;
      this.#calls.delete(slot);
      parked.call.abort("the host that made the call went away");
    }
  }
}

/** What makes a request the same request again: its method and params, `_meta` aside, keys sorted. */
export function callKey(method: string, params: JsonObject): string {
  const { _meta: _ignored, ...rest } = params;
  return `${method} ${canonical(rest)}`;
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.keys(value as object)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(value);
}

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
  /** By session, so a session with nothing parked (nearly every call) costs no key at all. */
  readonly #bySession = new Map<HostSession, Map<string, ForwardedCall>>();

  park(session: HostSession, key: string, call: ForwardedCall): void {
    let calls = this.#bySession.get(session);
    if (!calls) this.#bySession.set(session, (calls = new Map()));
    calls.get(key)?.abort("a newer call of the same request took its place");
    calls.set(key, call);
    // Done and never retried: let it go after a while.
    void call.outcome
      .catch(() => undefined)
      .then(() => {
        setTimeout(() => {
          if (calls.get(key) === call) this.#remove(session, key);
        }, UNCLAIMED_MS).unref();
      });
  }

  /** The parked call this request retries, taken out (the retry now serves it). `key` is only computed when the session has one parked. */
  take(session: HostSession, key: () => string): ForwardedCall | undefined {
    const calls = this.#bySession.get(session);
    if (!calls) return undefined;
    const slot = key();
    const parked = calls.get(slot);
    if (parked) this.#remove(session, slot);
    return parked;
  }

  /** The host went away: its parked calls end (their questions close with them). */
  forget(session: HostSession): void {
    const calls = this.#bySession.get(session);
    this.#bySession.delete(session);
    for (const call of calls?.values() ?? []) call.abort("the host that made the call went away");
  }

  #remove(session: HostSession, key: string): void {
    const calls = this.#bySession.get(session);
    calls?.delete(key);
    if (calls?.size === 0) this.#bySession.delete(session);
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

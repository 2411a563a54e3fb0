/**
 * Sign-ins waiting for the authorization server's redirect, by their OAuth `state`: the
 * callback (`/oauth/callback` of `mcpx serve --http`, or a loopback listener) hands its query
 * here and the flow that sent the person away continues. A `state` is used once; an unknown
 * one is refused, which is the CSRF check RFC 6749 §10.12 asks for.
 */
import type { CallbackParams } from "./types.js";

interface Waiting {
  server: string;
  resolve(params: CallbackParams): void;
  reject(reason: Error): void;
}

export class PendingSignIns {
  readonly #byState = new Map<string, Waiting>();
  /** Told each time the last waiting sign-in ends (a loopback listener closes then). */
  onidle?: () => void;

  #delete(state: string): void {
    this.#byState.delete(state);
    if (this.#byState.size === 0) this.onidle?.();
  }

  /** Wait for the callback carrying `state`, until `signal` aborts (then it rejects). */
  expect(state: string, server: string, signal: AbortSignal): Promise<CallbackParams> {
    return new Promise((resolve, reject) => {
      const stop = (): void => {
        if (this.#byState.get(state)?.resolve === done) this.#delete(state);
        reject(signal.reason instanceof Error ? signal.reason : new Error("the sign-in was abandoned"));
      };
      const done = (params: CallbackParams): void => {
        signal.removeEventListener("abort", stop);
        resolve(params);
      };
      const abandon = (reason: Error): void => {
        signal.removeEventListener("abort", stop);
        reject(reason);
      };
      if (signal.aborted) return stop();
      signal.addEventListener("abort", stop, { once: true });
      this.#byState.set(state, { server, resolve: done, reject: abandon });
    });
  }

  /**
   * A callback arrived. Returns the server it finished a sign-in for, or undefined when its
   * `state` is unknown (already used, abandoned, or forged): nothing continues then.
   */
  arrive(params: CallbackParams): string | undefined {
    const state = params.get("state");
    const waiting = state === null ? undefined : this.#byState.get(state);
    if (!waiting || state === null) return undefined;
    waiting.resolve(params);
    this.#delete(state);
    return waiting.server;
  }

  /** Every sign-in still waiting ends with `reason` (the process is stopping). */
  abandonAll(reason: Error): void {
    const waiting = [...this.#byState.values()];
    this.#byState.clear();
    for (const sign of waiting) sign.reject(reason);
    if (waiting.length > 0) this.onidle?.();
  }

  get size(): number {
    return this.#byState.size;
  }
}

/**
 * What an upstream's start knows of the sign-in it waits for: a start refused for want of a
 * token ends at once and waits here for the person (no restart by backoff meanwhile); calls
 * that come in the meantime wait too, and each puts the sign-in question to its own host as
 * well (`asked`), since the question was raised before any call was there to carry it.
 */
export class SignInWait {
  #wait: { promise: Promise<void>; resolve(): void } | undefined;
  /** The `elicitationId` of the sign-in question in flight, if any. */
  asked: string | undefined;
  /** Why the sign-in a start attempt still in flight waited for ended without a token (that attempt's end says so). */
  failure: string | undefined;
  /** The server is down because its last sign-in ended without a token (a host may ask to try again). */
  failed = false;

  /** A start waits for a person to sign in. */
  get waiting(): boolean {
    return this.#wait !== undefined;
  }

  begin(): void {
    this.#wait ??= deferred();
    this.failed = false;
  }

  /** The sign-in ended (either way): whatever waited goes on. Whether anything was waiting. */
  end(): boolean {
    const wait = this.#wait;
    this.#wait = undefined;
    this.asked = undefined;
    wait?.resolve();
    return wait !== undefined;
  }

  /** Resolves when the sign-in ends, or rejects when the caller gives up first. */
  until(signal: AbortSignal | undefined): Promise<void> {
    const ended = this.#wait?.promise ?? Promise.resolve();
    if (!signal) return ended;
    return Promise.race([
      ended,
      new Promise<never>((_, reject) =>
        signal.aborted ? reject(signal.reason) : signal.addEventListener("abort", () => reject(signal.reason), { once: true }),
      ),
    ]);
  }
}

function deferred(): { promise: Promise<void>; resolve(): void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

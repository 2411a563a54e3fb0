/**
 * The serving gateway's search index, built off the event loop (discovery/index-async.ts): one
 * build at a time, for the newest catalogue. A build is keyed by what it indexes (the records
 * and server lines as JSON), so a catalogue rebuilt with the same tools reuses the index, and
 * asking for other tools gives up the build under way: whoever waited for it gets the newer
 * index instead, never a stale one.
 */
import { type AsyncBuildOptions, buildIndexAsync, type WorkerRequest } from "../../discovery/index-async.js";
import type { SearchIndex } from "../../discovery/search.js";
import { GatewayError } from "../../protocol/errors.js";

interface Build {
  key: string;
  /** What waiters get: this build's index, or the newer build's if this one is given up. */
  index: Promise<SearchIndex>;
  settle(index: SearchIndex | Promise<SearchIndex>): void;
  fail(error: unknown): void;
  abort: AbortController;
  /** Settles when the build's worker has ended. */
  ended: Promise<unknown>;
  superseded: boolean;
}

export class SearchIndexes {
  #current: Build | undefined;
  #stopped = false;

  constructor(private readonly options: Pick<AsyncBuildOptions, "onFallback" | "worker" | "timeoutMs"> = {}) {}

  /** The index of `input`; `key` is its identity (equal keys, equal indexes). */
  of(key: string, input: () => WorkerRequest["input"]): Promise<SearchIndex> {
    if (this.#stopped) return Promise.reject(stopped());
    if (this.#current?.key === key) return this.#current.index;
    const previous = this.#current;
    const build = this.#start(key, input());
    this.#current = build;
    if (previous) {
      previous.superseded = true;
      previous.abort.abort(new GatewayError("CANCELLED", "the catalogue changed"));
      previous.settle(build.index);
    }
    return build.index;
  }

  /** A build is under way (its worker has not ended). */
  get building(): boolean {
    return this.#building > 0;
  }
  #building = 0;

  /** Give up the build under way and wait for its worker to end; later asks are refused. */
  async stop(): Promise<void> {
    this.#stopped = true;
    const current = this.#current;
    if (!current) return;
    current.abort.abort(stopped());
    current.fail(stopped());
    await current.ended;
  }

  #start(key: string, input: WorkerRequest["input"]): Build {
    let settle!: Build["settle"];
    let fail!: Build["fail"];
    const index = new Promise<SearchIndex>((resolve, reject) => {
      settle = resolve;
      fail = reject;
    });
    // A waiter that has gone (a host that hung up) must not leave an unhandled rejection behind.
    index.catch(() => {});
    const abort = new AbortController();
    const build: Build = { key, index, settle, fail, abort, ended: Promise.resolve(), superseded: false };
    this.#building++;
    build.ended = buildIndexAsync(input, { ...this.options, signal: abort.signal })
      .then(
        (built) => {
          if (!build.superseded) settle(built);
        },
        (error: unknown) => {
          if (build.superseded) return;
          // Asked again, the same tools get a new build rather than this failure forever.
          if (this.#current === build) this.#current = undefined;
          fail(error);
        },
      )
      .finally(() => this.#building--);
    return build;
  }
}

function stopped(): GatewayError {
  return new GatewayError("CONNECTION_CLOSED", "the gateway is stopping");
}

/**
 * `buildIndex` off the event loop: on a worker thread (index-worker.ts), bounded in time,
 * abandoned on request. A build that fails or runs out of time is made again without WordNet
 * (`lexicon: null`: names and text still rank, about a tenth of the time), so search still
 * answers; only if no worker can run at all is that one built here, on the caller's thread.
 */
import { Worker } from "node:worker_threads";
import type { SearchIndex } from "./search.js";
import { buildIndex, type IndexInput } from "./search-build.js";

/** What a worker is given: plain data, cloned to it. */
export interface WorkerRequest {
  input: Pick<IndexInput, "tools" | "serverDescriptions">;
  withoutLexicon: boolean;
}

export interface AsyncBuildOptions {
  /** Aborting terminates the worker; the promise then rejects with the signal's reason. */
  signal?: AbortSignal;
  /** A worker running longer is terminated (default 30 s). */
  timeoutMs?: number;
  /** Told when the index is made without WordNet, and why. */
  onFallback?: (reason: string) => void;
  /** The worker's module: index-worker.js beside this one unless said. */
  worker?: URL;
}

export const BUILD_TIMEOUT_MS = 30_000;

/**
 * The index of `input`, built on a worker thread. Settles only once the worker has ended, so
 * nothing of a build outlives its promise.
 */
export async function buildIndexAsync(input: WorkerRequest["input"], options: AsyncBuildOptions = {}): Promise<SearchIndex> {
  const worker = options.worker ?? new URL("./index-worker.js", import.meta.url);
  try {
    return await inWorker(worker, { input, withoutLexicon: false }, options);
  } catch (error) {
    if (options.signal?.aborted) throw error;
    options.onFallback?.(`building the search index with WordNet failed (${message(error)}); searching without related words`);
  }
  try {
    return await inWorker(worker, { input, withoutLexicon: true }, options);
  } catch (error) {
    if (options.signal?.aborted) throw error;
    options.onFallback?.(`no worker thread could build the search index (${message(error)}); building it without related words here`);
  }
  return buildIndex({ ...input, lexicon: null });
}

function inWorker(url: URL, request: WorkerRequest, options: AsyncBuildOptions): Promise<SearchIndex> {
  const { signal, timeoutMs = BUILD_TIMEOUT_MS } = options;
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    // Its stdout is not the process's: on `mcpx serve` over stdio that is the host's channel.
    const worker = new Worker(url, { workerData: request, stdout: true });
    worker.stdout.resume();
    // A build never keeps a process alive that has nothing else to do.
    worker.unref();
    let index: SearchIndex | undefined;
    let failure: unknown;
    const stop = (reason: unknown) => {
      failure ??= reason;
      void worker.terminate();
    };
    const timer = setTimeout(() => stop(new Error(`it took more than ${timeoutMs / 1000} s`)), timeoutMs);
    timer.unref();
    const onAbort = () => stop(signal?.reason);
    signal?.addEventListener("abort", onAbort, { once: true });
    worker.once("message", (built: SearchIndex) => {
      index = built;
    });
    worker.once("error", (error) => {
      failure ??= error;
    });
    // The one place a build ends: whatever happened, the worker is gone by now.
    worker.once("exit", (code) => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      if (failure === undefined && index) resolve(index);
      else reject(failure ?? new Error(`the worker exited (${code}) without an index`));
    });
  });
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

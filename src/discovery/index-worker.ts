/**
 * The search index built on a worker thread (index-async.ts starts it): `buildIndex` reads
 * WordNet synchronously for seconds, which a serving gateway's event loop cannot spare. Loads
 * the search modules only (not the tokenizer); posts the index once and ends.
 */
import { setPriority } from "node:os";
import { parentPort, workerData } from "node:worker_threads";
import { buildIndex } from "./search-build.js";
import type { WorkerRequest } from "./index-async.js";

const BACKGROUND_NICE = 10;

// A build is background work: on cores that are all busy, the thread serving hosts goes first.
// On Linux a nice value is a thread's own (elsewhere it would be the whole process's: left alone).
if (process.platform === "linux") {
  try {
    setPriority(BACKGROUND_NICE);
  } catch {
    // not allowed here: the build runs at the process's priority
  }
}

const { input, withoutLexicon } = workerData as WorkerRequest;
parentPort?.postMessage(buildIndex(withoutLexicon ? { ...input, lexicon: null } : input));

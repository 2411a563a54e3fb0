/**
 * The search index built on a worker thread (index-async.ts starts it): `buildIndex` reads
 * WordNet synchronously for seconds, which a serving gateway's event loop cannot spare. Loads
 * the search modules only (not the tokenizer); posts the index once and ends.
 */
import { parentPort, workerData } from "node:worker_threads";
import { buildIndex } from "./search.js";
import type { WorkerRequest } from "./index-async.js";

const { input, withoutLexicon } = workerData as WorkerRequest;
parentPort?.postMessage(buildIndex(withoutLexicon ? { ...input, lexicon: null } : input));

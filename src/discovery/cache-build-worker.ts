/**
 * A worker thread that makes cache entries' reads (cache-build.ts): loading the tokenizer and
 * counting tokens take hundreds of milliseconds, which a serving gateway must not spend on its
 * own event loop. Receives `{id, server, snapshot, readAt, previous}`, answers `{id, read}` or `{id, error}`.
 */
import { parentPort } from "node:worker_threads";
import type { CatalogueRead } from "./cache-entry.js";
import { buildRead } from "./cache-build.js";
import type { CatalogueSnapshot } from "./cache-snapshot.js";

export interface BuildRequest {
  id: number;
  server: string;
  snapshot: CatalogueSnapshot;
  readAt: string;
  previous?: CatalogueRead;
}

parentPort?.on("message", (request: BuildRequest) => {
  try {
    const read = buildRead(request.server, request.snapshot, new Date(request.readAt), request.previous);
    parentPort?.postMessage({ id: request.id, read });
  } catch (error) {
    parentPort?.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) });
  }
});

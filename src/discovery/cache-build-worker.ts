/**
 * A child process that makes cache entries' reads (cache-build.ts): loading the tokenizer and
 * counting tokens take hundreds of milliseconds and tens of megabytes, which a serving gateway
 * must spend neither on its event loop nor in its own memory. Over the IPC channel it receives
 * `{id, server, snapshot, readAt, previous}` and answers `{id, read}` or `{id, error}`; it ends
 * when its parent closes the channel.
 */
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

process.on("message", (request: BuildRequest) => {
  try {
    const read = buildRead(request.server, request.snapshot, new Date(request.readAt), request.previous);
    process.send?.({ id: request.id, read });
  } catch (error) {
    process.send?.({ id: request.id, error: error instanceof Error ? error.message : String(error) });
  }
});
process.on("disconnect", () => process.exit(0));

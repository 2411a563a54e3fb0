/**
 * The search index kept beside the cache entries, one per config file. It is keyed by what it
 * was built from (each server's name, definition, catalogue content, filter and description),
 * so it is rebuilt only when one of those changed, by whoever first needs it; never on every
 * command.
 */
import { join } from "node:path";
import { isObject } from "../protocol/jsonrpc.js";
import { indexesDir, keepNewest, readJsonFile, writePrivateAtomically } from "./cache-files.js";
import { allTools, type DiscoveryView, readDiscovery } from "./cache-read.js";
import { fastHash } from "./hash.js";
import { buildIndex, type SearchIndex } from "./search.js";

/** Bumped when what goes into an index changes; the index's own format is search.ts's business (its `version`). */
const INDEX_INPUT_VERSION = 1;

interface StoredIndex {
  key: string;
  builtAt: string;
  index: SearchIndex;
}

/** What the view's index is built from, as a key: the same inputs, the same index. */
export function indexKey(view: DiscoveryView): string {
  const parts = view.servers.map((server) => [
    server.server,
    server.key,
    server.state === "disabled" ? "disabled" : (server.contentHash ?? null),
    server.config.tools ?? null,
    server.description,
  ]);
  return fastHash(JSON.stringify([INDEX_INPUT_VERSION, view.config.limits.maxToolsPerServer, parts]));
}

/** The view's search index: the stored one when it is current, else built now and stored for the next reader. */
export function searchIndexFor(view: DiscoveryView): { index: SearchIndex; built: boolean } {
  const key = indexKey(view);
  const file = indexFile(view);
  const stored = readJsonFile(file);
  if (isObject(stored) && stored.key === key && isObject(stored.index)) return { index: stored.index as unknown as SearchIndex, built: false };
  // Building needs the schemas (parameter names rank too): a summary's view is read whole first.
  const whole = view.schemas ? view : readDiscovery(view.config, view.stateDir, { schemas: true });
  const index = buildIndex({
    tools: allTools(whole),
    serverDescriptions: Object.fromEntries(whole.servers.filter((server) => server.description).map((server) => [server.server, server.description])),
  });
  const record: StoredIndex = { key, builtAt: new Date().toISOString(), index };
  try {
    writePrivateAtomically(file, JSON.stringify(record));
    keepNewest(indexesDir(view.stateDir), MAX_INDEXES);
  } catch {
    // Not stored: the next reader builds it again, which is slower, never wrong.
  }
  return { index, built: true };
}

/** Index files kept at most (one per config file used); past that, the ones built longest ago go. */
export const MAX_INDEXES = 50;

/** One index file per config file: several configs on one state directory do not undo each other's. */
function indexFile(view: DiscoveryView): string {
  const name = fastHash(view.config.file);
  return join(indexesDir(view.stateDir), `${name}.json`);
}

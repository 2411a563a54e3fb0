/**
 * Filling the state directory's cache from the shared store before any server is started: for
 * each server this directory holds no good read of, the shared entry of its definition, when
 * there is one, is written here as a read of this machine's would be (cache-save.ts). Indexes
 * and summaries are then made from it by the next reader, as after any write.
 */
import type { ServerConfig } from "../config/types.js";
import type { CacheEntry } from "./cache-entry.js";
import { definitionKey, definitionOf, type Definition } from "./cache-key.js";
import { readEntry } from "./cache-read-entry.js";
import { saveEntry } from "./cache-save.js";
import { definitionHash, fromShared, type SharedSchemas } from "./cache-shared.js";

/**
 * Fetch what the store has for `servers` (those enabled and never read well here) in one
 * request; the names of the servers whose entries were written. A store that fails throws.
 */
export async function pullShared(stateDir: string, servers: readonly ServerConfig[], shared: SharedSchemas): Promise<string[]> {
  const wanted = new Map<string, { definition: Definition; previous: CacheEntry | undefined; names: string[] }>();
  for (const server of servers) {
    if (server.disabled) continue;
    const definition = definitionOf(server);
    const key = definitionKey(definition);
    const known = wanted.get(key);
    if (known) {
      known.names.push(server.name);
      continue;
    }
    const previous = readEntry(stateDir, key, definition);
    if (!previous?.read) wanted.set(key, { definition, previous, names: [server.name] });
  }
  if (wanted.size === 0) return [];
  const keys = [...wanted.keys()];
  const texts = await shared.get(keys.map((key) => definitionHash(wanted.get(key)!.definition)));
  const pulled: string[] = [];
  keys.forEach((key, at) => {
    const text = texts[at];
    const { definition, previous, names } = wanted.get(key)!;
    const entry = text === undefined ? undefined : fromShared(text, definition);
    if (!entry) return;
    // A failure noted here stays beside the fetched read (it says which is newer).
    const saved: CacheEntry = {
      version: entry.version,
      key,
      server: entry.server,
      definition,
      read: entry.read,
      ...(previous?.failure ? { failure: previous.failure } : {}),
    };
    saveEntry(stateDir, saved, previous === undefined);
    pulled.push(...names);
  });
  return pulled;
}

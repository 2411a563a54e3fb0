/** Reading one entry of the schema cache: absent, unreadable or of another version are all a miss. */
import { isObject } from "../protocol/jsonrpc.js";
import { type CacheEntry, ENTRY_VERSION } from "./cache-entry.js";
import { entryFile, readJsonFile } from "./cache-files.js";
import type { Definition } from "./cache-key.js";

/** The entry under `key`; with `definition`, only when it is that definition's (a key is a hash: it is checked). */
export function readEntry(stateDir: string, key: string, definition?: Definition): CacheEntry | undefined {
  const value = readJsonFile(entryFile(stateDir, key));
  if (!isObject(value) || value.version !== ENTRY_VERSION || value.key !== key) return undefined;
  if (definition !== undefined && JSON.stringify(value.definition) !== JSON.stringify(definition)) return undefined;
  return value as unknown as CacheEntry;
}

/** Reading one entry of the schema cache: absent, unreadable or of another version are all a miss. */
import { isObject } from "../protocol/jsonrpc.js";
import { type CacheEntry, ENTRY_VERSION } from "./cache-entry.js";
import { entryFile, readJsonFile } from "./cache-files.js";

export function readEntry(stateDir: string, key: string): CacheEntry | undefined {
  const value = readJsonFile(entryFile(stateDir, key));
  if (!isObject(value) || value.version !== ENTRY_VERSION || value.key !== key) return undefined;
  return value as unknown as CacheEntry;
}

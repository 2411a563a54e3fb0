/**
 * Putting an entry in the state directory's cache, as every writer does (the writer of a process
 * that reads catalogues, and an entry fetched from the shared store): atomically and privately,
 * then the generation moved so every summary made before is stale, and the folder bounded.
 */
import type { CacheEntry } from "./cache-entry.js";
import { entriesDir, entryFile, keepNewest, writePrivateAtomically } from "./cache-files.js";
import { moveGeneration } from "./cache-summary.js";

/** Entries kept at most; the least recently written go first (definitions that changed leave old ones behind). */
export const MAX_ENTRIES = 500;

/** `added`: there was no entry under this key before (only then can the folder have grown past its bound). */
export function saveEntry(stateDir: string, entry: CacheEntry, added: boolean): void {
  writePrivateAtomically(entryFile(stateDir, entry.key), JSON.stringify(entry));
  moveGeneration(stateDir);
  if (added) keepNewest(entriesDir(stateDir), MAX_ENTRIES);
}

/**
 * The token counts of a cache entry's read (o200k_base, discovery/tokens.ts): of each tool's
 * signature line and of the server's `server: description` line. Loads the tokenizer, so only
 * commands import it: `refresh` and a first read as they write, `catalog` for entries a serving
 * gateway wrote without them (then kept in the entry for every later `catalog`).
 */
import { type CacheEntry, type CatalogueRead, counted, ENTRY_VERSION } from "./cache-entry.js";
import { entryFile, writePrivateAtomically } from "./cache-files.js";
import { readEntry } from "./cache-read-entry.js";
import { moveGeneration } from "./cache-summary.js";
import type { DiscoveryView } from "./cache-view.js";
import { countTokens } from "./tokens.js";

export function withCounts(server: string, read: CatalogueRead): CatalogueRead {
  return {
    ...read,
    tools: read.tools.map((tool) => (tool.signatureTokens === null ? { ...tool, signatureTokens: countTokens(tool.signature) } : tool)),
    descriptionTokens: read.descriptionTokens ?? countTokens(`${server}: ${read.description}`),
  };
}

/**
 * Count what the view's entries lack and store it (each entry rewritten only when it still
 * holds the same read). Returns whether anything was counted: the caller reads the view again.
 */
export function fillCounts(view: DiscoveryView): boolean {
  let filled = false;
  for (const server of view.servers) {
    if (server.state === "disabled" || server.contentHash === undefined) continue;
    const entry = readEntry(view.stateDir, server.key);
    if (!entry?.read || entry.read.contentHash !== server.contentHash || counted(entry.read)) continue;
    const updated: CacheEntry = { ...entry, version: ENTRY_VERSION, read: withCounts(entry.server, entry.read) };
    writePrivateAtomically(entryFile(view.stateDir, server.key), JSON.stringify(updated));
    filled = true;
  }
  if (filled) moveGeneration(view.stateDir);
  return filled;
}

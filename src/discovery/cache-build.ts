/**
 * Turning what mcpx read from a server into a cache entry's read: the catalogue as listed,
 * plus each tool's signature and the token counts the fast commands need. Loads the tokenizer,
 * so only the cache writer imports it, and only when a catalogue has changed.
 */
import type { CachedTool, CatalogueRead } from "./cache-entry.js";
import { type CatalogueSnapshot, contentHash } from "./cache-snapshot.js";
import { signature } from "./signature.js";
import { countTokens } from "./tokens.js";
import { serverDescription, toolRecord } from "./tool-records.js";

/**
 * The read to store. `previous` is the entry's last read: when the content is the same, its
 * signatures and counts are kept (no tokenizer work for a server that did not change).
 */
export function buildRead(server: string, snapshot: CatalogueSnapshot, readAt: Date, previous?: CatalogueRead): CatalogueRead {
  const hash = contentHash(snapshot);
  if (previous?.contentHash === hash) return { ...previous, readAt: readAt.toISOString() };
  const description = serverDescription(snapshot.instructions, snapshot.serverInfo);
  const tools: CachedTool[] = snapshot.catalog.tools
    .filter((tool) => typeof tool.name === "string")
    .map((tool) => {
      const line = signature(toolRecord(server, tool));
      return { tool, signature: line, signatureTokens: countTokens(line) };
    });
  return {
    readAt: readAt.toISOString(),
    contentHash: hash,
    revision: snapshot.revision ?? null,
    transport: snapshot.transport ?? null,
    serverInfo: snapshot.serverInfo ?? null,
    instructions: snapshot.instructions ?? null,
    tools,
    prompts: snapshot.catalog.prompts,
    resources: snapshot.catalog.resources,
    resourceTemplates: snapshot.catalog.resourceTemplates,
    description,
    descriptionTokens: countTokens(`${server}: ${description}`),
  };
}

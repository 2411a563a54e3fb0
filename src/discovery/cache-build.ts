/**
 * Turning what mcpx read from a server into a cache entry's read: the catalogue as listed, each
 * tool's signature, and the server's one-line description. No token counts: loading the
 * tokenizer costs hundreds of milliseconds and tens of megabytes, so only `catalog` loads it,
 * once per change of what it prints (cache-catalog.ts).
 */
import type { CachedTool, CatalogueRead } from "./cache-entry.js";
import { type CatalogueSnapshot, contentHash } from "./cache-snapshot.js";
import { signature } from "./signature.js";
import { serverDescription, toolRecord } from "./tool-records.js";

/**
 * The read to store. `previous` is the entry's last read: when the content is the same, its
 * signatures are kept.
 */
export function buildRead(server: string, snapshot: CatalogueSnapshot, readAt: Date, previous?: CatalogueRead): CatalogueRead {
  const hash = contentHash(snapshot);
  if (previous?.contentHash === hash) return { ...previous, readAt: readAt.toISOString() };
  const description = serverDescription(snapshot.instructions, snapshot.serverInfo);
  const tools: CachedTool[] = snapshot.catalog.tools
    .filter((tool) => typeof tool.name === "string")
    .map((tool) => {
      const line = signature(toolRecord(server, tool));
      return { tool, signature: line };
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
  };
}

/**
 * One entry of the schema cache: what one server definition offered the last time mcpx read
 * its catalogue, and each tool's one-line signature. Plain data, as stored. Token counts are
 * not kept here: `catalog` counts its lines once per view (cache-catalog.ts).
 */
import type { JsonObject } from "../protocol/jsonrpc.js";
import type { Definition } from "./cache-key.js";

/** Bumped when the stored shape changes: an entry of another version is read as absent. */
export const ENTRY_VERSION = 2;

export interface CachedTool {
  /** The tool as the server listed it (name, title, description, schemas, annotations). */
  tool: JsonObject;
  /** Its one-line signature (discovery/signature.ts), made under the entry's `server` name. */
  signature: string;
}

/** A successful read of the server's catalogue. */
export interface CatalogueRead {
  /** ISO 8601. */
  readAt: string;
  /** SHA-256 of what was read: a read that finds the same needs no new signatures, and leaves the search index as it is. */
  contentHash: string;
  revision: string | null;
  transport: string | null;
  serverInfo: JsonObject | null;
  instructions: string | null;
  tools: CachedTool[];
  prompts: JsonObject[];
  resources: JsonObject[];
  resourceTemplates: JsonObject[];
  /** The server's one-line description (instructions' first line, else serverInfo title/name). */
  description: string;
}

export interface CacheEntry {
  version: typeof ENTRY_VERSION;
  key: string;
  /** The config name it was last read under (another name with the same definition shares it). */
  server: string;
  definition: Definition;
  /** The last good read; absent when every read so far failed. */
  read?: CatalogueRead;
  /** The last read that failed, when it came after the good one: the good one is kept. */
  failure?: { at: string; reason: string };
}

/**
 * The schema cache's entries as instances share them through a store (broker/store-api.ts
 * `SchemaTable` on Redis): what a server listed, for the definition key, and nothing of the
 * definition itself. A definition holds the command, its args, the URL and the cwd, where a
 * config may well put a token (`--api-key=…`, `?key=…`, `https://user:pass@…`); the files keep
 * it to check an entry against, a store another machine reads must not. Instead the shared
 * form carries the definition's SHA-256, which a reader compares with its own definition's: a
 * changed definition is never answered with the old one's tools, and a key (a fast, short hash)
 * that happened to match another definition is caught. A failed read is not shared: its
 * reason is this machine's (and may quote what the server printed).
 */
import { createHash } from "node:crypto";
import { isObject } from "../protocol/jsonrpc.js";
import { type CacheEntry, type CatalogueRead, ENTRY_VERSION } from "./cache-entry.js";
import type { Definition } from "./cache-key.js";

/** What discovery needs of a shared store (broker/store-api.ts `SchemaTable` is one). */
export interface SharedSchemas {
  /** Keep `entry` under `key`, read at `readAtMs`; false when a later read is kept already. */
  put(key: string, entry: string, readAtMs: number): Promise<boolean>;
  get(keys: readonly string[]): Promise<Array<string | undefined>>;
}

/** An entry as shared. */
export interface SharedEntry {
  version: typeof ENTRY_VERSION;
  key: string;
  /** The config name it was read under (its signatures were made under it). */
  server: string;
  /** SHA-256 of the definition's JSON, in hex. */
  definitionHash: string;
  read: CatalogueRead;
}

export function definitionHash(definition: Definition): string {
  return createHash("sha256").update(JSON.stringify(definition)).digest("hex");
}

/** The entry's shared form (JSON), or undefined when it holds no good read. */
export function sharedForm(entry: CacheEntry): string | undefined {
  if (!entry.read) return undefined;
  const shared: SharedEntry = {
    version: ENTRY_VERSION,
    key: entry.key,
    server: entry.server,
    definitionHash: definitionHash(entry.definition),
    read: entry.read,
  };
  return JSON.stringify(shared);
}

/**
 * A shared entry read back, when it is one of this version for this key and definition; else
 * undefined (an older mcpx's entry, another definition's, or something that is not an entry).
 */
export function fromShared(text: string, key: string, definition: Definition): SharedEntry | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(value) || value.version !== ENTRY_VERSION || value.key !== key || typeof value.server !== "string") return undefined;
  if (value.definitionHash !== definitionHash(definition) || !isRead(value.read)) return undefined;
  return value as unknown as SharedEntry;
}

/** The fields every reader of an entry relies on. */
function isRead(value: unknown): value is CatalogueRead {
  return (
    isObject(value) &&
    typeof value.readAt === "string" &&
    !Number.isNaN(Date.parse(value.readAt)) &&
    typeof value.contentHash === "string" &&
    typeof value.description === "string" &&
    Array.isArray(value.tools) &&
    value.tools.every((tool) => isObject(tool) && isObject(tool.tool) && typeof tool.signature === "string") &&
    Array.isArray(value.prompts) &&
    Array.isArray(value.resources) &&
    Array.isArray(value.resourceTemplates)
  );
}

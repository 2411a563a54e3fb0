/**
 * The schema cache's entries as instances share them through a store (broker/store-api.ts
 * `SchemaTable` on Redis): what a server listed, and nothing of the definition itself. A
 * definition holds the command, its args, the URL and the cwd, where a config may well put a
 * token (`--api-key=…`, `?key=…`, `https://user:pass@…`); the files keep it to check an entry
 * against, a store another machine reads must not. Instead an entry is kept under the
 * definition's SHA-256 (not the files' fast key: a hash not made to withstand working back
 * from it), and carries it, so a reader compares it with its own definition's: a changed
 * definition is never answered with the old one's tools. A failed read is not shared: its
 * reason is this machine's (and may quote what the server printed).
 */
import { createHash } from "node:crypto";
import { isObject } from "../protocol/jsonrpc.js";
import { type CacheEntry, type CatalogueRead, ENTRY_VERSION } from "./cache-entry.js";
import type { Definition } from "./cache-key.js";

/** What discovery needs of a shared store (broker/store-api.ts `SchemaTable` is one). */
export interface SharedSchemas {
  /** Keep `entry` under `key` (`sharedKey`), read at `readAtMs`; false when a later read is kept already. */
  put(key: string, entry: string, readAtMs: number): Promise<boolean>;
  get(keys: readonly string[]): Promise<Array<string | undefined>>;
}

/** An entry as shared. */
export interface SharedEntry {
  version: typeof ENTRY_VERSION;
  /** The config name it was read under (its signatures were made under it). */
  server: string;
  /** SHA-256 of the definition's JSON, in hex: its key in the store. */
  definitionHash: string;
  read: CatalogueRead;
}

export function definitionHash(definition: Definition): string {
  return createHash("sha256").update(JSON.stringify(definition)).digest("hex");
}

/** The entry's key in the store and its shared form (JSON), or undefined when it holds no good read. */
export function sharedForm(entry: CacheEntry): { key: string; text: string } | undefined {
  if (!entry.read) return undefined;
  const key = definitionHash(entry.definition);
  const shared: SharedEntry = { version: ENTRY_VERSION, server: entry.server, definitionHash: key, read: entry.read };
  return { key, text: JSON.stringify(shared) };
}

/**
 * A shared entry read back, when it is one of this version for this definition; else
 * undefined (an older mcpx's entry, another definition's, or something that is not an entry).
 */
export function fromShared(text: string, definition: Definition): SharedEntry | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(value) || value.version !== ENTRY_VERSION || typeof value.server !== "string") return undefined;
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

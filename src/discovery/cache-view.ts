/** The shapes the cache's readers answer with (cache-read.ts makes them, cache-summary.ts keeps them). */
import type { Config, ServerConfig } from "../config/types.js";
import type { CacheEntry } from "./cache-entry.js";
import type { ToolRecord } from "./records.js";

/** `cached`: read before; `never read`; `last read failed` (its last good read, if any, still answers); `disabled` by the config. */
export type ServerState = "cached" | "never read" | "last read failed" | "disabled";

export interface DiscoveryTool extends ToolRecord {
  signature: string;
}

export interface ServerView {
  server: string;
  config: ServerConfig;
  /** The definition's key in the cache. */
  key: string;
  state: ServerState;
  /** The whole entry, in a view read with `schemas`. */
  entry: CacheEntry | undefined;
  /** Its last good read's content hash (what the search index is keyed by). */
  contentHash: string | undefined;
  /** When its catalogue was last read successfully (ISO 8601), and how long ago. */
  readAt: string | undefined;
  ageMs: number | undefined;
  failure: { at: string; reason: string } | undefined;
  /** One line: its instructions' first line, else its serverInfo title or name. */
  description: string;
  /** Its tools the config lets anyone see (the filter's globs, the tools limit), by discovery's names. */
  tools: DiscoveryTool[];
  /** How many: `tools.length`, without reading the tools (a summary's are parsed on first use). */
  toolCount: number;
}

export interface DiscoveryView {
  config: Config;
  stateDir: string;
  servers: ServerView[];
  /** Tools carry their input and output schemas (and servers their entries). */
  schemas: boolean;
}

/** How long ago a read made at `readAt` (ISO 8601) was, at `now`: a server view's `ageMs`; undefined when it was never read. */
export function ageOf(readAt: string | null | undefined, now: number): number | undefined {
  return readAt ? Math.max(0, now - Date.parse(readAt)) : undefined;
}

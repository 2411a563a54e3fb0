/**
 * What commands make from the cache and keep beside it: the search index (cache-index.ts) and
 * `catalog`'s counted lines (cache-catalog.ts). One file per config file, so several configs on
 * one state directory do not undo each other's; keyed by what it is made from (`indexKey`: each
 * server's name, definition, catalogue content, filter and description), so it is made again
 * only when one of those changed, by the first reader that finds it stale, never on every command.
 */
import { join } from "node:path";
import { isObject } from "../protocol/jsonrpc.js";
import { keepNewest, writePrivateAtomically } from "./cache-files.js";
import { type DiscoveryView, readDiscovery } from "./cache-read.js";
import { fastHash } from "./hash.js";
import { encodeTableFile, readTableFile } from "./table-file.js";

/** One kind of kept thing: where it goes, how many are kept, and the version of what goes into it. */
export interface KeptKind {
  dir: (stateDir: string) => string;
  /** The record's field that holds it (`index`, `input`). */
  field: string;
  /** Bumped when what goes into it changes: a kept one of another version is stale. */
  version: number;
  /** Files kept at most (one per config file used); past that, the ones made longest ago go. */
  max: number;
  /** Its fields stored as sorted tables and looked up on access, not parsed (table-file.ts): the large ones a reader needs a few entries of. */
  tables?: readonly string[];
}

/** Bumped when what goes into any kept thing changes. */
const KEY_VERSION = 1;

/** What the view's kept things are made from, as a key (a JSON text): the same inputs, the same result. */
export function indexKey(view: DiscoveryView): string {
  const parts = view.servers.map((server) => [
    server.server,
    server.key,
    server.state === "disabled" ? "disabled" : (server.contentHash ?? null),
    server.config.tools ?? null,
    server.description,
  ]);
  // The text itself, not a hash of it: a reader compares it with the stored one, and hashing 15 KB in
  // not-yet-optimised JavaScript cost a command more than reading it does.
  return JSON.stringify([KEY_VERSION, view.config.limits.maxToolsPerServer, parts]);
}

/** The kept one, when it is current for the view; else undefined. */
export function readKept<T>(view: DiscoveryView, kind: KeptKind): T | undefined {
  return readKeptFor<T>(view.stateDir, view.config.file, kind, indexKey(view));
}

/** The kept one of the config file `configFile`, when it was made for `key` (a view's `indexKey`); else undefined. */
export function readKeptFor<T>(stateDir: string, configFile: string, kind: KeptKind, key: string): T | undefined {
  let stored: Record<string, unknown> | undefined;
  try {
    // its first line, then only the pages of its tables that lookups reach
    stored = readTableFile(keptFileOf(stateDir, configFile, kind), kind.field);
  } catch {
    return undefined;
  }
  if (!isObject(stored) || stored.version !== kind.version || stored.key !== key || !isObject(stored[kind.field])) return undefined;
  return stored[kind.field] as T;
}

/** Keep it for the next reader. Not stored (a full disk, say): the next reader makes it again, which is slower, never wrong. */
export function keep(view: DiscoveryView, kind: KeptKind, value: unknown): void {
  const record = { version: kind.version, key: indexKey(view), builtAt: new Date().toISOString(), [kind.field]: value };
  try {
    writePrivateAtomically(keptFile(view, kind), encodeTableFile(record, kind.field, kind.tables ?? []));
    keepNewest(kind.dir(view.stateDir), kind.max);
  } catch {
    // said above
  }
}

/** Making one needs the schemas (parameter names, signatures): a summary's view is read whole first. */
export function wholeView(view: DiscoveryView): DiscoveryView {
  return view.schemas ? view : readDiscovery(view.config, view.stateDir, { schemas: true });
}

function keptFile(view: DiscoveryView, kind: KeptKind): string {
  return keptFileOf(view.stateDir, view.config.file, kind);
}

function keptFileOf(stateDir: string, configFile: string, kind: KeptKind): string {
  return join(kind.dir(stateDir), `${fastHash(configFile)}.json`);
}

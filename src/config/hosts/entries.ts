/**
 * What the readers of hosts' own formats (Codex, Zed, Gemini CLI, Continue, Goose) have in
 * common: each turns the host's server entries into mcpx entries, key by key, and lists what
 * it passed by, so the result is read like any other host file (lenient, one warning).
 */
import type { IgnoredKey } from "../check.js";
import { formatPath, type KeyPath } from "../keypath.js";

/** A host's servers as mcpx entries, and what the reader passed by. */
export interface HostServers {
  /** mcpx entries by the host's names, in file order. */
  entries: Array<[string, unknown]>;
  ignored: IgnoredKey[];
  /** Servers mcpx cannot run at all (a Zed extension, a Goose built-in), with why. */
  leftOut: Array<{ name: string; why: string }>;
  /** Servers whose host name is not a valid mcpx name, served under another. */
  renamed: Array<{ from: string; to: string }>;
}

export function emptyServers(): HostServers {
  return { entries: [], ignored: [], leftOut: [], renamed: [] };
}

/**
 * One host entry read into an mcpx entry: the reader takes the keys it knows; `finish` lists
 * the rest as ignored, so nothing is dropped silently.
 */
export class EntryReader {
  readonly out: Record<string, unknown> = {};
  readonly #taken = new Set<string>();

  constructor(
    readonly entry: Record<string, unknown>,
    readonly at: KeyPath,
  ) {}

  has(key: string): boolean {
    return Object.hasOwn(this.entry, key);
  }

  /** The value of `key` (undefined when absent), which is then no longer listed as ignored. */
  take(key: string): unknown {
    this.#taken.add(key);
    return this.entry[key];
  }

  /** Copies `key` into the mcpx entry as `as`, when present (YAML's `null` counts as absent). */
  copy(key: string, as: string = key): void {
    const value = this.take(key);
    if (value !== undefined && value !== null) this.out[as] = value;
  }

  /** Keys the host writes that say nothing mcpx needs (labels): passed by without a word. */
  skip(...keys: string[]): void {
    for (const key of keys) this.#taken.add(key);
  }

  /** A key mcpx reads past, with why (listed in the warning). */
  ignore(ignored: IgnoredKey[], key: string, reason: string): void {
    if (this.has(key)) ignored.push({ path: formatPath([...this.at, key]), reason });
    this.#taken.add(key);
  }

  /** The mcpx entry; every key not taken is listed in `ignored` with `reason`. */
  finish(ignored: IgnoredKey[], reason: string): Record<string, unknown> {
    for (const key of Object.keys(this.entry)) {
      if (!this.#taken.has(key)) ignored.push({ path: formatPath([...this.at, key]), reason });
    }
    return this.out;
  }
}

/** `${NAME}`, mcpx's reference to an environment variable, for hosts that name variables bare. */
export function envReference(name: string): string {
  return `\${${name}}`;
}

/** Adds headers to an entry's `headers` (a later one wins, as it would in the host). */
export function addHeaders(out: Record<string, unknown>, headers: Record<string, unknown>): void {
  const given = typeof out.headers === "object" && out.headers !== null ? (out.headers as Record<string, unknown>) : {};
  out.headers = { ...given, ...headers };
}

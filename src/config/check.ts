/**
 * Typed reads of untrusted JSON that collect problems instead of stopping at the first, so
 * one run of mcpx reports everything wrong with a config file at once.
 */
import { ConfigError } from "./errors.js";
import { type KeyPath, formatPath } from "./keypath.js";

/** A JSON object as parsed. */
export type Obj = Record<string, unknown>;

/** Bounds for a number: `above` is exclusive, `min`/`max` inclusive. */
export interface Range {
  above?: number;
  min?: number;
  max?: number;
  integer?: boolean;
}

/** A number that must be greater than zero. */
export const POSITIVE: Range = { above: 0 };

/** A key that was read past, and why. */
export interface IgnoredKey {
  path: string;
  reason: string;
}

/**
 * Collects problems for one file; `finish` throws them all as one ConfigError.
 * A lenient checker (a host's file) records unknown keys as ignored instead of refusing them.
 */
export class Checker {
  private readonly problems: string[] = [];

  constructor(
    readonly file: string,
    readonly lenient = false,
    readonly ignored: IgnoredKey[] = [],
  ) {}

  /** A checker for one part of the file whose problems the caller takes; ignored keys are shared. */
  child(): Checker {
    return new Checker(this.file, this.lenient, this.ignored);
  }

  /** Records a problem at a key path; returns undefined so readers can `return this.fail(...)`. */
  fail(at: KeyPath, problem: string): undefined {
    this.problems.push(`${this.file}: ${formatPath(at)} ${problem}`);
    return undefined;
  }

  /** The problems recorded so far (each without the file name), which this checker then forgets. */
  take(): string[] {
    const prefix = `${this.file}: `;
    return this.problems.splice(0).map((p) => (p.startsWith(prefix) ? p.slice(prefix.length) : p));
  }

  /** @throws ConfigError listing every problem recorded, one per line. */
  finish(): void {
    if (this.problems.length > 0) throw new ConfigError(this.problems.join("\n"));
  }

  /**
   * Reads an object and reports keys outside `allowed`. Keys in `hostKeys` (ones a host's
   * format defines, with why mcpx passes them by) are ignored, never refused.
   */
  fields(value: unknown, at: KeyPath, allowed: readonly string[], hostKeys: ReadonlyMap<string, string> = NO_HOST_KEYS): Fields | undefined {
    if (!isObject(value)) return this.fail(at, "must be an object");
    for (const key of Object.keys(value)) {
      if (allowed.includes(key)) continue;
      const hint = suggest(key, allowed);
      const known = hostKeys.get(key);
      if (known !== undefined) this.ignored.push({ path: formatPath([...at, key]), reason: known });
      else if (this.lenient) {
        const reason = `not a key of mcpx or of any host it knows${hint ? ` (did you mean "${hint}"?)` : ""}`;
        this.ignored.push({ path: formatPath([...at, key]), reason });
      } else this.fail([...at, key], `is not a known key${hint ? ` (did you mean "${hint}"?)` : ""}`);
    }
    return new Fields(this, value, at);
  }
}

const NO_HOST_KEYS: ReadonlyMap<string, string> = new Map();

/** The keys of one object, each read with a type check; absent or invalid reads give undefined. */
export class Fields {
  constructor(
    private readonly check: Checker,
    readonly obj: Obj,
    readonly at: KeyPath,
  ) {}

  has(key: string): boolean {
    return Object.hasOwn(this.obj, key);
  }

  path(key: string): KeyPath {
    return [...this.at, key];
  }

  /** Reads a key with a custom reader, skipping it when absent. */
  read<T>(key: string, reader: (value: unknown, at: KeyPath) => T | undefined): T | undefined {
    return this.has(key) ? reader(this.obj[key], this.path(key)) : undefined;
  }

  string(key: string): string | undefined {
    return this.read(key, (v, at) => (typeof v === "string" && v !== "" ? v : this.check.fail(at, "must be a non-empty string")));
  }

  boolean(key: string): boolean | undefined {
    return this.read(key, (v, at) => (typeof v === "boolean" ? v : this.check.fail(at, "must be true or false")));
  }

  number(key: string, range: Range): number | undefined {
    return this.read(key, (v, at) => {
      if (typeof v !== "number" || !Number.isFinite(v)) return this.check.fail(at, "must be a number");
      if (range.integer && !Number.isInteger(v)) return this.check.fail(at, `must be a whole number (got ${v})`);
      if (range.above !== undefined && !(v > range.above)) return this.check.fail(at, `must be greater than ${range.above} (got ${v})`);
      if ((range.min !== undefined && v < range.min) || (range.max !== undefined && v > range.max))
        return this.check.fail(at, `must be from ${range.min ?? "-∞"} to ${range.max ?? "∞"} (got ${v})`);
      return v;
    });
  }

  oneOf<T extends string>(key: string, options: readonly T[]): T | undefined {
    return this.read(key, (v, at) =>
      options.includes(v as T) ? (v as T) : this.check.fail(at, `must be one of ${options.map((o) => `"${o}"`).join(", ")} (got ${JSON.stringify(v)})`),
    );
  }

  array(key: string): unknown[] | undefined {
    return this.read(key, (v, at) => (Array.isArray(v) ? v : this.check.fail(at, "must be an array")));
  }

  strings(key: string): string[] | undefined {
    return this.read(key, (v, at) =>
      Array.isArray(v) && v.every((s) => typeof s === "string") ? (v as string[]) : this.check.fail(at, "must be an array of strings"),
    );
  }

  /** An object whose values are all strings, e.g. `env` or `headers`. */
  stringMap(key: string): Record<string, string> | undefined {
    return this.read(key, (v, at) =>
      isObject(v) && Object.values(v).every((s) => typeof s === "string")
        ? Object.fromEntries(Object.entries(v as Record<string, string>))
        : this.check.fail(at, "must be an object of string values"),
    );
  }
}

/** A plain JSON object: not null, not an array. */
export function isObject(value: unknown): value is Obj {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The allowed key closest to a mistyped one (a case slip, or a few edits for longer keys). */
function suggest(key: string, allowed: readonly string[]): string | undefined {
  let best: string | undefined;
  // Short keys get no fuzzy hint: "cmd" is one edit from "cwd", which would mislead.
  let bestDistance = Math.min(2, Math.floor((key.length - 1) / 3)) + 1;
  for (const candidate of allowed) {
    const d = key.toLowerCase() === candidate.toLowerCase() ? 0 : distance(key, candidate);
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}

/** Levenshtein distance; keys are short, so the plain table is fine. */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min((prev[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
    }
    prev = row;
  }
  return prev[b.length] ?? 0;
}

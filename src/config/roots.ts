/**
 * The roots mcpx answers `roots/list` with (design rule 10): a list in the config, each entry
 * a `file://` URI, a path (relative to the config file's folder), or `{uri, name}`.
 */
import path from "node:path";
import { pathToFileURL } from "node:url";
import { type Checker, isObject } from "./check.js";
import type { KeyPath } from "./keypath.js";
import type { Root } from "./types.js";

export function readRoots(check: Checker, value: unknown, at: KeyPath, baseDir: string): Root[] | undefined {
  if (!Array.isArray(value)) return check.fail(at, 'must be a list of roots: "file:///…" URIs, paths, or {"uri", "name"}');
  const roots: Root[] = [];
  value.forEach((entry, index) => {
    const root = readRoot(check, entry, [...at, index], baseDir);
    if (root) roots.push(root);
  });
  return roots;
}

function readRoot(check: Checker, entry: unknown, at: KeyPath, baseDir: string): Root | undefined {
  if (typeof entry === "string") {
    const uri = entry === "" ? check.fail(at, "must not be empty") : rootUri(check, entry, at, baseDir);
    return uri === undefined ? undefined : { uri };
  }
  const f = check.fields(entry, at, ["uri", "name"]);
  if (!f || !isObject(entry)) return undefined;
  const given = f.string("uri");
  if (given === undefined) return f.has("uri") ? undefined : check.fail(at, 'needs a "uri"');
  const uri = rootUri(check, given, f.path("uri"), baseDir);
  const name = f.string("name");
  return uri === undefined ? undefined : { uri, ...(name !== undefined ? { name } : {}) };
}

/** A `file://` URI as given, or a path made into one. Roots are file URIs in every revision. */
function rootUri(check: Checker, given: string, at: KeyPath, baseDir: string): string | undefined {
  if (!/^[a-z][a-z0-9+.-]*:/i.test(given) || /^[a-z]:[\\/]/i.test(given)) return pathToFileURL(path.resolve(baseDir, given)).href;
  try {
    if (new URL(given).protocol === "file:") return given;
  } catch {
    // fall through to the message below
  }
  return check.fail(at, `must be a file:// URI or a path (got ${JSON.stringify(given)})`);
}

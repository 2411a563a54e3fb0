/**
 * The servers of a host's files as mcpx's own entries, for `mcpx import` and
 * `mcpx install --replace`: each checked alone as mcpx will read it, so one that cannot be
 * carried is named with its reason while the others still come in.
 */
import { readFileSync } from "node:fs";
import type { Env } from "../config/env.js";
import { ConfigError } from "../config/errors.js";
import type { HostName } from "../config/host-formats.js";
import { importServers } from "../config/host-import.js";
import { readDocument } from "../config/host-document.js";
import { formatPath } from "../config/keypath.js";
import { checkConfig } from "../config/validate.js";
import { CliError, Exit } from "./exit.js";

export interface Carried {
  name: string;
  entry: Record<string, unknown>;
  source: string;
  /** Its key in the source file (before a rename to a valid mcpx name). */
  key: string;
}

export interface NotCarried {
  name: string;
  source: string;
  reasons: string[];
  key: string;
}

export interface HostServers {
  /** In the files' order; a later file's server of the same name replaces an earlier one. */
  carried: Carried[];
  notCarried: NotCarried[];
  notes: string[];
}

// The written file keeps its ${...} references, so an entry is checked for values its variables
// could take: unset ("", so `${VAR:-default}` takes its default, as mcpx serve does), or a URL (for
// a `"url": "${API_URL}"`). An entry valid for neither cannot run whatever the environment.
const UNSET: Env = new Proxy({}, { get: () => "" });
const A_URL: Env = new Proxy({}, { get: () => "https://variable.invalid" });

/** Reads `sources` (a host's files, broader first) as entries for the mcpx config `to`. */
export function readHostServers(host: HostName, sources: string[], to: string, cwd: string): HostServers {
  const carried = new Map<string, Carried>();
  const notCarried = new Map<string, NotCarried>();
  const notes: string[] = [];
  try {
    for (const source of sources) {
      // The same reader as serve's: TOML and YAML hosts come back in the mcpServers shape.
      const read = readDocument(readFileSync(source, "utf8"), source);
      notes.push(...read.warnings);
      const imported = importServers(read.doc, source, read.style?.host ?? host, cwd);
      notes.push(...imported.notes.map((note) => `${source}: ${note}`));
      for (const [name, entry] of imported.servers) {
        const reasons = imported.problems.get(name) ?? problemsOf(name, entry, to);
        const key = imported.keys.get(name) ?? name;
        if (reasons.length > 0) {
          if (!carried.has(name)) notCarried.set(name, { name, source, reasons, key });
        } else {
          carried.set(name, { name, entry, source, key });
          notCarried.delete(name);
        }
      }
    }
  } catch (error) {
    if (error instanceof ConfigError) throw new CliError(error.message, Exit.Usage);
    throw error;
  }
  return { carried: [...carried.values()], notCarried: [...notCarried.values()], notes };
}

function problemsOf(name: string, entry: Record<string, unknown>, file: string): string[] {
  let first: string[] = [];
  const at = formatPath(["mcpServers", name]);
  for (const env of [UNSET, A_URL]) {
    try {
      checkConfig({ mcpServers: { [name]: entry } }, file, env);
      return [];
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      // "mcpServers.x needs …" reads "needs …", "mcpServers.x.url is …" "url is …", under the server's name.
      if (first.length === 0) first = error.message.split("\n").map((line) => line.replace(`${file}: `, "").replace(`${at} `, "").replace(`${at}.`, ""));
    }
  }
  return first;
}

/** The servers left behind, on stderr, one a line with why. */
export function reportNotCarried(notCarried: NotCarried[], what: string): void {
  if (notCarried.length === 0) return;
  const lines = notCarried.map(({ name, source, reasons }) => `  ${name}: ${reasons.join("; ")} (in ${source})`);
  process.stderr.write(`mcpx: ${what}: ${notCarried.length} server${notCarried.length === 1 ? "" : "s"} mcpx cannot run as written:\n${lines.join("\n")}\n`);
}

/**
 * `mcpx import HOST`: the servers of a host's config file(s) written into an mcpx config
 * (default ./mcpx.json). An existing file keeps its comments and other keys; a server of the
 * same name is replaced; the old file is backed up first. `--dry-run` prints the diff only.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { ConfigError } from "../config/errors.js";
import { importServers } from "../config/host-import.js";
import { hostFiles } from "../config/host-paths.js";
import { readDocument } from "../config/host-document.js";
import { setMember } from "../config/jsonc-edit.js";
import { checkConfig } from "../config/validate.js";
import { CliError, Exit } from "./exit.js";
import { diff, readIfExists, writeWithBackup } from "./file-change.js";
// The written file keeps its ${...} references, so it is checked with every variable "set".
import { ANY_ENV, hostLabel, parseHost } from "./hosts.js";

export interface ImportOptions {
  from?: string[];
  to?: string;
  dryRun?: boolean;
}

export function importHost(given: string, options: ImportOptions): number {
  const host = parseHost(given);
  const cwd = process.cwd();
  const candidates = options.from?.length ? options.from.map((f) => path.resolve(f)) : hostFiles(host).read;
  const sources = candidates.filter((file) => existsSync(file));
  if (sources.length === 0) {
    throw new CliError(`no ${hostLabel(host)} config found: looked for ${candidates.join(", ")} (give one with --from FILE)`, Exit.Usage);
  }
  const to = path.resolve(options.to ?? "mcpx.json");
  const before = readIfExists(to);
  let after = before;
  const notes: string[] = [];
  const names: string[] = [];
  try {
    for (const source of sources) {
      // The same reader as serve's: TOML and YAML hosts come back in the mcpServers shape.
      const read = readDocument(readFileSync(source, "utf8"), source);
      notes.push(...read.warnings);
      const imported = importServers(read.doc, source, read.style?.host ?? host, cwd);
      notes.push(...imported.notes.map((note) => `${source}: ${note}`));
      for (const [name, entry] of imported.servers) {
        // Each server is checked alone, so one mcpx cannot run is reported and the rest still come in.
        const problem = problemOf({ mcpServers: { [name]: entry } }, to);
        if (problem) notes.push(`${source}: left out "${name}": ${problem}`);
        else {
          after = setMember(after, "mcpServers", name, entry, to);
          if (!names.includes(name)) names.push(name);
        }
      }
    }
  } catch (error) {
    if (error instanceof ConfigError) throw new CliError(error.message, Exit.Usage);
    throw error;
  }
  for (const note of notes) process.stderr.write(`mcpx: ${note}\n`);
  if (names.length === 0) throw new CliError(`no servers to import from ${sources.join(", ")}`, Exit.Error);
  const summary = `${names.length} server${names.length === 1 ? "" : "s"} from ${hostLabel(host)} (${names.join(", ")})`;
  if (after === before) {
    process.stdout.write(`${to} already has ${summary}; nothing to change\n`);
    return Exit.Ok;
  }
  if (options.dryRun) {
    process.stdout.write(diff(to, before, after));
    process.stderr.write(`mcpx: dry run: would import ${summary} into ${to}; nothing written\n`);
    return Exit.Ok;
  }
  const backup = writeWithBackup(to, after);
  process.stdout.write(`imported ${summary} into ${to}${backup ? ` (the old file is at ${backup})` : ""}\n`);
  process.stdout.write(`check them with: mcpx servers --config ${to}\n`);
  return Exit.Ok;
}

function problemOf(doc: object, file: string): string | undefined {
  try {
    checkConfig(doc, file, ANY_ENV);
    return undefined;
  } catch (error) {
    if (error instanceof ConfigError)
      return error.message
        .split("\n")
        .map((l) => l.replace(`${file}: `, ""))
        .join("; ");
    throw error;
  }
}

/**
 * `mcpx import HOST`: the servers of a host's config file(s) written into an mcpx config
 * (default ./mcpx.json). An existing file keeps its comments and other keys; a server of the
 * same name is replaced; the old file is backed up first. `--dry-run` prints the diff only.
 * A new file is 0600; literal secrets are named on stderr, or moved into a 0600 dotenv file
 * with `--move-secrets`. A server that cannot be carried is listed and the exit code is 1.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { ConfigError } from "../config/errors.js";
import type { HostName } from "../config/host-formats.js";
import { hostFiles } from "../config/host-paths.js";
import { parseJsonc } from "../config/jsonc.js";
import { setMember, setTopMember } from "../config/jsonc-edit.js";
import { CliError, Exit } from "./exit.js";
import { diff, readIfExists, writeWithBackup } from "./file-change.js";
import { type Carried, readHostServers, reportNotCarried } from "./host-servers.js";
import { hostLabel, parseHost } from "./hosts.js";
import { describeSecrets, envFileOf, planSecrets, tighten, withReferences, writeEnvFile } from "./import-secrets.js";

export interface ImportOptions {
  from?: string[];
  to?: string;
  dryRun?: boolean;
  moveSecrets?: boolean;
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
  const { carried, notCarried, notes } = readHostServers(host, sources, to, cwd);
  for (const note of notes) process.stderr.write(`mcpx: ${note}\n`);
  reportNotCarried(notCarried, "not imported");
  if (carried.length === 0) throw new CliError(`no servers to import from ${sources.join(", ")}`, Exit.Error);
  writeServers(host, sources, to, carried, options);
  return notCarried.length > 0 ? Exit.Error : Exit.Ok;
}

/**
 * Writes `carried` into the mcpx config `to` (for `import` and `install --replace`), with the
 * secret handling above. @returns whether the config holds them now (false: a dry run).
 */
export function writeServers(
  host: HostName,
  sources: string[],
  to: string,
  carried: Carried[],
  options: { dryRun?: boolean; moveSecrets?: boolean /** How to do it again with --move-secrets. */; again?: string },
): boolean {
  const before = readIfExists(to);
  let doc: unknown;
  try {
    doc = before === "" ? {} : parseJsonc(before, to);
  } catch (error) {
    if (error instanceof ConfigError) throw new CliError(`${error.message}; nothing written`, Exit.Usage);
    throw error;
  }
  const envFile = envFileOf(doc, to);
  const secrets = planSecrets(carried, envFile, process.env);
  const servers = options.moveSecrets ? withReferences(carried, secrets) : carried;
  let after = before;
  try {
    for (const { name, entry } of servers) after = setMember(after, "mcpServers", name, entry, to);
    if (options.moveSecrets && secrets.length > 0) after = setTopMember(after, "envFile", path.relative(path.dirname(to), envFile) || ".env", to);
  } catch (error) {
    if (error instanceof ConfigError) throw new CliError(`${error.message}; nothing written`, Exit.Usage);
    throw error;
  }
  const names = carried.map((c) => c.name);
  const summary = `${names.length} server${names.length === 1 ? "" : "s"} from ${hostLabel(host)} (${names.join(", ")})`;
  const moved = `${secrets.length} literal secret${secrets.length === 1 ? "" : "s"}`;
  if (options.dryRun) {
    if (after !== before) process.stdout.write(diff(to, before, after));
    if (secrets.length > 0 && options.moveSecrets) process.stderr.write(`mcpx: dry run: would move ${moved} into ${envFile}:\n${describeSecrets(secrets)}\n`);
    process.stderr.write(`mcpx: dry run: would import ${summary} into ${to}; nothing written\n`);
    return false;
  }
  let backup: string | undefined;
  if (after === before) process.stdout.write(`${to} already has ${summary}; nothing to change\n`);
  else {
    backup = writeWithBackup(to, after);
    process.stdout.write(`imported ${summary} into ${to}${backup ? ` (the old file is at ${backup})` : ""}\n`);
    process.stdout.write(`check them with: mcpx servers --config ${to}\n`);
  }
  if (secrets.length === 0) return true;
  if (options.moveSecrets) {
    const loose = writeEnvFile(envFile, secrets, sources);
    process.stderr.write(`mcpx: moved ${moved} into ${envFile} (0600), which ${to} reads as its envFile:\n${describeSecrets(secrets)}\n`);
    if (loose) process.stderr.write(`mcpx: ${loose}\n`);
    if (backup && secrets.some((s) => before.includes(JSON.stringify(s.value).slice(1, -1)))) {
      process.stderr.write(`mcpx: the backup ${backup} still holds some of them as written: delete it once the new file works\n`);
    }
    return true;
  }
  const loose = tighten(to);
  process.stderr.write(
    `mcpx: ${to} holds ${moved} copied as written from ${sources.join(", ")} (the file is readable only by you):\n${describeSecrets(secrets)}\n` +
      `mcpx: to keep them out of it: ${options.again ?? "run again with --move-secrets"}; they go into ${envFile} (0600) and ${to} keeps \${...} references\n`,
  );
  if (loose) process.stderr.write(`mcpx: ${loose}\n`);
  return true;
}

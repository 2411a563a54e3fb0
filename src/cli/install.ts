/**
 * `mcpx install HOST`: mcpx itself added to a host's config file, as a stdio server that runs
 * `mcpx serve --config <absolute path>`. The command is this Node binary and this checkout's
 * bin/mcpx.js, both absolute: hosts start servers without the person's shell PATH, and that
 * works from a clone as well as from an npm install. The host file keeps its other keys,
 * comments and layout; a backup is made first; `--dry-run` prints the diff only.
 * `--replace` moves the host's own servers into mcpx's config (the host keeps only mcpx, so
 * nothing runs twice); `--restore` puts the host's file back as it was before mcpx.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { isObject } from "../config/check.js";
import { ConfigError } from "../config/errors.js";
import type { HostName } from "../config/host-formats.js";
import { runsMcpx, serverName } from "../config/host-import.js";
import { hostFiles } from "../config/host-paths.js";
import { readDocument } from "../config/host-document.js";
import { removeHostServer, setHostServer, type StdioEntry } from "../config/host-write.js";
import { parseJsonc } from "../config/jsonc.js";
import { removeMember } from "../config/jsonc-edit.js";
import { findConfigPath, readConfig } from "../config/load.js";
import type { ServerConfig } from "../config/types.js";
import { checkConfig } from "../config/validate.js";
import { CliError, Exit } from "./exit.js";
import { backupsOf, diff, readIfExists, writeWithBackup } from "./file-change.js";
import { readHostServers, reportNotCarried } from "./host-servers.js";
import { ANY_ENV, hostLabel, parseHost } from "./hosts.js";
import { writeServers } from "./import.js";

/** bin/mcpx.js of this installation (this file is dist/cli/install.js). */
export const MCPX_BIN = fileURLToPath(new URL("../../bin/mcpx.js", import.meta.url));

export interface InstallOptions {
  config?: string;
  to?: string;
  name?: string;
  dryRun?: boolean;
  replace?: boolean;
  moveSecrets?: boolean;
  restore?: boolean;
}

/** The server entry that starts this mcpx for a host. */
export function mcpxEntry(host: HostName, configFile: string): StdioEntry {
  // VS Code requires "type"; Claude Code writes it itself.
  const type = host === "vscode" || host === "claude-code" ? { type: "stdio" } : {};
  return { ...type, command: process.execPath, args: [MCPX_BIN, "serve", "--config", configFile] };
}

export function install(given: string, options: InstallOptions): number {
  const host = parseHost(given);
  const files = hostFiles(host);
  const target = path.resolve(options.to ?? files.write);
  if (options.restore) return restore(target, options.dryRun ?? false);
  if (options.moveSecrets && !options.replace) throw new CliError("--move-secrets goes with --replace (or use mcpx import HOST --move-secrets)", Exit.Usage);
  const configFile = path.resolve(findConfigPath(options.config));
  const name = options.name ?? "mcpx";
  const original = readIfExists(target);
  const { before, kept, moved } = options.replace
    ? moveServers(host, target, files.serversKey, configFile, original, options)
    : { before: original, kept: 0, moved: [] };
  // A dry run wrote no config for the moved servers to check.
  if (!(options.dryRun && moved.length > 0)) checkRunnable(configFile, hostLabel(host));
  let after: string;
  try {
    after = setHostServer(host, before, name, mcpxEntry(host, configFile), target);
  } catch (error) {
    if (error instanceof ConfigError) throw new CliError(`${error.message}; nothing written`, Exit.Usage);
    throw error;
  }
  if (!options.replace) warnTwice(host, target, original, configFile, name);
  const status = kept > 0 ? Exit.Error : Exit.Ok;
  if (after === original) {
    process.stdout.write(`${target} already runs mcpx as "${name}"; nothing to change\n`);
    return status;
  }
  if (options.dryRun) {
    process.stdout.write(diff(target, original, after));
    process.stderr.write(`mcpx: dry run: would add "${name}" to ${target}; nothing written\n`);
    return status;
  }
  const backup = writeWithBackup(target, after);
  if (moved.length > 0) {
    process.stdout.write(`moved ${moved.length} server${moved.length === 1 ? "" : "s"} (${moved.join(", ")}) from ${target} into ${configFile}\n`);
  }
  process.stdout.write(`added "${name}" to ${target}${backup ? ` (the old file is at ${backup})` : ""}\n`);
  process.stdout.write(`restart ${hostLabel(host)} (or reload its MCP servers) to start mcpx with ${configFile}\n`);
  if (options.replace && backup) process.stdout.write(`to put ${target} back as it was: mcpx install ${host} --restore\n`);
  return status;
}

/**
 * `--replace`: the host's servers (those mcpx can run) written into mcpx's config, then taken
 * out of the host's text. @returns the host's text without them, and what moved and stayed.
 */
function moveServers(
  host: HostName,
  target: string,
  serversKey: string,
  configFile: string,
  text: string,
  options: InstallOptions,
): { before: string; kept: number; moved: string[] } {
  if (text.trim() === "") return { before: text, kept: 0, moved: [] };
  // Only the file's own servers list ("" matches no project of ~/.claude.json): that is what is edited.
  const { carried, notCarried, notes } = readHostServers(host, [target], configFile, "");
  for (const note of notes) process.stderr.write(`mcpx: ${note}\n`);
  reportNotCarried(notCarried, "not moved");
  if (notCarried.length > 0) process.stderr.write(`mcpx: kept in ${target}: ${notCarried.map((s) => s.key).join(", ")}\n`);
  if (carried.length === 0) return { before: text, kept: notCarried.length, moved: [] };
  writeServers(host, [target], configFile, carried, {
    dryRun: options.dryRun ?? false,
    moveSecrets: options.moveSecrets ?? false,
    again: `mcpx install ${host} --restore, then mcpx install ${host} --replace --move-secrets`,
  });
  let out = text;
  try {
    const writtenAs = readDocument(text, target).writtenAs;
    for (const { key } of carried) {
      out =
        host === "codex" || host === "continue" || host === "goose"
          ? removeHostServer(host, out, writtenAs.get(key) ?? key, target)
          : removeMember(out, serversKey, key, target);
    }
  } catch (error) {
    if (error instanceof ConfigError) throw new CliError(`${error.message}; ${target} not changed`, Exit.Usage);
    throw error;
  }
  return { before: out, kept: notCarried.length, moved: carried.map((c) => c.name) };
}

/** Without `--replace`: the host's servers that mcpx's config runs too would run twice. */
function warnTwice(host: HostName, target: string, text: string, configFile: string, name: string): void {
  let hostServers: Record<string, unknown>;
  let mine: ServerConfig[];
  try {
    const doc = readDocument(text === "" ? "{}" : text, target).doc;
    const servers = isObject(doc) ? (doc.mcpServers ?? doc.servers) : undefined;
    hostServers = isObject(servers) ? servers : {};
    mine = readConfig(configFile, ANY_ENV).config.servers;
  } catch {
    return; // the install itself reports a file it cannot read
  }
  const twice = Object.entries(hostServers)
    .filter(([key, entry]) => key !== name && isObject(entry) && !runsMcpx(key, entry))
    .filter(([key, entry]) => mine.some((server) => server.name === serverName(key) || sameLaunch(server, entry as Record<string, unknown>)))
    .map(([key]) => key);
  if (twice.length === 0) return;
  process.stderr.write(
    `mcpx: ${twice.join(", ")} ${twice.length === 1 ? "is" : "are"} also in ${configFile}: ${hostLabel(host)} would run ${twice.length === 1 ? "it" : "each"} twice (its own and mcpx's) and show ${twice.length === 1 ? "its" : "their"} tools twice\n` +
      `mcpx: to move the host's servers into mcpx's config and leave it only mcpx: mcpx install ${host} --replace (undo with --restore)\n`,
  );
}

function sameLaunch(server: ServerConfig, entry: Record<string, unknown>): boolean {
  if (typeof entry.command === "string") {
    const args = Array.isArray(entry.args) ? entry.args : [];
    return server.command === entry.command && JSON.stringify(server.args) === JSON.stringify(args);
  }
  const url = entry.url ?? entry.serverUrl;
  return typeof url === "string" && server.url === url;
}

/** `--restore`: the newest backup that does not run mcpx becomes the host's file again (itself backed up first). */
function restore(target: string, dryRun: boolean): number {
  const backups = backupsOf(target);
  const chosen = backups.reverse().find((file) => !runsMcpxIn(readFileSync(file, "utf8"), file));
  if (!chosen) {
    const hint = backups.length === 0 ? `; if mcpx install created it, remove the file or its mcpx entry` : "";
    throw new CliError(
      `no backup of ${target} without mcpx in it to restore (found ${backups.length} backup${backups.length === 1 ? "" : "s"})${hint}`,
      Exit.Error,
    );
  }
  const text = readFileSync(chosen, "utf8");
  const current = readIfExists(target);
  if (text === current) {
    process.stdout.write(`${target} is already as in ${chosen}; nothing to change\n`);
    return Exit.Ok;
  }
  if (dryRun) {
    process.stdout.write(diff(target, current, text));
    process.stderr.write(`mcpx: dry run: would restore ${target} from ${chosen}; nothing written\n`);
    return Exit.Ok;
  }
  const backup = writeWithBackup(target, text);
  process.stdout.write(`restored ${target} from ${chosen}${backup ? ` (what it held is at ${backup})` : ""}\n`);
  return Exit.Ok;
}

function runsMcpxIn(text: string, file: string): boolean {
  try {
    const doc = readDocument(text, file).doc;
    const servers = isObject(doc) ? (doc.mcpServers ?? doc.servers) : undefined;
    return isObject(servers) && Object.entries(servers).some(([key, entry]) => isObject(entry) && runsMcpx(key, entry));
  } catch {
    return true; // a backup mcpx cannot read is not one to put back
  }
}

/**
 * A host must not be pointed at a config mcpx cannot start with: its shape is checked here.
 * Unset variables only warn, since the host may set them (Claude Desktop, for one, does not
 * pass on the shell's environment, so say so).
 */
function checkRunnable(configFile: string, label: string): void {
  try {
    readConfig(configFile, ANY_ENV);
  } catch (error) {
    if (error instanceof ConfigError) {
      throw new CliError(`${error.message}\n(mcpx install points ${label} at this config: fix it, or create it with mcpx import)`, Exit.Usage);
    }
    throw error;
  }
  try {
    checkConfig(parseJsonc(readFileSync(configFile, "utf8"), configFile), configFile, process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(
      `mcpx: warning: ${error.message}\nmcpx: warning: ${label} must provide these variables to mcpx (hosts often do not pass on your shell's environment)\n`,
    );
  }
}

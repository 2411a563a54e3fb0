/**
 * `mcpx install HOST`: mcpx itself added to a host's config file, as a stdio server that runs
 * `mcpx serve --config <absolute path>`. The command is this Node binary and this checkout's
 * bin/mcpx.js, both absolute: hosts start servers without the person's shell PATH, and that
 * works from a clone as well as from an npm install. The host file keeps its other keys,
 * comments and layout; a backup is made first; `--dry-run` prints the diff only.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ConfigError } from "../config/errors.js";
import type { HostName } from "../config/host-formats.js";
import type { StdioEntry } from "../config/host-write.js";
import { hostFiles } from "../config/host-paths.js";
import { setHostServer } from "../config/host-write.js";
import { findConfigPath, readConfig } from "../config/load.js";
import { checkConfig } from "../config/validate.js";
import { parseJsonc } from "../config/jsonc.js";
import { readFileSync } from "node:fs";
import { CliError, Exit } from "./exit.js";
import { diff, readIfExists, writeWithBackup } from "./file-change.js";
import { ANY_ENV, hostLabel, parseHost } from "./hosts.js";

/** bin/mcpx.js of this installation (this file is dist/cli/install.js). */
export const MCPX_BIN = fileURLToPath(new URL("../../bin/mcpx.js", import.meta.url));

export interface InstallOptions {
  config?: string;
  to?: string;
  name?: string;
  dryRun?: boolean;
}

/** The server entry that starts this mcpx for a host. */
export function mcpxEntry(host: HostName, configFile: string): StdioEntry {
  // VS Code requires "type"; Claude Code writes it itself.
  const type = host === "vscode" || host === "claude-code" ? { type: "stdio" } : {};
  return { ...type, command: process.execPath, args: [MCPX_BIN, "serve", "--config", configFile] };
}

export function install(given: string, options: InstallOptions): number {
  const host = parseHost(given);
  const configFile = path.resolve(findConfigPath(options.config));
  checkRunnable(configFile, hostLabel(host));
  const files = hostFiles(host);
  const target = path.resolve(options.to ?? files.write);
  const name = options.name ?? "mcpx";
  const before = readIfExists(target);
  let after: string;
  try {
    after = setHostServer(host, before, name, mcpxEntry(host, configFile), target);
  } catch (error) {
    if (error instanceof ConfigError) throw new CliError(`${error.message}; nothing written`, Exit.Usage);
    throw error;
  }
  if (after === before) {
    process.stdout.write(`${target} already runs mcpx as "${name}"; nothing to change\n`);
    return Exit.Ok;
  }
  if (options.dryRun) {
    process.stdout.write(diff(target, before, after));
    process.stderr.write(`mcpx: dry run: would add "${name}" to ${target}; nothing written\n`);
    return Exit.Ok;
  }
  const backup = writeWithBackup(target, after);
  process.stdout.write(`added "${name}" to ${target}${backup ? ` (the old file is at ${backup})` : ""}\n`);
  process.stdout.write(`restart ${hostLabel(host)} (or reload its MCP servers) to start mcpx with ${configFile}\n`);
  return Exit.Ok;
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

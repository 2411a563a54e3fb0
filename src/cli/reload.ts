/**
 * `mcpx reload`: ask the `mcpx serve --http` or daemon serving this config to read it again
 * now (SIGHUP to the process its record in the state directory names). A serving mcpx also
 * reads its file again by itself when the file changes; this is for when watching cannot see
 * the change (a network file system, a file replaced through a symlink).
 */
import { stateDir } from "../broker/state-path.js";
import type { Config } from "../config/types.js";
import { daemonPaths, readDaemonRecord } from "./daemon-file.js";
import { CliError, Exit } from "./exit.js";

export function reload(config: Config): number {
  const record = readDaemonRecord(daemonPaths(stateDir(), config.file).file);
  if (!record)
    throw new CliError(
      `no mcpx serve --http or daemon is serving ${config.file} on this state directory (a stdio mcpx serve reloads by itself when the file changes)`,
    );
  try {
    process.kill(record.pid, "SIGHUP");
  } catch {
    throw new CliError(`the mcpx serving ${config.file} (pid ${record.pid}) is gone`);
  }
  process.stdout.write(`asked pid ${record.pid} to read ${config.file} again; its log says what changed, or why the file did not load\n`);
  return Exit.Ok;
}

/**
 * `mcpx daemon` (run it here), `mcpx daemon status`, `mcpx daemon stop`. Status and stop send
 * one request: only running the daemon here loads the gateway (serve.ts, imported then).
 */
import { stateDir } from "../broker/state-dir.js";
import { findConfigPath } from "../config/config-path.js";
import { daemonRequest } from "./daemon-client.js";
import { daemonPaths, readDaemonRecord, staleness, type DaemonRecord } from "./daemon-file.js";
import { forget, stopDaemon } from "./daemon-start.js";
import { CliError, Exit } from "./exit.js";
import { inert } from "./inert.js";

export async function daemonCommand(action: string | undefined, options: { config?: string; json?: boolean }): Promise<number> {
  if (action === undefined) return runHere(options.config);
  const configFile = findConfigPath(options.config);
  const paths = daemonPaths(stateDir(), configFile);
  const record = readDaemonRecord(paths.file);
  const why = record ? staleness(record, configFile) : "none";
  if (action === "status") return status(configFile, why === undefined ? record : undefined, why, options.json === true);
  if (action === "stop") {
    if (!record || why === "gone") {
      process.stderr.write(`mcpx: no mcpx daemon is running for ${configFile}\n`);
      if (record) forget(paths.file, record);
      return Exit.Ok;
    }
    if (record.kind === "serve") {
      throw new CliError(`the mcpx serving ${configFile} is a mcpx serve --http (pid ${record.pid}), not a daemon: stop it where it runs`);
    }
    await stopDaemon(record);
    forget(paths.file, record);
    process.stderr.write(`mcpx: stopped the mcpx daemon for ${configFile} (pid ${record.pid})\n`);
    return Exit.Ok;
  }
  throw new CliError(`mcpx daemon takes status or stop, or nothing to run it here; got ${JSON.stringify(action)}`, Exit.Usage);
}

async function runHere(configOption: string | undefined): Promise<number> {
  const [{ configFor }, { readConfig }, { serve }] = await Promise.all([import("./context.js"), import("../config/load.js"), import("./serve.js")]);
  const config = await configFor(configOption);
  const paths = daemonPaths(stateDir(), config.file);
  const running = readDaemonRecord(paths.file);
  if (running && running.pid !== process.pid && staleness(running, config.file) === undefined) {
    throw new CliError(`an mcpx ${running.kind === "daemon" ? "daemon" : "serve --http"} already serves ${config.file} (pid ${running.pid})`);
  }
  const { warnings } = readConfig(config.file);
  await serve(config, { http: true, host: "127.0.0.1", port: 0, daemon: true, warnings });
  return Exit.Ok;
}

async function status(configFile: string, record: DaemonRecord | undefined, why: string | undefined, json: boolean): Promise<number> {
  if (!record) {
    const reason = why === "none" || why === "gone" ? "not running" : `the one recorded is stale (${why})`;
    if (json) process.stdout.write(`${JSON.stringify({ running: false, configFile, reason }, null, 2)}\n`);
    else process.stdout.write(`no mcpx daemon for ${configFile}: ${reason}\n`);
    return Exit.Error;
  }
  const reply = await daemonRequest(record, "GET", "", { timeoutMs: 5_000 }).catch((error: Error) => {
    throw new CliError(`the mcpx daemon (pid ${record.pid}) does not answer: ${error.message}`);
  });
  if (reply.status !== 200) throw new CliError(`the mcpx daemon (pid ${record.pid}) answered ${reply.status}`);
  const body = reply.body;
  if (json) {
    process.stdout.write(`${JSON.stringify({ running: true, ...body }, null, 2)}\n`);
    return Exit.Ok;
  }
  const servers = Array.isArray(body.servers) ? (body.servers as Array<{ name: string; state: string; tools: number }>) : [];
  process.stdout.write(
    [
      `mcpx ${body.kind === "daemon" ? "daemon" : "serve --http"} for ${configFile}`,
      `  pid ${record.pid}, port ${record.port}, started ${record.startedAt}`,
      `  calls in flight: ${body.callsInFlight}, host sessions: ${body.hostSessions}` +
        (body.kind === "daemon" ? `, exits after ${body.idleMinutes} idle minutes` : ""),
      ...servers.map((server) => `  ${inert(server.name)}: ${server.state}, ${server.tools} tools`),
      "",
    ].join("\n"),
  );
  return Exit.Ok;
}

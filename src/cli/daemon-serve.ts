/**
 * What makes a serving mcpx findable by commands: the `/v1/daemon` routes, its discovery
 * file, and (for `mcpx daemon`) the idle exit. `serve --http` on loopback and `mcpx daemon`
 * both carry it; only the daemon exits when idle.
 */
import { ensurePrivateDir } from "../broker/state-dir.js";
import { createDaemonRoutes, type DaemonRoutes, type Reply } from "../api/daemon-routes.js";
import type { Broker } from "../broker/broker.js";
import type { Gateway } from "../host/gateway.js";
import { scriptLimits } from "../scripts/limits.js";
import { warmSandbox } from "../scripts/run-script.js";
import type { HttpHost } from "../host/http-host.js";
import type { JsonObject } from "../protocol/jsonrpc.js";
import { IMPLEMENTATION } from "../version.js";
import { callsDirOf, DaemonCalls } from "./daemon-calls.js";
import { DaemonRuns } from "./daemon-runs.js";
import { report, unattributedCounts } from "./servers.js";
import { settled } from "./settled.js";
import { liveTools } from "../host/live-tools.js";
import {
  buildVersion,
  configSeen,
  daemonPaths,
  type DaemonRecord,
  newCredential,
  QUIET_MS,
  readDaemonRecord,
  removeOwnRecord,
  writeDaemonRecord,
} from "./daemon-file.js";

/** The idle check runs this often at most (a short idle time is checked more often). */
const IDLE_CHECK_MS = 30_000;

export interface DaemonSideOptions {
  kind: DaemonRecord["kind"];
  stateDir: string;
  warnings: readonly string[];
  /** Called once the daemon has been idle for `config.daemon.idleMinutes`, or asked to stop. */
  stop: (why: string) => void;
}

export class DaemonSide {
  readonly routes: DaemonRoutes;
  readonly #calls: DaemonCalls;
  readonly #runs: DaemonRuns;
  readonly #credential = newCredential();
  readonly #file: string;
  readonly #startedAt = new Date().toISOString();
  #host: HttpHost | undefined;
  #idleTimer: NodeJS.Timeout | undefined;
  #statTimer: NodeJS.Timeout | undefined;
  #port = 0;

  constructor(
    private readonly gateway: Gateway,
    private readonly broker: Broker,
    private readonly options: DaemonSideOptions,
  ) {
    this.#file = daemonPaths(options.stateDir, gateway.config.file).file;
    this.#calls = new DaemonCalls(gateway, broker, ensurePrivateDir(callsDirOf(options.stateDir)), options.warnings);
    this.#runs = new DaemonRuns(gateway, broker, options.warnings);
    this.routes = createDaemonRoutes({
      credential: this.#credential,
      log: gateway.log,
      maxBodyBytes: gateway.config.limits.maxMessageBytes,
      handlers: {
        status: () => this.#status(),
        live: (what) => this.#live(what),
        call: (request) => this.#calls.call(request),
        exec: (request) => this.#runs.exec(request),
        stopCall: (callId, signal) => this.#calls.stop(callId, signal) || this.#runs.stop(callId, signal),
        refresh: (server) => this.#refresh(server),
        stop: () => options.stop("asked to stop (mcpx daemon stop)"),
      },
    });
  }

  /** Listening: write the discovery file, and (a daemon) start watching for idleness. */
  announce(host: HttpHost, port: number): void {
    this.#host = host;
    this.#port = port;
    const seen = configSeen(this.gateway.config.file);
    if (seen === undefined) return; // no config file (defaults): no command can name this config
    const record: DaemonRecord = {
      kind: this.options.kind,
      pid: process.pid,
      port,
      credential: this.#credential,
      configFile: this.gateway.config.file,
      configHash: seen.hash,
      ...(seen.stat !== undefined ? { configStat: seen.stat } : {}),
      version: buildVersion(),
      startedAt: this.#startedAt,
    };
    writeDaemonRecord(this.#file, record);
    if (seen.stat === undefined) this.#statLater(record);
    if (this.options.kind === "daemon") {
      this.#watchIdle();
      // The daemon is there to make commands cheap: its first `mcpx exec` finds a sandbox loaded.
      warmSandbox(scriptLimits(this.gateway.config.scripts).memoryBytes);
    }
  }

  /**
   * The config was changed too recently for its stat to stand for its content (configSeen): once
   * it has been left alone long enough, its stat is recorded, if the bytes are still those this
   * process runs. Until then commands hash the file; after, a warm call only stats it.
   */
  #statLater(record: DaemonRecord): void {
    this.#statTimer = setTimeout(() => {
      const seen = configSeen(record.configFile);
      // Gone or changed: the next command replaces this process. Changed and back: later still.
      if (seen === undefined || seen.hash !== record.configHash || readDaemonRecord(this.#file)?.pid !== process.pid) return;
      if (seen.stat === undefined) return void this.#statLater(record);
      writeDaemonRecord(this.#file, { ...record, configStat: seen.stat });
    }, QUIET_MS + 100);
    this.#statTimer.unref();
  }

  /** Going away: calls in flight fail as stopped, and the discovery file goes if it is still ours. */
  close(why: string): void {
    clearInterval(this.#idleTimer);
    clearTimeout(this.#statTimer);
    removeOwnRecord(this.#file);
    this.#calls.stopAll(why);
    this.#runs.stopAll(why);
  }

  get #idleMs(): number {
    return this.gateway.config.daemon.idleMinutes * 60_000;
  }

  /** Idle: no request from a command, no host session and no call in flight for the idle time. */
  #watchIdle(): void {
    let lastBusy = Date.now();
    const every = Math.max(50, Math.min(IDLE_CHECK_MS, this.#idleMs / 4));
    this.#idleTimer = setInterval(() => {
      if (this.#calls.inFlight + this.#runs.inFlight > 0 || (this.#host?.sessionCount ?? 0) > 0) lastBusy = Date.now();
      else if (Date.now() - Math.max(lastBusy, this.routes.lastRequestAt) >= this.#idleMs) {
        this.options.stop(`idle for ${this.gateway.config.daemon.idleMinutes} minutes`);
      }
    }, every);
  }

  #status(): JsonObject {
    return {
      kind: this.options.kind,
      pid: process.pid,
      port: this.#port,
      version: IMPLEMENTATION.version,
      configFile: this.gateway.config.file,
      startedAt: this.#startedAt,
      idleMinutes: this.gateway.config.daemon.idleMinutes,
      lastRequestAt: new Date(this.routes.lastRequestAt).toISOString(),
      callsInFlight: this.#calls.inFlight,
      runsInFlight: this.#runs.inFlight,
      hostSessions: this.#host?.sessionCount ?? 0,
      servers: this.gateway.upstreams.map((upstream) => ({ name: upstream.name, state: upstream.state, tools: upstream.catalog.tools.length })),
    };
  }

  /** What `mcpx servers` and `mcpx tools` print, from this process's running upstreams. */
  async #live(what: "servers" | "tools"): Promise<unknown> {
    const waitedMs = await settled(this.gateway);
    const gateway = this.gateway;
    if (what === "servers") {
      const unattributed = await unattributedCounts(
        this.broker.store,
        gateway.upstreams.map((upstream) => upstream.name),
      );
      return gateway.upstreams.map((upstream) => report(upstream, gateway.catalogue, (server) => unattributed.get(server) ?? 0, waitedMs));
    }
    return liveTools(gateway);
  }

  /** Read catalogues again; each server's tool count once done (the gateway writes what it read where it keeps it). */
  async #refresh(server: string | undefined): Promise<Reply> {
    const chosen = server === undefined ? this.gateway.upstreams : this.gateway.upstreams.filter((upstream) => upstream.name === server);
    if (server !== undefined && chosen.length === 0) {
      return { status: 404, body: { error: { code: "UNKNOWN_SERVER", message: `no server named "${server}" in ${this.gateway.config.file}` } } };
    }
    await Promise.all(
      chosen.map(async (upstream) => {
        await upstream.start();
        await upstream.refresh();
      }),
    );
    // What was read is in the schema cache before the command reads it there.
    await this.gateway.flushSchemaCache();
    // Shaped as `mcpx refresh --json` reports a read: ok when the server is up to be read.
    const servers = chosen.map((upstream) => ({
      server: upstream.name,
      ok: upstream.state === "ready",
      state: upstream.state,
      tools: upstream.catalog.tools.length,
      ...(upstream.state !== "ready" && upstream.reason ? { reason: upstream.reason } : {}),
    }));
    return { status: 200, body: { servers } };
  }
}

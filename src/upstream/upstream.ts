/**
 * One configured upstream MCP server: its connection, handshake, catalogue, and restarts.
 *
 * mcpx is the client here. It offers the newest legacy revision and speaks whatever the
 * server answers. A failed start or a crash never touches other upstreams: the upstream
 * goes `down` with a reason and is restarted with backoff.
 */
import type { ServerConfig } from "../config/types.js";
import type { Arrival, Channel } from "../rpc/channel.js";
import { Peer, type IncomingContext } from "../rpc/peer.js";
import { ErrorCode, isObject, type JsonObject, type JsonRpcNotification, type RequestId } from "../protocol/jsonrpc.js";
import { GatewayError, RpcError } from "../protocol/errors.js";
import { lookupTable } from "../protocol/lookup.js";
import { acceptableFromUpstream, defines, LATEST_LEGACY, LEGACY_REVISIONS, type Revision } from "../protocol/revisions.js";
import { IMPLEMENTATION } from "../version.js";
import type { Logger } from "../util/log.js";
import { sleep } from "../util/sleep.js";
import { CATALOG_PARTS, emptyCatalog, fetchAll, type Catalog, type CatalogPart } from "./catalog.js";
import { legacySseChannel, stdioChannel, streamableHttpChannel } from "./connect.js";
import { NotStreamableHttp, StreamableHttpChannel } from "./http-channel.js";
import { StderrTail } from "./stderr-tail.js";
import type { OversizedMessage, ReportsOversized } from "../rpc/oversized.js";
import type { Pressure } from "../rpc/pressure.js";
import type { ReadLimits } from "./read-limits.js";

const MESSAGE_LIMIT = "limits.maxUpstreamMessageBytes";

export type UpstreamState = "starting" | "ready" | "down" | "stopped" | "disabled";

/** Whoever made a call through mcpx; opaque here, meaningful to the host layer. */
export type CallOwner = object;

/**
 * A request or notification from the server may belong to these calls: the one whose stream it
 * came on, or every call in flight when it came on no call's stream. Which of them it belongs to,
 * if any can be proven, is for the host layer to decide (design rule 5).
 */
export type Candidates = CallOwner[];

export interface UpstreamEvents {
  /** A request from the server (elicitation, sampling, roots: the gateway answers), with the calls it may belong to. */
  question(upstream: Upstream, context: IncomingContext, candidates: Candidates): Promise<JsonObject>;
  notification(upstream: Upstream, notification: JsonRpcNotification, candidates: Candidates): void;
  /** The catalogue or the state changed. */
  changed(upstream: Upstream, what: CatalogPart | "state"): void;
}

export interface UpstreamLimits {
  /** The largest message read from the server (`limits.maxUpstreamMessageBytes`). */
  maxUpstreamMessageBytes: number;
  startupTimeoutMs: number;
  /** The host's backpressure: while blocked, what the server sends is not read. */
  pressure?: Pressure;
}

/** A limit this connection's messages went over, for `mcpx servers`. */
export interface LimitHit {
  /** The setting, e.g. `limits.maxUpstreamMessageBytes`, and its value. */
  limit: string;
  limitBytes: number;
  /** Messages dropped for it, and the largest (at least; one cut off unread counts what was read). */
  dropped: number;
  largestBytes: number;
}

export interface CallOptions {
  owner?: CallOwner;
  signal?: AbortSignal;
  onProgress?: (params: JsonObject) => void;
}

/** The catalogue parts each list_changed notification re-reads; keyed by what the server sends. */
const REFRESH = lookupTable<CatalogPart[]>({
  "notifications/tools/list_changed": ["tools"],
  "notifications/prompts/list_changed": ["prompts"],
  "notifications/resources/list_changed": ["resources", "resourceTemplates"],
});

const BACKOFF_MS = [1_000, 2_000, 4_000, 8_000, 16_000, 30_000];
/** The retry hint given while a start attempt is under way. */
const START_UNDER_WAY_RETRY_MS = 1_000;
/** An upstream that stayed up this long is healthy again: its next crash restarts quickly. */
const STABLE_MS = 10_000;

export class Upstream {
  state: UpstreamState = "starting";
  reason: string | undefined;
  revision: Revision | undefined;
  serverInfo: JsonObject | undefined;
  capabilities: JsonObject = {};
  instructions: string | undefined;
  catalog: Catalog = emptyCatalog();
  transport: "stdio" | "streamable-http" | "sse" | undefined;
  restarts = 0;
  /**
   * The last lines a stdio server wrote to stderr during its latest start (and run): what a
   * person needs to see when it is down. Kept for the CLI, never put in errors hosts see.
   */
  readonly stderrTail = new StderrTail();
  /** Limits its messages went over since mcpx started it (kept across restarts). */
  readonly limitsHit: LimitHit[] = [];

  #peer: Peer | undefined;
  #stopping = false;
  #attempt = 0;
  #readyAt = 0;
  #progressCounter = 0;
  /** Exited after being ready, and not yet back or failed again: its catalogue is still the last one it listed. */
  #restarting = false;
  /** When the next start attempt is due (epoch ms), while one is scheduled. */
  #retryAt: number | undefined;
  readonly #calls = new Map<RequestId, CallOwner>();
  readonly #stopper = new AbortController();
  #firstStart: Promise<void> | undefined;
  #stopped: Promise<void> | undefined;

  constructor(
    readonly config: ServerConfig,
    private readonly events: UpstreamEvents,
    private readonly log: Logger,
    private readonly limits: UpstreamLimits,
    /** Set for a connection that belongs to one host (`sharing: "per-host"`); opaque here. */
    readonly scope?: object,
  ) {
    if (config.disabled) this.state = "disabled";
  }

  get name(): string {
    return this.config.name;
  }

  /** Start, and resolve once the first attempt has succeeded or failed. Never rejects. */
  start(): Promise<void> {
    if (this.state === "disabled") return Promise.resolve();
    this.#firstStart ??= this.#connect();
    return this.#firstStart;
  }

  /** Stop for good. Every caller waits for the same shutdown, which may take the kill grace periods. */
  stop(): Promise<void> {
    this.#stopped ??= this.#stop();
    return this.#stopped;
  }

  async #stop(): Promise<void> {
    this.#stopping = true;
    this.#stopper.abort();
    const peer = this.#peer;
    this.#peer = undefined;
    this.#restarting = false;
    this.#setState("stopped", undefined);
    await peer?.close(new GatewayError("UPSTREAM_UNAVAILABLE", `mcpx is shutting down upstream "${this.name}"`));
  }

  /**
   * Exited after being ready and being restarted: hosts keep seeing its last catalogue (a tool
   * that is back in a second is not a tool that went away), and calls get `unavailable()`.
   */
  get restarting(): boolean {
    return this.#restarting;
  }

  /** Send a host's request on to this server. */
  call(method: string, params: JsonObject | undefined, options: CallOptions = {}): Promise<JsonObject> {
    const peer = this.#peer;
    if (!peer || this.state !== "ready") return Promise.reject(this.unavailable());
    let sent = params;
    let progressToken: string | undefined;
    if (options.onProgress) {
      progressToken = `mcpx-${this.name}-${++this.#progressCounter}`;
      const meta = isObject(params?._meta) ? params._meta : {};
      sent = { ...params, _meta: { ...meta, progressToken } };
    }
    let id: RequestId | undefined;
    const forget = (): void => {
      if (id !== undefined) this.#calls.delete(id);
    };
    const result = peer.request(method, sent, {
      timeoutMs: this.config.timeoutSeconds * 1000,
      resetTimeoutOnProgress: true,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(progressToken !== undefined && options.onProgress ? { progressToken, onProgress: options.onProgress } : {}),
      onId: (sentId) => {
        id = sentId;
        if (options.owner) this.#calls.set(sentId, options.owner);
      },
    });
    return result.then(
      (value) => (forget(), value),
      (error: unknown) => {
        forget();
        throw this.#explain(error);
      },
    );
  }

  /** Forward a notification (cancellation is handled by `call`'s signal, not here). */
  async notify(method: string, params?: JsonObject): Promise<void> {
    if (this.state === "ready") await this.#peer?.notify(method, params);
  }

  /**
   * The calls a message may belong to: the call on whose HTTP stream it came (none when that
   * is no call of a host's), else every call in flight on this connection.
   */
  candidates(arrival: Arrival): Candidates {
    if (arrival.relatedRequestId !== undefined) {
      const owner = this.#calls.get(arrival.relatedRequestId);
      return owner ? [owner] : [];
    }
    return [...new Set(this.#calls.values())];
  }

  /** Suspend the timeouts of these calls while a question of theirs waits for an answer. */
  holdTimeout(owners: Candidates): () => void {
    const peer = this.#peer;
    if (owners.length === 0 || !peer) return () => {};
    const releases = [...this.#calls].filter(([, candidate]) => owners.includes(candidate)).map(([id]) => peer.holdTimeout(id));
    return () => releases.forEach((release) => release());
  }

  /**
   * Why a call cannot go to this server now, and when to try again: `retryAfterMs` is the time
   * until the next start attempt (about a second while a start is under way), absent when no
   * restart is coming (stopped, disabled).
   */
  unavailable(): GatewayError {
    const retryAfterMs = this.#retryAfterMs();
    const why = this.reason ? `: ${this.reason}` : "";
    const back = retryAfterMs === undefined ? "" : `; mcpx is restarting it, try again in about ${Math.max(1, Math.round(retryAfterMs / 1000))} s`;
    const state = this.#restarting ? "restarting" : this.state;
    return new GatewayError("UPSTREAM_UNAVAILABLE", `upstream "${this.name}" is ${state}${why}${back}`, {
      server: this.name,
      state,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    });
  }

  #retryAfterMs(): number | undefined {
    if (this.state === "starting") return START_UNDER_WAY_RETRY_MS;
    if (this.state !== "down" || this.#retryAt === undefined) return undefined;
    return Math.max(0, this.#retryAt - Date.now());
  }

  #explain(error: unknown): unknown {
    if (error instanceof GatewayError && error.code === "UPSTREAM_EXITED") {
      return new GatewayError(
        "UPSTREAM_EXITED",
        `upstream "${this.name}" went away while the request was in flight (${error.message}); mcpx is restarting it`,
        { server: this.name },
      );
    }
    if (error instanceof GatewayError && (error.code === "UPSTREAM_TIMEOUT" || error.code === "UPSTREAM_PROTOCOL")) {
      // The server named once, in front of what went wrong; the details (a limit hit, …) kept.
      const message = error.message.startsWith(`upstream "${this.name}"`) ? error.message : `upstream "${this.name}": ${error.message}`;
      return new GatewayError(error.code, message, { ...error.details, server: this.name });
    }
    return error;
  }

  #setState(state: UpstreamState, reason: string | undefined): void {
    this.state = state;
    this.reason = reason;
    this.events.changed(this, "state");
  }

  async #connect(): Promise<void> {
    this.stderrTail.clear();
    this.#setState("starting", undefined);
    try {
      const peer = await this.#open();
      this.#peer = peer;
      peer.onclose = (reason) => this.#lost(peer, reason);
      await this.#loadCatalog(peer);
      this.#readyAt = Date.now();
      this.#restarting = false;
      this.#setState("ready", undefined);
      this.log.info("upstream ready", {
        revision: this.revision,
        transport: this.transport,
        tools: this.catalog.tools.length,
        resources: this.catalog.resources.length,
        prompts: this.catalog.prompts.length,
      });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const peer = this.#peer;
      this.#peer = undefined;
      await peer?.close().catch(() => {});
      if (this.#stopping) return;
      // A restart that failed is a server that is down: its last catalogue goes with it.
      this.#restarting = false;
      this.catalog = emptyCatalog();
      this.#setState("down", reason);
      this.log.warn("upstream failed to start", { reason });
      this.#scheduleRestart();
    }
  }

  async #open(): Promise<Peer> {
    const { config, log } = this;
    const limits: ReadLimits = {
      maxMessageBytes: this.limits.maxUpstreamMessageBytes,
      limitName: MESSAGE_LIMIT,
      ...(this.limits.pressure ? { pressure: this.limits.pressure } : {}),
    };
    if (config.kind === "stdio") {
      this.transport = "stdio";
      return this.#handshake(stdioChannel(config, log, limits, (line) => this.stderrTail.push(line)));
    }
    if (config.transport === "sse") {
      this.transport = "sse";
      return this.#handshake(legacySseChannel(config, log, limits));
    }
    try {
      this.transport = "streamable-http";
      return await this.#handshake(streamableHttpChannel(config, log, limits));
    } catch (error) {
      if (!(error instanceof NotStreamableHttp) || config.transport !== "auto") throw error;
      log.info("server refused Streamable HTTP; trying the 2024-11-05 HTTP+SSE transport", { status: error.status });
      this.transport = "sse";
      return this.#handshake(legacySseChannel(config, log, limits));
    }
  }

  /**
   * A message from the server over the size limit was dropped. The call it answered fails now,
   * rather than at its timeout; a request of the server's is refused; a notification is only logged.
   */
  #oversized(peer: Peer, channel: Channel, message: OversizedMessage): void {
    this.#recordLimit(message);
    const size = message.ended ? `of ${message.bytes} bytes` : `of more than ${message.limit} bytes`;
    const over = `a message ${size}, over ${message.limitName} (${message.limit} bytes)`;
    const details = { server: this.name, limit: message.limitName, limitBytes: message.limit, bytes: message.bytes };
    if (message.kind === "request" && message.id !== undefined) {
      this.log.warn("refused an oversized request from upstream", { ...details, id: message.id });
      const error = { code: ErrorCode.InvalidRequest, message: `Request too large: ${over}; mcpx dropped it` };
      channel.send({ jsonrpc: "2.0", id: message.id, error }).catch(() => {});
      return;
    }
    // An answer whose id was not found: it can only be that of the one call in flight, if one is.
    const id = message.kind === "notification" ? undefined : (message.id ?? (message.ended ? peer.soleOutstanding : undefined));
    const failed =
      id !== undefined &&
      peer.fail(
        id,
        (method) =>
          new GatewayError(
            "UPSTREAM_PROTOCOL",
            `upstream "${this.name}" answered ${method} with ${over}; mcpx dropped it (raise ${message.limitName} if answers this large are expected)`,
            details,
          ),
      );
    if (failed) this.log.warn("an answer from upstream was too large; its call failed", { ...details, id });
    else this.log.warn("dropped an oversized message from upstream", { ...details, kind: message.kind, ...(id === undefined ? {} : { id }) });
  }

  #recordLimit(message: OversizedMessage): void {
    let hit = this.limitsHit.find((entry) => entry.limit === message.limitName);
    if (!hit) {
      hit = { limit: message.limitName, limitBytes: message.limit, dropped: 0, largestBytes: 0 };
      this.limitsHit.push(hit);
    }
    hit.dropped++;
    hit.largestBytes = Math.max(hit.largestBytes, message.bytes);
  }

  async #handshake(channel: Channel & ReportsOversized): Promise<Peer> {
    const peer = new Peer(
      channel,
      {
        request: (context) => this.#serverRequest(context),
        notification: (notification, arrival) => this.#serverNotification(notification, arrival),
      },
      this.log,
    );
    channel.onjunk = (why) => this.log.warn("unreadable message from upstream", { why });
    channel.onoversized = (message) => this.#oversized(peer, channel, message);
    const pinned = this.config.protocol === "auto" ? undefined : this.config.protocol;
    const offered = pinned ?? LATEST_LEGACY;
    try {
      if (pinned && !LEGACY_REVISIONS.includes(pinned)) {
        throw new GatewayError("UPSTREAM_PROTOCOL", `protocol ${pinned} is configured, but mcpx does not speak the 2026-07-28 era to upstreams yet`);
      }
      await peer.start();
      const result = await peer.request(
        "initialize",
        { protocolVersion: offered, capabilities: clientCapabilities(offered), clientInfo: { ...IMPLEMENTATION } },
        { timeoutMs: this.limits.startupTimeoutMs, signal: this.#stopper.signal },
      );
      if (!acceptableFromUpstream(result.protocolVersion)) {
        throw new GatewayError(
          "UPSTREAM_PROTOCOL",
          `the server answered protocol revision ${JSON.stringify(result.protocolVersion)}, which mcpx does not speak`,
        );
      }
      if (pinned && result.protocolVersion !== pinned) {
        throw new GatewayError("UPSTREAM_PROTOCOL", `protocol ${pinned} is configured, but the server answered ${result.protocolVersion}`);
      }
      this.revision = result.protocolVersion;
      this.capabilities = isObject(result.capabilities) ? result.capabilities : {};
      this.serverInfo = isObject(result.serverInfo) ? result.serverInfo : undefined;
      this.instructions = typeof result.instructions === "string" ? result.instructions : undefined;
      if (channel instanceof StreamableHttpChannel) channel.protocolVersion = this.revision;
      await peer.notify("notifications/initialized");
      if (channel instanceof StreamableHttpChannel) channel.openListeningStream();
      return peer;
    } catch (error) {
      await peer.close().catch(() => {});
      throw error;
    }
  }

  async #loadCatalog(peer: Peer): Promise<void> {
    const catalog = emptyCatalog();
    for (const part of Object.keys(CATALOG_PARTS) as CatalogPart[]) {
      if (this.capabilities[CATALOG_PARTS[part].capability] === undefined) continue;
      catalog[part] = await this.#fetch(peer, part);
    }
    this.catalog = catalog;
  }

  async #fetch(peer: Peer, part: CatalogPart): Promise<JsonObject[]> {
    try {
      return await fetchAll((method, params) => peer.request(method, params, { timeoutMs: this.limits.startupTimeoutMs }), part);
    } catch (error) {
      // Many servers declare `resources` without implementing resources/templates/list: a part
      // the server does not implement is empty, not a reason to lose the whole server.
      if (!(error instanceof RpcError) || error.code !== ErrorCode.MethodNotFound) throw error;
      this.log.debug("the server does not implement a list method; treating it as empty", { method: CATALOG_PARTS[part].method });
      return [];
    }
  }

  async #refresh(parts: CatalogPart[]): Promise<void> {
    const peer = this.#peer;
    if (!peer || this.state !== "ready") return;
    for (const part of parts) {
      try {
        this.catalog = { ...this.catalog, [part]: await this.#fetch(peer, part) };
        this.events.changed(this, part);
      } catch (error) {
        this.log.warn("could not refresh the catalogue", { part, error });
      }
    }
  }

  #lost(peer: Peer, reason: Error): void {
    if (this.#peer !== peer || this.#stopping) return;
    this.#peer = undefined;
    this.#calls.clear();
    // The catalogue stays until the restart shows what the server lists now (`restarting`).
    this.#restarting = true;
    this.#setState("down", reason.message);
    this.log.warn("upstream went away", { reason: reason.message });
    if (Date.now() - this.#readyAt >= STABLE_MS) this.#attempt = 0;
    this.#scheduleRestart();
  }

  #scheduleRestart(): void {
    const delay = BACKOFF_MS[Math.min(this.#attempt, BACKOFF_MS.length - 1)] ?? 30_000;
    this.#attempt++;
    this.#retryAt = Date.now() + delay;
    this.log.info("restarting upstream", { inMs: delay });
    void sleep(delay, this.#stopper.signal).then(() => {
      this.#retryAt = undefined;
      if (this.#stopping) return;
      this.restarts++;
      return this.#connect();
    });
  }

  async #serverRequest(context: IncomingContext): Promise<JsonObject> {
    if (context.request.method === "ping") return {};
    return this.events.question(this, context, this.candidates(context.arrival));
  }

  #serverNotification(notification: JsonRpcNotification, arrival: Arrival): void {
    const parts = REFRESH.get(notification.method);
    if (parts) {
      void this.#refresh(parts);
      return;
    }
    this.events.notification(this, notification, this.candidates(arrival));
  }
}

/** What mcpx declares as a client, shaped for the revision it offers. */
function clientCapabilities(revision: Revision): JsonObject {
  const capabilities: JsonObject = { roots: { listChanged: true }, sampling: {} };
  if (defines(revision, "elicitation")) {
    capabilities.elicitation = defines(revision, "elicitationUrl") ? { form: {}, url: {} } : {};
  }
  return capabilities;
}

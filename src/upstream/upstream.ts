/**
 * One configured upstream MCP server: its connection, handshake, catalogue, and restarts.
 *
 * mcpx is the client here, dual-era as the spec describes: it probes with `server/discover`
 * and speaks 2026-07-28 to a server that answers it (every request with the `_meta` envelope,
 * list changes over `subscriptions/listen`, questions through `input_required` rounds), and
 * otherwise offers the newest legacy revision with `initialize` and speaks whatever the server
 * answers. `protocol` in the config forces either era. A failed start or a crash never touches
 * other upstreams: the upstream goes `down` with a reason and is restarted with backoff.
 */
import type { ServerConfig } from "../config/types.js";
import type { Arrival, Channel } from "../rpc/channel.js";
import { Peer, type IncomingContext } from "../rpc/peer.js";
import { ErrorCode, isObject, type JsonObject, type JsonRpcNotification, type RequestId } from "../protocol/jsonrpc.js";
import { GatewayError, RpcError } from "../protocol/errors.js";
import { lookupTable } from "../protocol/lookup.js";
import { acceptableFromUpstream, defines, LATEST_LEGACY, MODERN_REVISIONS, modernFromUpstream, type Revision } from "../protocol/revisions.js";
import {
  INPUT_REQUIRED_METHODS,
  isModernErrorCode,
  META,
  MODERN_ERROR,
  readDiscover,
  readOutcome,
  supportedFromError,
  withEnvelope,
  withoutMetaKeys,
} from "../protocol/modern.js";
import { IMPLEMENTATION } from "../version.js";
import type { Logger } from "../util/log.js";
import { sleep } from "../util/sleep.js";
import { CATALOG_PARTS, emptyCatalog, fetchAll, type Catalog, type CatalogPart } from "./catalog.js";
import { legacySseChannel, stdioChannel, streamableHttpChannel } from "./connect.js";
import { NotStreamableHttp, StreamableHttpChannel } from "./http-channel.js";
import { StdioChannel } from "./stdio-channel.js";
import { StderrTail } from "./stderr-tail.js";
import { eraKey, forgetEra, knownEra, rememberEra } from "./era-cache.js";
import { withInputRounds } from "./input-rounds.js";
import { Listen } from "./listen.js";
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
  /** `inputKey`: the key of a 2026-07-28 server's input request (none for a legacy server's request). */
  question(upstream: Upstream, context: IncomingContext, candidates: Candidates, inputKey?: string): Promise<JsonObject>;
  notification(upstream: Upstream, notification: JsonRpcNotification, candidates: Candidates): void;
  /** The catalogue or the state changed. */
  changed(upstream: Upstream, what: CatalogPart | "state"): void;
}

export interface UpstreamLimits {
  /** The largest message read from the server (`limits.maxUpstreamMessageBytes`). */
  maxUpstreamMessageBytes: number;
  startupTimeoutMs: number;
  /** Retries of one request a 2026-07-28 server may answer `input_required` (`limits.maxInputRounds`). */
  maxInputRounds?: number;
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
  /**
   * What a 2026-07-28 server is told the client can do for this request, in place of what mcpx
   * declares (the caller's own declaration, when only the caller can answer its questions).
   */
  clientCapabilities?: JsonObject;
}

/** The catalogue parts each list_changed notification re-reads; keyed by what the server sends. */
const REFRESH = lookupTable<CatalogPart[]>({
  "notifications/tools/list_changed": ["tools"],
  "notifications/prompts/list_changed": ["prompts"],
  "notifications/resources/list_changed": ["resources", "resourceTemplates"],
});

const BACKOFF_MS = [1_000, 2_000, 4_000, 8_000, 16_000, 30_000];
/** A stdio server that has not answered `server/discover` by then is taken for a legacy one (the spec's "reasonable timeout"). */
const DISCOVER_PROBE_MS = 5_000;
const DEFAULT_MAX_INPUT_ROUNDS = 8;
/**
 * What mcpx declares to a 2026-07-28 server in every request: it can take every kind of
 * question (the broker holds what no host can answer), as it declares to legacy servers.
 */
const MODERN_CAPABILITIES: JsonObject = { roots: {}, sampling: {}, elicitation: { form: {}, url: {} } };
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
  /** This connection speaks the 2026-07-28 era (no session: the envelope rides in every request). */
  #modern = false;
  #listen: Listen | undefined;
  /** The level hosts asked upstreams to log at; a modern server hears it in every request. */
  #logLevel: string | undefined;
  /** Upstream URIs hosts subscribed to; a modern server hears them on its listen stream (kept across restarts). */
  readonly #resourceSubscriptions = new Set<string>();
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
    this.#closeListen();
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
    if (!this.#peer || this.state !== "ready") return Promise.reject(this.unavailable());
    const progressToken = options.onProgress ? `mcpx-${this.name}-${++this.#progressCounter}` : undefined;
    if (!this.#modern) return this.#send(method, withoutInputFields(params), options, progressToken);
    const local = this.#modernLocally(method, params);
    if (local) return local;
    if (!INPUT_REQUIRED_METHODS.includes(method)) return this.#send(method, params, options, progressToken).then((result) => this.#complete(method, result));
    const candidates = options.owner ? [options.owner] : [];
    return withInputRounds({
      server: this.name,
      method,
      params: params ?? {},
      maxRounds: this.limits.maxInputRounds ?? DEFAULT_MAX_INPUT_ROUNDS,
      send: (round) => this.#send(method, round, options, progressToken),
      ask: (key, request, signal) => {
        const stop = options.signal ? AbortSignal.any([signal, options.signal, this.#stopper.signal]) : AbortSignal.any([signal, this.#stopper.signal]);
        const params = isObject(request.params) ? request.params : {};
        const asked = { jsonrpc: "2.0" as const, id: `input:${key}`, method: String(request.method), params };
        return this.events.question(this, { request: asked, signal: stop, arrival: {} }, candidates, key);
      },
    });
  }

  /**
   * Methods 2026-07-28 removed, done the modern way on mcpx's side: `ping` has nothing to
   * check without a session, the log level rides in each request's envelope, and resource
   * subscriptions are the listen stream's. Undefined for a method that goes to the server.
   */
  #modernLocally(method: string, params: JsonObject | undefined): Promise<JsonObject> | undefined {
    switch (method) {
      case "ping":
        return Promise.resolve({});
      case "logging/setLevel":
        this.#logLevel = typeof params?.level === "string" ? params.level : undefined;
        return Promise.resolve({});
      case "resources/subscribe":
      case "resources/unsubscribe": {
        const uri = params?.uri;
        if (typeof uri !== "string") return Promise.reject(new RpcError(ErrorCode.InvalidParams, `Invalid params: ${method} needs a "uri"`));
        if (method === "resources/subscribe") this.#resourceSubscriptions.add(uri);
        else this.#resourceSubscriptions.delete(uri);
        return (this.#listen?.update() ?? Promise.resolve()).then(() => ({}));
      }
      default:
        return undefined;
    }
  }

  /** A modern result of a method that has no input rounds: complete, or a protocol error. */
  #complete(method: string, result: JsonObject): JsonObject {
    const outcome = readOutcome(method, result);
    if (outcome.kind === "complete") return outcome.result;
    const why = outcome.kind === "invalid" ? outcome.why : `input_required, which ${method} may not answer`;
    throw new GatewayError("UPSTREAM_PROTOCOL", `upstream "${this.name}" answered ${method} with ${why}`, { server: this.name });
  }

  /** The 2026-07-28 `_meta` envelope on a request's params. */
  #envelope(params: JsonObject | undefined, clientCapabilities: JsonObject = MODERN_CAPABILITIES): JsonObject {
    return withEnvelope(params, {
      protocolVersion: this.revision ?? MODERN_REVISIONS[0]!,
      clientCapabilities,
      clientInfo: { ...IMPLEMENTATION },
      ...(this.#logLevel === undefined ? {} : { logLevel: this.#logLevel }),
    });
  }

  /** One request to the server, as the host's call (its owner, cancellation, progress). */
  #send(method: string, params: JsonObject | undefined, options: CallOptions, progressToken: string | undefined): Promise<JsonObject> {
    const peer = this.#peer;
    if (!peer || this.state !== "ready") return Promise.reject(this.unavailable());
    let sent = params;
    if (progressToken !== undefined) {
      const meta = isObject(params?._meta) ? params._meta : {};
      sent = { ...params, _meta: { ...meta, progressToken } };
    }
    if (this.#modern) sent = this.#envelope(sent, options.clientCapabilities);
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
      (value) => {
        forget();
        return value;
      },
      (error: unknown) => {
        forget();
        throw this.#explain(error);
      },
    );
  }

  /**
   * Forward a notification (cancellation is handled by `call`'s signal, not here). A 2026-07-28
   * server takes no client notification but cancellation (`notifications/roots/list_changed`
   * is gone with the session), so nothing is forwarded to one.
   */
  async notify(method: string, params?: JsonObject): Promise<void> {
    if (this.state !== "ready") return;
    if (this.#modern && this.revision && !defines(this.revision, "clientNotifications")) {
      this.log.debug("not forwarded to a 2026-07-28 server", { method });
      return;
    }
    await this.#peer?.notify(method, params);
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
    return () => {
      for (const release of releases) release();
    };
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
    this.#modern = false;
    this.#setState("starting", undefined);
    try {
      const peer = await this.#open();
      this.#peer = peer;
      peer.onclose = (reason) => this.#lost(peer, reason);
      // Listening first: a change made while the catalogue is read is then heard, not missed.
      if (this.#modern) await this.#startListening(peer);
      await this.#loadCatalog(peer);
      this.#readyAt = Date.now();
      this.#restarting = false;
      this.#setState("ready", undefined);
      this.log.info("upstream ready", {
        revision: this.revision,
        era: this.#modern ? "modern" : "legacy",
        transport: this.transport,
        tools: this.catalog.tools.length,
        resources: this.catalog.resources.length,
        prompts: this.catalog.prompts.length,
      });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const peer = this.#peer;
      this.#peer = undefined;
      this.#closeListen();
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
      if (this.#pinned() === "modern") {
        throw new GatewayError(
          "UPSTREAM_PROTOCOL",
          `protocol ${this.config.protocol} is configured, but the 2024-11-05 HTTP+SSE transport has no 2026-07-28 era; set transport to "streamable-http" or "auto"`,
        );
      }
      this.transport = "sse";
      return this.#handshake(legacySseChannel(config, log, limits));
    }
    this.transport = "streamable-http";
    if (this.#probing()) {
      // The modern attempt has a channel of its own: a legacy session starts afresh on another.
      const channel = streamableHttpChannel(config, log, limits);
      channel.modern = true;
      channel.toolFor = (name) => this.catalog.tools.find((tool) => tool.name === name);
      const peer = this.#peerOn(channel);
      try {
        await peer.start();
        if (await this.#discover(peer)) return peer;
      } catch (error) {
        await peer.close().catch(() => {});
        throw error;
      }
      await peer.close().catch(() => {});
    }
    try {
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

  #peerOn(channel: Channel & ReportsOversized): Peer {
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
    return peer;
  }

  /** The era the config forces, if it forces one. */
  #pinned(): "modern" | "legacy" | undefined {
    const protocol = this.config.protocol;
    if (protocol === "auto") return undefined;
    return MODERN_REVISIONS.includes(protocol) ? "modern" : "legacy";
  }

  /** Try `server/discover` first: forced modern, or `auto` unless this server is known to be legacy. */
  #probing(): boolean {
    const pinned = this.#pinned();
    if (pinned) return pinned === "modern";
    return knownEra(eraKey(this.config)) !== "legacy";
  }

  /**
   * The era probe, and the modern handshake when it succeeds: true once the connection speaks
   * 2026-07-28; false when the server is a legacy one (`auto` only). A recognised modern error
   * proves the server modern: no fallback then, the start fails with what it said. On stdio
   * anything else, a timeout included, means legacy; on HTTP so does any answer (an error
   * status, a JSON-RPC error that is not a modern one), but not a server that cannot be reached
   * or does not answer at all.
   */
  async #discover(peer: Peer): Promise<boolean> {
    const pinned = this.#pinned() === "modern";
    const stdio = this.config.kind === "stdio";
    const timeoutMs = pinned || !stdio ? this.limits.startupTimeoutMs : Math.min(this.limits.startupTimeoutMs, DISCOVER_PROBE_MS);
    const envelope = withEnvelope(undefined, {
      protocolVersion: this.#offeredModern(),
      clientCapabilities: MODERN_CAPABILITIES,
      clientInfo: { ...IMPLEMENTATION },
    });
    let result: JsonObject;
    try {
      result = await peer.request("server/discover", envelope, { timeoutMs, signal: this.#stopper.signal });
    } catch (error) {
      if (error instanceof RpcError && isModernErrorCode(error.code)) throw this.#modernRefusal(error);
      const reached = error instanceof RpcError || (error instanceof GatewayError && error.details?.status !== undefined);
      const legacy = stdio ? !peer.closed : reached;
      if (pinned || !legacy) {
        const why = error instanceof Error ? error.message : String(error);
        throw new GatewayError("UPSTREAM_PROTOCOL", pinned ? `protocol ${this.config.protocol} is configured, but server/discover failed: ${why}` : why);
      }
      this.log.info("the server does not speak 2026-07-28 (server/discover failed); trying the legacy handshake", {
        error: error instanceof Error ? error.message : String(error),
      });
      return false;
    }
    const discovered = readDiscover(result);
    const revision = discovered && modernFromUpstream(discovered.supportedVersions);
    if (!discovered || !revision) {
      const said = discovered ? `supports ${discovered.supportedVersions.join(", ")}` : "answered server/discover with something that is not a DiscoverResult";
      if (pinned) throw new GatewayError("UPSTREAM_PROTOCOL", `protocol ${this.config.protocol} is configured, but the server ${said}`);
      this.log.info("the server's server/discover offers no revision of the 2026-07-28 era mcpx speaks; trying the legacy handshake", { said });
      return false;
    }
    this.revision = revision;
    this.capabilities = discovered.capabilities;
    this.serverInfo = discovered.serverInfo;
    this.instructions = discovered.instructions;
    this.#modern = true;
    if (!pinned) rememberEra(eraKey(this.config), "modern");
    return true;
  }

  /** The modern revision asked for in the probe: the pinned one, else the newest mcpx speaks. */
  #offeredModern(): Revision {
    const protocol = this.config.protocol;
    return protocol !== "auto" && MODERN_REVISIONS.includes(protocol) ? protocol : MODERN_REVISIONS.at(-1)!;
  }

  /** A modern server refused the probe: why, in words (and what it supports, for -32022). */
  #modernRefusal(error: RpcError): GatewayError {
    if (error.code === MODERN_ERROR.UnsupportedProtocolVersion) {
      const supported = supportedFromError(error.data);
      const list = supported?.length ? supported.join(", ") : "no version it named";
      return new GatewayError("UPSTREAM_PROTOCOL", `the server speaks the 2026-07-28 era but supports ${list}, none of which mcpx speaks`, { supported });
    }
    return new GatewayError("UPSTREAM_PROTOCOL", `the server refused server/discover: ${error.message} (${error.code})`);
  }

  async #handshake(channel: Channel & ReportsOversized): Promise<Peer> {
    const peer = this.#peerOn(channel);
    const pinned = this.config.protocol === "auto" ? undefined : this.config.protocol;
    const offered = pinned ?? LATEST_LEGACY;
    const key = eraKey(this.config);
    try {
      await peer.start();
      // On stdio the probe and the legacy handshake share the process, as the spec has it.
      if (channel instanceof StdioChannel && this.#probing() && (await this.#discover(peer))) return peer;
      const result = await peer
        .request(
          "initialize",
          { protocolVersion: offered, capabilities: clientCapabilities(offered), clientInfo: { ...IMPLEMENTATION } },
          { timeoutMs: this.limits.startupTimeoutMs, signal: this.#stopper.signal },
        )
        .catch((error: unknown) => {
          // A server taken for legacy that answers like a modern one: probe again next time.
          if (error instanceof RpcError && isModernErrorCode(error.code)) forgetEra(key);
          throw error;
        });
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
      if (!pinned) rememberEra(key, "legacy");
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
      return await fetchAll(
        (method, params) =>
          this.#modern
            ? peer.request(method, this.#envelope(params), { timeoutMs: this.limits.startupTimeoutMs }).then((result) => this.#complete(method, result))
            : peer.request(method, params, { timeoutMs: this.limits.startupTimeoutMs }),
        part,
      );
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

  /** Open the listen stream of a modern connection (bounded: a server slow to acknowledge does not hold up the start). */
  async #startListening(peer: Peer): Promise<void> {
    this.#listen = new Listen({
      request: (params, options) => peer.request("subscriptions/listen", this.#envelope(params), options),
      capabilities: () => this.capabilities,
      resources: () => this.#resourceSubscriptions,
      reopened: () =>
        void this.#refresh((Object.keys(CATALOG_PARTS) as CatalogPart[]).filter((part) => this.capabilities[CATALOG_PARTS[part].capability] !== undefined)),
      log: this.log,
      ackTimeoutMs: this.limits.startupTimeoutMs,
    });
    await this.#listen.update();
  }

  #closeListen(): void {
    this.#listen?.close();
    this.#listen = undefined;
  }

  #lost(peer: Peer, reason: Error): void {
    if (this.#peer !== peer || this.#stopping) return;
    this.#peer = undefined;
    this.#closeListen();
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
    if (this.#modern) {
      // 2026-07-28 has no server-to-client requests: its questions come in input_required results.
      this.log.warn("a 2026-07-28 server sent a request; refused", { method: context.request.method });
      throw new RpcError(ErrorCode.MethodNotFound, `Method not found: ${context.request.method} (a 2026-07-28 server asks through input_required results)`);
    }
    if (context.request.method === "ping") return {};
    return this.events.question(this, context, this.candidates(context.arrival));
  }

  #serverNotification(received: JsonRpcNotification, arrival: Arrival): void {
    let notification = received;
    if (this.#modern && isObject(received.params)) {
      const subscription = isObject(received.params._meta) ? received.params._meta[META.subscriptionId] : undefined;
      if (received.method === "notifications/subscriptions/acknowledged") {
        this.#listen?.acknowledged(subscription, received.params);
        return;
      }
      // Which of mcpx's streams carried it is this connection's business, not the hosts'.
      notification = { ...received, params: withoutMetaKeys(received.params, [META.subscriptionId]) };
    }
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

/** A legacy server has no multi round-trip requests: a modern host's unasked answers are not for it. */
function withoutInputFields(params: JsonObject | undefined): JsonObject | undefined {
  if (params?.inputResponses === undefined && params?.requestState === undefined) return params;
  const { inputResponses: _answers, requestState: _state, ...rest } = params;
  return rest;
}

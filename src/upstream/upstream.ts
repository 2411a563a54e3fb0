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
import type { OversizedMessage, ReportsOversized } from "../rpc/oversized.js";
import type { Pressure } from "../rpc/pressure.js";
import { ErrorCode, isObject, type JsonObject, type JsonRpcNotification } from "../protocol/jsonrpc.js";
import { GatewayError, RpcError } from "../protocol/errors.js";
import { defines, LATEST_LEGACY, MODERN_REVISIONS, type Revision } from "../protocol/revisions.js";
import { INPUT_REQUIRED_METHODS } from "../protocol/modern.js";
import type { Logger } from "../util/log.js";
import { emptyCatalog, fetchPart, offeredParts, readCatalog, REFRESHED_BY, type Catalog, type CatalogPart } from "./catalog.js";
import { CallsInFlight, withProgressToken, type CallOptions, type CallOwner, type Candidates } from "./calls.js";
import { MODERN_CAPABILITIES, modernEnvelope } from "./client-capabilities.js";
import { declaresTasksExtension, withTasksExtension } from "../protocol/modern-tasks.js";
import { isLegacyCreatedTask, requiresTask, waitForLegacyTask, waitForTask } from "./task-wait.js";
import type { ServerHello } from "./era-probe.js";
import { openConnection, type Transport } from "./handshake.js";
import { BadHeaderTools } from "./header-declarations.js";
import { completeWithoutRounds, inputQuestion, withInputRounds, withoutInputFields } from "./input-rounds.js";
import { fromListenStream, Listen } from "./listen.js";
import { LANE_METHODS, LegacyLane } from "./legacy-lane.js";
import { eraKey } from "./era-cache.js";
import { StreamableHttpChannel } from "./http-channel.js";
import { handleOversized, type LimitHit } from "./oversized-messages.js";
import { RemovedMethods } from "./removed-methods.js";
import { RestartBackoff } from "./restart-backoff.js";
import { StderrTail } from "./stderr-tail.js";
import type { UpstreamAuthorizer } from "./oauth/authorizer.js";
import type { OAuthContext } from "./oauth/context.js";
import { LOCAL_IDENTITY } from "./oauth/types.js";
import { signInFailed, signInFor, waitingForSignIn, type SignInHost } from "./sign-in.js";
import { SignInWait } from "./sign-in-wait.js";
import { explainCallError, unavailableError } from "./upstream-errors.js";

const MESSAGE_LIMIT = "limits.maxUpstreamMessageBytes";
const DEFAULT_MAX_INPUT_ROUNDS = 8;
/** The lane speaks Streamable HTTP to an HTTP server found modern there (no HTTP+SSE fallback). */
const laneTransport = (config: ServerConfig): Partial<ServerConfig> => (config.kind === "http" ? { transport: "streamable-http" } : {});
/** How long a host's resources/subscribe waits for the server to acknowledge the new listen stream. */
const SUBSCRIBE_ACK_WAIT_MS = 2_000;

export type UpstreamState = "starting" | "ready" | "down" | "stopped" | "disabled";

export interface UpstreamEvents {
  /** A request from the server (elicitation, sampling, roots: the gateway answers), with the calls it may belong to. */
  /** `inputKey`: the key of a 2026-07-28 server's input request (none for a legacy server's request). */
  question(upstream: Upstream, context: IncomingContext, candidates: Candidates, inputKey?: string): Promise<JsonObject>;
  notification(upstream: Upstream, notification: JsonRpcNotification, candidates: Candidates): void;
  /** The catalogue or the state changed. */
  changed(upstream: Upstream, what: CatalogPart | "state"): void;
  /** How this process signs in to servers that require OAuth (absent: a 401 is an error). */
  oauth?: OAuthContext;
  /**
   * A call (`owner`) waits for the sign-in whose question (`elicitationId`) was raised before it
   * came: its host may be asked too, until `signal` aborts.
   */
  signInWaiter?(upstream: Upstream, elicitationId: string, owner: CallOwner, signal: AbortSignal | undefined): void;
  /**
   * A tool call about to go to the server: a person may have to allow it first (approvals).
   * Resolves with the result to give instead when it is refused, else undefined. Absent: none are held.
   */
  approve?(upstream: Upstream, params: JsonObject, options: CallOptions): Promise<JsonObject | undefined>;
  /** A tool call ended (for the audit trail). */
  called?(upstream: Upstream, params: JsonObject, options: CallOptions, ended: CallEnd): void;
  /** Send one request of a caller's inside `send` (telemetry's span; it may add its trace context to `_meta`). Absent: sent as is. */
  traceRequest?(
    upstream: Upstream,
    method: string,
    params: JsonObject | undefined,
    options: CallOptions,
    send: (params: JsonObject | undefined) => Promise<JsonObject>,
  ): Promise<JsonObject>;
}

/** How a tool call ended: ok, an isError result, an error, or refused before it went (approvals). */
export interface CallEnd {
  outcome: "ok" | "error" | "failed" | "refused";
  durationMs: number;
  detail?: string;
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

export class Upstream {
  state: UpstreamState = "starting";
  reason: string | undefined;
  revision: Revision | undefined;
  serverInfo: JsonObject | undefined;
  capabilities: JsonObject = {};
  instructions: string | undefined;
  catalog: Catalog = emptyCatalog();
  transport: Transport | undefined;
  restarts = 0;
  /**
   * The last lines a stdio server wrote to stderr during its latest start (and run): what a
   * person needs to see when it is down. Kept for the CLI, never put in errors hosts see.
   */
  readonly stderrTail = new StderrTail();
  /** Limits its messages went over since mcpx started it (kept across restarts). */
  readonly limitsHit: LimitHit[] = [];

  #peer: Peer | undefined;
  /** Signs in to an HTTP server that requires OAuth (sign-in.ts); absent for the others. */
  /** Made before the first connection (sign-in.ts loads its module then). */
  #authorizer: UpstreamAuthorizer | undefined;
  readonly #authorizerMade: () => Promise<UpstreamAuthorizer | undefined>;
  #authorizerReady: Promise<UpstreamAuthorizer | undefined> | undefined;
  /** The channel the peer reads (what kind of connection it is). */
  #channel: Channel | undefined;
  /** For a server found to speak 2026-07-28 under `auto`: the legacy connection for legacy callers. */
  #legacyLane: LegacyLane<Upstream> | undefined;
  /** This connection speaks the 2026-07-28 era (no session: the envelope rides in every request). */
  #modern = false;
  #listen: Listen | undefined;
  /** The modern server's tools left out for their x-mcp-header declarations. */
  readonly #badHeaderTools: BadHeaderTools;
  /** The log level and resource subscriptions hosts set, for a modern server (kept across restarts). */
  readonly #removed = new RemovedMethods();
  #stopping = false;
  readonly #backoff = new RestartBackoff();
  #progressCounter = 0;
  /** Exited after being ready, and not yet back or failed again: its catalogue is still the last one it listed. */
  #restarting = false;
  readonly #calls = new CallsInFlight();
  readonly #stopper = new AbortController();
  #firstStart: Promise<void> | undefined;
  /** The start attempt in flight or last made (a restart's too); it never rejects. */
  #attempt: Promise<void> | undefined;
  #stopped: Promise<void> | undefined;
  /** Ends the start attempt in flight (it turned out to wait for a person's sign-in). */
  #attemptStop: AbortController | undefined;
  /** The sign-in a start waits for (sign-in-wait.ts): no restart by backoff, the sign-in starts it; calls wait for it. */
  readonly #signIn = new SignInWait();

  constructor(
    readonly config: ServerConfig,
    private readonly events: UpstreamEvents,
    private readonly log: Logger,
    private readonly limits: UpstreamLimits,
    /** Set for a connection that belongs to one host (`sharing: "per-host"`); opaque here. */
    readonly scope?: object,
    /** A legacy lane of another connection (legacy-lane.ts): a first start that fails is an answer, not an outage. */
    private readonly lane = false,
    /** Whose sign-ins this connection uses (oauth/): the person running mcpx unless a host's identity is given. */
    readonly identity: string = LOCAL_IDENTITY,
  ) {
    if (config.disabled) this.state = "disabled";
    this.#authorizerMade = () => signInFor(config, identity, events.oauth, this.#signInHost(), log);
    this.#badHeaderTools = new BadHeaderTools(config.name, log);
  }

  get name(): string {
    return this.config.name;
  }

  /** Start, and resolve once the first attempt has succeeded or failed. Never rejects. */
  start(): Promise<void> {
    if (this.state === "disabled") return Promise.resolve();
    this.#firstStart ??= this.#attemptStart();
    return this.#firstStart;
  }

  /**
   * Resolve once no start attempt is in flight: ready, or down with its reason. A restart that
   * began after the first attempt is waited for too, so a report never shows `starting` for a
   * server whose process already failed. Each attempt is bounded by the startup timeout.
   */
  async settled(): Promise<void> {
    let attempt = this.#attempt;
    while (attempt && this.state === "starting") {
      await attempt;
      if (this.#attempt === attempt) return;
      attempt = this.#attempt;
    }
  }

  #attemptStart(): Promise<void> {
    this.#attempt = this.#connect();
    return this.#attempt;
  }

  /** Stop for good. Every caller waits for the same shutdown, which may take the kill grace periods. */
  stop(): Promise<void> {
    this.#stopped ??= this.#stop();
    return this.#stopped;
  }

  async #stop(): Promise<void> {
    this.#stopping = true;
    this.#stopper.abort();
    const lane = this.#legacyLane?.stop();
    const peer = this.#peer;
    this.#peer = undefined;
    this.#closeListen();
    this.#restarting = false;
    this.#setState("stopped", undefined);
    await peer?.close(new GatewayError("UPSTREAM_UNAVAILABLE", `mcpx is shutting down upstream "${this.name}"`));
    await lane;
  }

  /**
   * Exited after being ready and being restarted: hosts keep seeing its last catalogue (a tool
   * that is back in a second is not a tool that went away), and calls get `unavailable()`.
   */
  get restarting(): boolean {
    return this.#restarting;
  }

  /** Over HTTP, a legacy handshake that gave no session (the server can send no request on it). */
  get sessionless(): boolean {
    return !this.#modern && this.#channel instanceof StreamableHttpChannel && this.#channel.sessionId === undefined;
  }

  /**
   * Send a host's request on to this server: a legacy caller's call to a server that speaks both
   * eras on the legacy connection (legacy-lane.ts), anything else on this one.
   */
  call(method: string, params: JsonObject | undefined, options: CallOptions = {}): Promise<JsonObject> {
    if (method === "tools/call" && !options.gated && (this.events.approve || this.events.called)) return this.#gatedCall(params ?? {}, options);
    const lane = this.#modern ? this.#legacyLane : undefined;
    if (lane) {
      if (options.legacyCaller && LANE_METHODS.has(method)) {
        return lane.connection().then((legacy) => (legacy ? legacy.call(method, params, options) : this.#call(method, params, options)));
      }
      // The log level hosts ask for reaches both connections.
      if (method === "logging/setLevel") void lane.ready?.call(method, params).catch(() => {});
    }
    return this.#call(method, params, options);
  }

  /**
   * The legacy connection a legacy caller's calls go on (a server found modern that speaks both
   * eras: legacy-lane.ts), opened if need be; undefined for any other, or while it cannot be had.
   */
  legacyLane(): Promise<Upstream | undefined> {
    const lane = this.#modern ? this.#legacyLane : undefined;
    return lane ? lane.connection() : Promise.resolve(undefined);
  }

  /** A tool call through the gateway's checks, once whatever connection it ends on: a person's approval first (when one is needed), the audit trail after. */
  async #gatedCall(params: JsonObject, options: CallOptions): Promise<JsonObject> {
    const started = performance.now();
    const ended: CallEnd = { outcome: "failed", durationMs: 0 };
    try {
      const refused = await this.events.approve?.(this, params, options);
      if (refused) {
        ended.outcome = "refused";
        return refused;
      }
      const result = await this.call("tools/call", params, { ...options, gated: true });
      ended.outcome = result.isError === true ? "error" : "ok";
      return result;
    } catch (error) {
      ended.detail = error instanceof Error ? error.message : String(error);
      throw error;
    } finally {
      ended.durationMs = Math.round(performance.now() - started);
      this.events.called?.(this, params, options, ended);
    }
  }

  #call(method: string, params: JsonObject | undefined, options: CallOptions): Promise<JsonObject> {
    // Down only until a person signs in: the call waits for that (as long as the sign-in may take), then goes.
    if (this.state === "down" && this.#signIn.waiting) return this.#untilSignedIn(options).then(() => this.#call(method, params, options));
    if (!this.#peer || this.state !== "ready") return Promise.reject(this.unavailable());
    const progressToken = options.onProgress ? `mcpx-${this.name}-${++this.#progressCounter}` : undefined;
    if (!this.#modern) return this.#legacyCall(method, withoutInputFields(params), options, progressToken);
    const refused = method === "tools/call" ? this.#badHeaderTools.refusal(params) : undefined;
    if (refused) return Promise.reject(refused);
    const local = this.#removed.answer(method, params, () => this.#listen?.update(SUBSCRIBE_ACK_WAIT_MS) ?? Promise.resolve());
    if (local !== undefined) return local;
    if (!INPUT_REQUIRED_METHODS.includes(method)) {
      return this.#send(method, params, options, progressToken).then((result) => completeWithoutRounds(this.name, method, result));
    }
    const candidates = options.owner ? [options.owner] : [];
    return withInputRounds({
      server: this.name,
      method,
      params: params ?? {},
      maxRounds: this.limits.maxInputRounds ?? DEFAULT_MAX_INPUT_ROUNDS,
      revision: this.revision,
      send: (round) => this.#send(method, round, options, progressToken),
      ask: (key, request, signal) => {
        const stop = AbortSignal.any([signal, ...(options.signal ? [options.signal] : []), this.#stopper.signal]);
        return this.events.question(this, inputQuestion(key, request, stop), candidates, key);
      },
      // The tasks extension (task-wait.ts): relayed to a caller that takes tasks, else waited for.
      task: (created) => (options.relayTask ? Promise.resolve(created) : this.#waitForTask(created, options, candidates)),
    });
  }

  /**
   * A request to a legacy-era server. A tool call whose tool must run as a task, from a caller
   * that asked for none, is made a task by mcpx, and (like a task the server made unasked) waited
   * for on the caller's behalf (task-wait.ts).
   */
  #legacyCall(method: string, params: JsonObject | undefined, options: CallOptions, progressToken: string | undefined): Promise<JsonObject> {
    if (method !== "tools/call" || params?.task !== undefined) return this.#send(method, params, options, progressToken);
    const tasks = isObject(this.capabilities.tasks) ? this.capabilities.tasks : {};
    const sent = requiresTask(this.catalog.tools, params?.name) && isObject(tasks.requests) ? { ...params, task: {} } : params;
    return this.#send(method, sent, options, progressToken).then((result) => {
      if (!isLegacyCreatedTask(result)) return result;
      return waitForLegacyTask({
        server: this.name,
        created: result,
        cancels: isObject(tasks.cancel),
        send: (taskMethod, taskParams) => this.#send(taskMethod, taskParams, { ...options, onProgress: undefined }, undefined),
      });
    });
  }

  #waitForTask(created: JsonObject, options: CallOptions, candidates: CallOwner[]): Promise<JsonObject> {
    return waitForTask({
      server: this.name,
      created,
      timeoutMs: this.config.timeoutSeconds * 1000,
      signal: options.signal,
      send: (method, params) => this.#send(method, params, { ...options, onProgress: undefined }, undefined),
      ask: (key, request, signal) => {
        const stop = AbortSignal.any([signal, this.#stopper.signal]);
        return this.events.question(this, inputQuestion(key, request, stop), candidates, key);
      },
    });
  }

  /** The 2026-07-28 `_meta` envelope on a request's params. */
  #envelope(params: JsonObject | undefined, clientCapabilities?: JsonObject): JsonObject {
    // mcpx takes the tasks of a server that offers them: it relays them or waits for them (task-wait.ts).
    const declared = declaresTasksExtension(this.capabilities) ? withTasksExtension(clientCapabilities ?? MODERN_CAPABILITIES) : clientCapabilities;
    return modernEnvelope(params, this.revision ?? MODERN_REVISIONS[0]!, declared, this.#removed.logLevel);
  }

  /** One request to the server, as the host's call (its owner, cancellation, progress). */
  #send(method: string, params: JsonObject | undefined, options: CallOptions, progressToken: string | undefined): Promise<JsonObject> {
    const peer = this.#peer;
    if (!peer || this.state !== "ready") return Promise.reject(this.unavailable());
    let sent = withProgressToken(params, progressToken);
    if (this.#modern) sent = this.#envelope(sent, options.clientCapabilities);
    const timeoutMs = this.config.timeoutSeconds * 1000;
    const traced = this.events.traceRequest;
    const sending = traced
      ? traced(this, method, sent, options, (params) => this.#calls.send(peer, method, params, options, timeoutMs, progressToken))
      : this.#calls.send(peer, method, sent, options, timeoutMs, progressToken);
    return sending.catch((error: unknown) => {
      throw explainCallError(this.name, error);
    });
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

  /** The calls a message that arrived so may belong to (calls.ts). */
  candidates(arrival: Arrival): Candidates {
    return this.#calls.candidates(arrival);
  }

  /** Suspend the timeouts of these calls while a question of theirs waits for an answer. */
  holdTimeout(owners: Candidates): () => void {
    const peer = this.#peer;
    if (owners.length === 0 || !peer) return () => {};
    return this.#calls.holdTimeout(peer, owners);
  }

  /**
   * Down for want of a sign-in (`waiting`: a person is being asked; `failed`: the last one ended
   * without a token), or undefined: no sign-in stands between hosts and this server.
   */
  get signInNeeded(): "waiting" | "failed" | undefined {
    if (this.state !== "down" || !this.#authorizer) return undefined;
    if (this.#signIn.waiting) return "waiting";
    return this.#signIn.failed ? "failed" : undefined;
  }

  /**
   * A host asks to sign in (mcpx__sign_in, as `owner`): a server down after a sign-in that
   * failed is started again now (which asks again, the server still refusing); the question
   * goes to that host too; resolves once the sign-in and the start after it are over.
   */
  async askToSignIn(owner: CallOwner, signal?: AbortSignal): Promise<void> {
    if (!this.signInNeeded) return this.settled();
    if (!this.#signIn.waiting) await this.#attemptStart();
    if (this.state === "down" && this.#signIn.waiting) await this.#untilSignedIn({ owner, ...(signal ? { signal } : {}) });
  }

  /** A call waits for the sign-in the start waits for (its host asked too), then for the start after it. */
  async #untilSignedIn(options: Pick<CallOptions, "owner" | "signal">): Promise<void> {
    const asked = this.#signIn.asked;
    if (asked !== undefined && options.owner) this.events.signInWaiter?.(this, asked, options.owner, options.signal);
    await this.#signIn.until(options.signal);
    await this.settled();
  }

  /** Resolves once no call is in flight on this connection, or after `maxMs` whatever is left (a config reload retiring it). */
  async drained(maxMs: number): Promise<void> {
    const until = Date.now() + maxMs;
    while (this.#calls.size > 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 100));
  }

  /** Why a call cannot go to this server now, and when to try again (upstream-errors.ts). */
  unavailable(): GatewayError {
    return unavailableError({ server: this.name, state: this.state, restarting: this.#restarting, reason: this.reason, retryAt: this.#backoff.retryAt });
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
      this.catalog = await readCatalog(this.#lister(peer), this.capabilities, this.log);
      this.#backoff.ready();
      this.#signIn.failed = false;
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
      const failure = this.#signIn.failure;
      this.#signIn.failure = undefined;
      const reason = failure !== undefined ? signInFailed(this.name, failure) : error instanceof Error ? error.message : String(error);
      const peer = this.#peer;
      this.#peer = undefined;
      this.#closeListen();
      await peer?.close().catch(() => {});
      if (this.#stopping) return;
      // A restart that failed is a server that is down: its last catalogue goes with it.
      this.#restarting = false;
      this.catalog = emptyCatalog();
      if (this.#signIn.waiting) {
        // Not a failure of the server's: it starts as soon as the person has signed in.
        this.#setState("down", waitingForSignIn(this.name));
        this.log.info("upstream waits for a sign-in", { server: this.name });
        return;
      }
      this.#signIn.failed = failure !== undefined;
      this.#setState("down", reason);
      if (this.lane && this.restarts === 0) {
        this.log.info("no legacy connection to this server", { reason });
        return;
      }
      this.log.warn("upstream failed to start", { reason });
      this.#scheduleRestart();
    }
  }

  async #open(): Promise<Peer> {
    this.#authorizer = await (this.#authorizerReady ??= this.#authorizerMade());
    this.#attemptStop = new AbortController();
    return openConnection({
      config: this.config,
      log: this.log,
      startupTimeoutMs: this.limits.startupTimeoutMs,
      signal: AbortSignal.any([this.#stopper.signal, this.#attemptStop.signal]),
      readLimits: {
        maxMessageBytes: this.limits.maxUpstreamMessageBytes,
        limitName: MESSAGE_LIMIT,
        ...(this.limits.pressure ? { pressure: this.limits.pressure } : {}),
      },
      peerOn: (channel) => this.#peerOn(channel),
      onStderr: (line) => this.stderrTail.push(line),
      toolFor: (name) => this.catalog.tools.find((tool) => tool.name === name),
      trying: (transport) => {
        this.transport = transport;
      },
      ...(this.#authorizer ? { authorizer: this.#authorizer } : {}),
      heard: (hello) => this.#heard(hello),
    });
  }

  #heard(hello: ServerHello): void {
    this.revision = hello.revision;
    this.capabilities = hello.capabilities;
    this.serverInfo = hello.serverInfo;
    this.instructions = hello.instructions;
    this.#modern = hello.era === "modern";
    // Found modern under `auto`: legacy callers may need a legacy connection (a pinned protocol forces one era for all).
    if (this.#modern && this.config.protocol === "auto") this.#legacyLane ??= this.#openLegacyLane();
  }

  #openLegacyLane(): LegacyLane<Upstream> {
    const log = this.log.child({ lane: "legacy" });
    return new LegacyLane(
      eraKey(this.config),
      // Streamable HTTP only: a server that refuses it a session is not one to try HTTP+SSE on.
      () =>
        new Upstream(
          { ...this.config, protocol: LATEST_LEGACY, ...laneTransport(this.config) },
          { ...this.events, changed: () => {} },
          log,
          this.limits,
          this.scope,
          true,
          this.identity,
        ),
      log,
      async (legacy) => {
        const level = this.#removed.logLevel;
        if (level !== undefined && legacy.capabilities.logging !== undefined) await legacy.call("logging/setLevel", { level });
      },
    );
  }

  #peerOn(channel: Channel & ReportsOversized): Peer {
    this.#channel = channel;
    const peer = new Peer(
      channel,
      {
        request: (context) => this.#serverRequest(context),
        notification: (notification, arrival) => this.#serverNotification(notification, arrival),
      },
      this.log,
    );
    channel.onjunk = (why) => this.log.warn("unreadable message from upstream", { why });
    channel.onoversized = (message: OversizedMessage) => handleOversized(this.name, peer, channel, message, this.limitsHit, this.log);
    return peer;
  }

  /** How the catalogue is listed on this connection (a modern result must be complete, its tools' x-mcp-header declarations right). */
  #lister(peer: Peer): (method: string, params: JsonObject | undefined) => Promise<JsonObject> {
    const timeoutMs = this.limits.startupTimeoutMs;
    if (!this.#modern) return (method, params) => peer.request(method, params, { timeoutMs });
    return (method, params) =>
      peer
        .request(method, this.#envelope(params), { timeoutMs })
        .then((result) => completeWithoutRounds(this.name, method, result))
        .then((result) => (method === "tools/list" ? this.#badHeaderTools.filter(params, result) : result));
  }

  /** Read the whole catalogue again (`mcpx refresh`); a part that fails to read keeps what it had. */
  refresh(): Promise<void> {
    return this.#refresh(offeredParts(this.capabilities));
  }

  async #refresh(parts: CatalogPart[]): Promise<void> {
    const peer = this.#peer;
    if (!peer || this.state !== "ready") return;
    for (const part of parts) {
      try {
        this.catalog = { ...this.catalog, [part]: await fetchPart(this.#lister(peer), part, this.log) };
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
      resources: () => this.#removed.resourceSubscriptions,
      reopened: () => void this.#refresh(offeredParts(this.capabilities)),
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
    this.#backoff.lost();
    this.#scheduleRestart();
  }

  #scheduleRestart(): void {
    this.#backoff.schedule(this.#stopper.signal, this.log, () => {
      // Started meanwhile (a sign-in, a host asking to sign in), or waiting for a person: not again.
      if (this.#stopping || this.state !== "down" || this.#signIn.waiting) return undefined;
      this.restarts++;
      return this.#attemptStart();
    });
  }

  #signInHost(): SignInHost {
    return {
      question: (context, candidates) => this.events.question(this, context, candidates),
      notification: (notification, candidates) => this.events.notification(this, notification, candidates),
      candidates: (arrival) => this.candidates(arrival),
      // A start waiting for the person ends now, with that as its reason, rather than run into the startup timeout.
      asking: (prompt) => {
        if (this.state !== "starting") return;
        this.#signIn.begin();
        this.#signIn.asked = prompt.id;
        this.#attemptStop?.abort(new GatewayError("SIGN_IN_REQUIRED", waitingForSignIn(this.name)));
      },
      // A server that was down for want of a token starts at once, not at its next backoff (before the waiting calls go on).
      signedIn: () => {
        if (this.state === "down" && !this.#stopping) void this.#attemptStart();
        this.#signIn.end();
      },
      signInFailed: (why) => {
        if (!this.#signIn.waiting) return;
        if (this.state === "starting") this.#signIn.failure = why;
        else if (this.state === "down" && !this.#stopping) {
          this.#signIn.failed = true;
          this.#setState("down", signInFailed(this.name, why));
          this.#scheduleRestart();
        }
        this.#signIn.end();
      },
    };
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
    const notification = this.#modern ? fromListenStream(received, this.#listen) : received;
    if (!notification) return;
    const parts = REFRESHED_BY.get(notification.method);
    if (parts) {
      void this.#refresh(parts);
      return;
    }
    this.events.notification(this, notification, this.candidates(arrival));
  }
}

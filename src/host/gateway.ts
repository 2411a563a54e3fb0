/**
 * The gateway: every upstream behind one catalogue, every host session served from it.
 *
 * It owns the upstreams and the sessions, rebuilds the catalogue when an upstream changes,
 * and routes between them: calls down to the owning upstream, and notifications and
 * questions back up to the host that caused them.
 */
import type { Config, ServerConfig } from "../config/types.js";
import { GatewayError } from "../protocol/errors.js";
import type { JsonObject } from "../protocol/jsonrpc.js";
import { Upstream } from "../upstream/upstream.js";
import { type Catalog, type CatalogPart, emptyCatalog } from "../upstream/catalog.js";
import { lastListedTools } from "../discovery/cache-last-tools.js";
import type { Logger } from "../util/log.js";
import { within } from "../util/sleep.js";
import { Catalogue, type CatalogueSource } from "./catalogue.js";
import { type HostView, profileView } from "./profile-view.js";
import { HostConnections, type ConnectionScope } from "./host-connections.js";
import { connectionIdentity, IdentityScope } from "./identity-scope.js";
import { LOCAL_IDENTITY } from "../broker/identity.js";
import { DeliveredElicitations } from "./delivered-elicitations.js";
import { UrlQuestions } from "./url-questions.js";
import { ParkedCalls } from "./parked-calls.js";
import type { OAuthContext } from "../upstream/oauth/context.js";
import { processOAuth } from "../upstream/oauth/process-context.js";
import type { ClusterRouting } from "../cluster/routing.js";
import type { Broker } from "../broker/broker.js";
import { parseRules, type Rule } from "../broker/policy.js";
import { type CallerContext, type HostSession, LOG_LEVELS, type LogLevel } from "./session.js";
import { relayNotification } from "./notifications.js";
import { relayQuestion } from "./questions.js";
import { askWaitingCaller } from "./sign-in-callers.js";
import { approveCall, SessionAllowances } from "./approvals/gate.js";
import { recordCall } from "./audit.js";
import type { CallOptions } from "../upstream/calls.js";
import type { CallEnd } from "../upstream/upstream.js";
import { PendingQuestions } from "./pending-questions.js";
import { Pressure } from "../rpc/pressure.js";
import { listedTools, missingPinned } from "./gateway-tools/exposed-tools.js";
import { CacheWriter } from "../discovery/cache-writer.js";
import type { SharedSchemas } from "../discovery/cache-shared.js";
import { SearchIndexes } from "./gateway-tools/search-indexes.js";
import { TaskRegistry } from "./tasks/registry.js";
import { storeRecorder } from "./tasks/records.js";
import { taskQuestion } from "./tasks/task-messages.js";
import { NO_TELEMETRY, type Telemetry } from "../telemetry/telemetry.js";
import { questionEvent, RestartCounter, upstreamRequestOf } from "./telemetry-hooks.js";

const LIST_CHANGED: Record<CatalogPart, string> = {
  tools: "notifications/tools/list_changed",
  prompts: "notifications/prompts/list_changed",
  resources: "notifications/resources/list_changed",
  resourceTemplates: "notifications/resources/list_changed",
};

export class Gateway {
  /** One connection per configured server, in config order (a reload replaces the list). */
  upstreams: Upstream[];
  readonly sessions = new Set<HostSession>();
  catalogue = new Catalogue([]);
  /** Where questions wait for an answer; without one (`mcpx servers`), questions are answered cancel. */
  readonly broker: Broker | undefined;
  /** One of several instances on a shared store (cluster/): ids that say this instance holds them, and handing requests on. */
  readonly cluster: ClusterRouting | undefined;
  /** How upstreams sign in (upstream/oauth/); absent: a 401 is an error. */
  readonly oauth: OAuthContext | undefined;
  /** This process serves the web page and REST API (`serve --http`): messages may point people at them. */
  readonly servesPage: boolean;
  #rules: Rule[];
  /** URL questions delivered to hosts, awaiting the upstream's completion notification. */
  readonly delivered = new DeliveredElicitations();
  /** URL questions by connection and elicitationId, for the upstream's completions. */
  readonly urlQuestions = new UrlQuestions();
  /** The tasks relayed for hosts (host/tasks/): who owns each, and where it runs; recorded in the store when there is one. */
  readonly tasks: TaskRegistry;
  /** Host calls answered -32042 whose work goes on until the host retries them. */
  readonly parked = new ParkedCalls();
  /** What each host session's person allowed for the rest of it (approvals). */
  readonly allowances = new SessionAllowances();
  /** Questions each upstream connection has waiting, bounded by `limits.maxPendingQuestionsPerServer`. */
  readonly pendingQuestions: PendingQuestions;
  /** Set by a host that is not reading (stdio); while set, upstreams are not read. */
  readonly hostPressure = new Pressure();
  /** The search index of mcpx__search (discovery mode), built on a worker thread; the worker ends with the gateway. */
  readonly searchIndexes: SearchIndexes;
  /** Each profile's (config `profiles`) catalogue and settings, rebuilt with the gateway's catalogue. */
  #profileViews = new Map<string, HostView>();
  /** Each profile's search index: one view's build never stands in for another's. */
  readonly #profileIndexes = new Map<string, SearchIndexes>();
  #ready: Promise<void> | undefined;
  /** Where each catalogue read goes for the discovery commands (the schema cache), when this process keeps it. */
  readonly #schemaCache: CacheWriter | undefined;
  #soleHost: HostSession | undefined;
  readonly #connections = new HostConnections((server, scope) => this.#open(server, scope));
  /** Per identity (but the operator's): its connections' scope, and the sessions using them (identity-scope.ts). */
  readonly #identities = new Map<string, { scope: IdentityScope; sessions: Set<HostSession> }>();

  #config: Config;
  /** Metrics and traces (src/telemetry/); the no-op unless the process was started with them. */
  readonly telemetry: Telemetry;
  readonly #restarts: RestartCounter;
  #stopQuestionMetrics: (() => void) | undefined;
  /** When each host session opened, for its duration. */
  readonly #sessionOpened = new WeakMap<HostSession, number>();

  constructor(
    config: Config,
    readonly log: Logger,
    /**
     * `schemaCache`: the state directory whose schema cache this gateway's catalogue reads are written to
     * (and `sharedSchemas`: the store several instances share, where they are put too);
     * `oauth`: how upstreams that require OAuth sign in (absent: that state dir's credentials, with a loopback redirect).
     */
    options: {
      broker?: Broker;
      servesPage?: boolean;
      schemaCache?: string;
      sharedSchemas?: SharedSchemas;
      oauth?: OAuthContext;
      telemetry?: Telemetry;
      cluster?: ClusterRouting;
    } = {},
  ) {
    this.#config = config;
    this.cluster = options.cluster;
    this.broker = options.broker;
    this.telemetry = options.telemetry ?? NO_TELEMETRY;
    this.#restarts = new RestartCounter(this.telemetry);
    // The questions this process asks, for the metrics (telemetry/): a no-op without telemetry.
    const broker = this.broker;
    if (broker && this.telemetry !== NO_TELEMETRY) {
      this.#stopQuestionMetrics = broker.subscribe((record) => {
        if (record.ownerInstance === broker.instance) this.telemetry.question(questionEvent(record));
      });
    }
    this.tasks = new TaskRegistry(this.broker ? storeRecorder(this.broker, log) : undefined);
    this.oauth =
      options.oauth ??
      (options.schemaCache === undefined ? undefined : processOAuth(options.schemaCache, config.servers, config.elicitation.ttlSeconds * 1000));
    this.#schemaCache = options.schemaCache === undefined ? undefined : new CacheWriter(options.schemaCache, log, options.sharedSchemas);
    this.servesPage = options.servesPage ?? false;
    this.searchIndexes = new SearchIndexes({ onFallback: (reason) => log.warn(reason) });
    this.#rules = parseRules(config.elicitation.rules, config.file);
    this.pendingQuestions = new PendingQuestions(config.limits.maxPendingQuestionsPerServer);
    this.upstreams = config.servers.map((server) => this.#open(server));
  }

  /** The config in force (a reload replaces it). */
  get config(): Config {
    return this.#config;
  }

  /**
   * What `session` sees: its profile's view, or the whole catalogue. A profile the config no
   * longer has shows nothing (its hosts are refused on their next request to the HTTP path).
   */
  viewFor(session: { profileName?: string | undefined } | undefined): HostView {
    const profile = session?.profileName;
    if (profile === undefined) return { profile: undefined, config: this.#config, catalogue: this.catalogue };
    return this.#profileViews.get(profile) ?? { profile, config: { ...this.#config, servers: [], pinned: [] }, catalogue: new Catalogue([]) };
  }

  /** The search indexes of a view's discovery tools. */
  searchIndexesFor(view: HostView): SearchIndexes {
    if (view.profile === undefined) return this.searchIndexes;
    let indexes = this.#profileIndexes.get(view.profile);
    if (!indexes) this.#profileIndexes.set(view.profile, (indexes = new SearchIndexes({ onFallback: (reason) => this.log.warn(reason) })));
    return indexes;
  }

  /** `elicitation.rules`, parsed. */
  get rules(): Rule[] {
    return this.#rules;
  }

  /**
   * Apply a changed config without a restart: a server whose entry is the same keeps its
   * connection (and its hosts their sessions); a new one starts; a changed one starts afresh
   * and its old connection, like a removed server's, stops once its calls are done (at most
   * `drainMs`). Pending questions live in the store and are not touched. Hosts hear
   * `list_changed` for the lists that now read differently. The config is checked before
   * (a broken file never gets here).
   */
  reload(next: Config, drainMs = 30_000): { added: string[]; changed: string[]; removed: string[] } {
    const before = new Map(this.upstreams.map((upstream) => [upstream.name, upstream]));
    const added: string[] = [];
    const changed: string[] = [];
    const fresh: Upstream[] = [];
    const upstreams = next.servers.map((server) => {
      const old = before.get(server.name);
      if (old && JSON.stringify(old.config) === JSON.stringify(server)) {
        before.delete(server.name);
        return old;
      }
      (old ? changed : added).push(server.name);
      const upstream = this.#open(server);
      fresh.push(upstream);
      return upstream;
    });
    const removed = [...before.keys()].filter((name) => !changed.includes(name));
    this.#config = next;
    this.#rules = parseRules(next.elicitation.rules, next.file);
    this.upstreams = upstreams;
    const views = this.#views();
    this.#rebuild();
    // Each view compared with the old config's: a host hears list_changed only when its lists read differently.
    this.#announce(views, false);
    for (const upstream of fresh) void upstream.start();
    for (const old of before.values()) void this.#retire(old, drainMs);
    this.log.info("config reloaded", { added, changed, removed });
    return { added, changed, removed };
  }

  /** A server the config no longer has (or has otherwise): its connections stop once their calls are done. */
  async #retire(shared: Upstream, drainMs: number): Promise<void> {
    const connections = [shared, ...this.#connections.takeServer(shared.name)];
    await Promise.all(
      connections.map(async (upstream) => {
        await upstream.drained(drainMs);
        await upstream.stop().catch((error: unknown) => this.#failedTeardown("a retired upstream", error));
      }),
    );
  }

  /** A connection to one server: the gateway's shared one, or (with `session`) a host's or an identity's own. */
  #open(server: ServerConfig, session?: ConnectionScope): Upstream {
    const limits = {
      maxUpstreamMessageBytes: this.config.limits.maxUpstreamMessageBytes,
      pressure: this.hostPressure,
      startupTimeoutMs: this.config.limits.startupTimeoutSeconds * 1000,
      maxInputRounds: this.config.limits.maxInputRounds,
    };
    return new Upstream(
      server,
      {
        question: (upstream, context, candidates, inputKey) => {
          // A question a relayed task raises is its owner's, whatever else is in flight (host/tasks/).
          const task = taskQuestion(this.tasks, upstream, context);
          if (task?.follower) return task.follower.fromUpstream(context);
          return relayQuestion(this, upstream, task?.context ?? context, task?.candidates ?? candidates, inputKey);
        },
        signInWaiter: (upstream, elicitationId, owner, signal) => askWaitingCaller(this, upstream, elicitationId, owner as CallerContext, signal),
        approve: (upstream: Upstream, params: JsonObject, options: CallOptions) => approveCall(this, upstream, params, options),
        // Every tool call goes into the audit trail where there is a store to keep it, and into the metrics.
        called: (upstream: Upstream, params: JsonObject, options: CallOptions, ended: CallEnd) => {
          if (this.broker) recordCall(this.broker, this.log, upstream, params, options, ended);
          this.telemetry.callEnded(upstream.name, typeof params.name === "string" ? params.name : "", ended.outcome, ended.durationMs);
        },
        ...(this.telemetry.traceUpstreamRequest
          ? {
              traceRequest: (
                upstream: Upstream,
                method: string,
                params: JsonObject | undefined,
                options: CallOptions,
                send: (params: JsonObject | undefined) => Promise<JsonObject>,
              ) => this.telemetry.traceUpstreamRequest!(upstreamRequestOf(upstream, method, options.owner as CallerContext | undefined), params, send),
            }
          : {}),
        notification: (upstream, notification, candidates) => relayNotification(this, upstream, notification, candidates),
        // The catalogue comes from the shared connection; a host's own one changes only whether it must sign in.
        changed: (upstream, what) => {
          if (what === "state") this.#restarts.changed(upstream);
          return session ? this.#scopedChanged(upstream, session, what) : this.#changed(upstream, what);
        },
        ...(this.oauth ? { oauth: this.oauth } : {}),
      },
      this.log.child({
        server: server.name,
        ...(session instanceof IdentityScope ? { identity: session.identity } : session ? { session: session.id } : {}),
      }),
      limits,
      session,
      false,
      // Whose upstream tokens this connection uses: the signed-in identity's, else the operator's.
      connectionIdentity(session),
    );
  }

  /**
   * The connection `session`'s requests to `server` go on: its own when the server is per-host;
   * its identity's own for an HTTP server when the host signed in as one (identity-scope.ts).
   */
  async connectionFor(session: HostSession | undefined, server: string): Promise<Upstream | undefined> {
    const shared = this.upstream(server);
    if (!shared || !session) return shared;
    const perIdentity = shared.config.kind === "http" && session.identity !== LOCAL_IDENTITY;
    if (shared.config.sharing !== "per-host" && !perIdentity) return shared;
    const scope = session.connectionScope;
    // A session already closed must not start a connection nobody would stop.
    if (scope.closed) throw new GatewayError("CONNECTION_CLOSED", "the host's session has ended");
    if (shared.config.sharing === "per-host") return this.#connections.get(scope, shared);
    let mine = this.#identities.get(session.identity);
    if (!mine) this.#identities.set(session.identity, (mine = { scope: new IdentityScope(session.identity), sessions: new Set() }));
    mine.sessions.add(session);
    return this.#connections.get(mine.scope, shared);
  }

  /**
   * The servers `session` cannot reach until someone signs in (mcpx__sign_in lists them): by
   * its own connection where it has one (per-host, or its identity's), else the shared one.
   */
  serversAwaitingSignIn(session: HostSession): string[] {
    const identity = session.identity === LOCAL_IDENTITY ? undefined : this.#identities.get(session.identity)?.scope;
    const served = new Set(this.viewFor(session).config.servers.map((server) => server.name));
    return this.upstreams
      .filter((shared) => {
        if (!served.has(shared.name)) return false;
        const own = this.#connections.peek(session.connectionScope, shared.name) ?? (identity ? this.#connections.peek(identity, shared.name) : undefined);
        return (own ?? shared).signInNeeded !== undefined;
      })
      .map((shared) => shared.name);
  }

  /** Whether each connection needed a sign-in when last looked at: a change lists mcpx__sign_in anew. */
  readonly #neededSignIn = new WeakMap<Upstream, boolean>();

  #signInChanged(upstream: Upstream): boolean {
    // A start is news once it is over: the sign-in tool goes as the server's tools come, in one list_changed.
    if (upstream.state === "starting") return false;
    const needed = upstream.signInNeeded !== undefined;
    const before = this.#neededSignIn.get(upstream) ?? false;
    this.#neededSignIn.set(upstream, needed);
    return needed !== before;
  }

  /** A host's or identity's own connection changed state: its sessions hear of it when mcpx__sign_in's list may read differently. */
  #scopedChanged(upstream: Upstream, scope: ConnectionScope, what: CatalogPart | "state"): void {
    if (what !== "state" || !this.#signInChanged(upstream)) return;
    const sessions = scope instanceof IdentityScope ? (this.#identities.get(scope.identity)?.sessions ?? new Set<HostSession>()) : new Set([scope]);
    for (const session of sessions) session.notify(LIST_CHANGED.tools, {});
  }

  /** Start every upstream; resolves when each has come up or failed (bounded by the startup timeout). */
  start(): Promise<void> {
    this.#ready ??= within(
      Promise.all(this.upstreams.map((upstream) => upstream.start())).then(() => undefined),
      this.config.limits.startupTimeoutSeconds * 1000 + 1000,
      undefined,
    );
    return this.#ready;
  }

  /** Every catalogue read so far is in the schema cache (a no-op without one). */
  async flushSchemaCache(): Promise<void> {
    await this.#schemaCache?.flush();
  }

  /** Stop serving: every session, then every upstream. Idempotent; never throws. */
  async stop(): Promise<void> {
    for (const session of [...this.sessions]) await this.closeSession(session);
    this.tasks.stopFollowing(); // before the upstreams go: their tasks are not failed by mcpx's own stop
    await Promise.all([this.searchIndexes, ...this.#profileIndexes.values()].map((indexes) => indexes.stop()));
    await Promise.all(this.upstreams.map((upstream) => upstream.stop().catch((error: unknown) => this.#failedTeardown("an upstream", error))));
    this.oauth?.close(); // sign-ins still waiting end, and their loopback listener with them
    await this.#schemaCache?.flush();
    this.#stopQuestionMetrics?.();
  }

  upstream(name: string): Upstream | undefined {
    return this.upstreams.find((upstream) => upstream.name === name);
  }

  /**
   * @param sole the gateway serves this host alone for its whole life (`mcpx serve` on stdio):
   * every connection is then that host's, and so is everything that comes on one.
   */
  addSession(session: HostSession, sole = false): void {
    this.sessions.add(session);
    if (sole) this.#soleHost = session;
    this.#sessionOpened.set(session, performance.now());
    this.telemetry.sessionOpened(session.transport);
  }

  /** The connections that belong to `session` as a whole (see `connectionOwner`). */
  connectionsOf(session: HostSession): Upstream[] {
    return [...this.upstreams, ...this.#connections.all()].filter((upstream) => this.connectionOwner(upstream) === session);
  }

  /** The host a connection belongs to as a whole: a per-host connection's, or the sole host's (an identity's belongs to no one host). */
  connectionOwner(upstream: Upstream): HostSession | undefined {
    if (upstream.scope instanceof IdentityScope) return undefined;
    return (upstream.scope as HostSession | undefined) ?? this.#soleHost;
  }

  /**
   * End a host's session. Idempotent and never throws: what fails on the way is logged, and
   * the host's peer and its own upstream connections are closed whatever happened before.
   */
  async closeSession(session: HostSession): Promise<void> {
    if (session.closed) return;
    session.closed = true;
    if (this.sessions.delete(session))
      this.telemetry.sessionClosed(session.transport, performance.now() - (this.#sessionOpened.get(session) ?? performance.now()));
    this.delivered.forget(session);
    this.parked.forget(session);
    this.tasks.sessionEnded(session);
    try {
      for (const uri of [...session.subscriptions]) await this.unsubscribe(session, uri);
    } catch (error) {
      this.#failedTeardown(`the subscriptions of host session ${session.id}`, error);
    } finally {
      // A modern request's session shares its connection's peer, which outlives it.
      if (!session.servesOneRequest) await session.peer.close().catch((error: unknown) => this.#failedTeardown(`host session ${session.id}`, error));
      await this.#connections.close(session).catch((error: unknown) => this.#failedTeardown(`the connections of host session ${session.id}`, error));
      await this.#leaveIdentity(session);
    }
  }

  /** The identity's connections stop with the last of its sessions that used them. */
  async #leaveIdentity(session: HostSession): Promise<void> {
    const mine = this.#identities.get(session.identity);
    if (!mine?.sessions.delete(session) || mine.sessions.size > 0) return;
    this.#identities.delete(session.identity);
    await this.#connections.close(mine.scope).catch((error: unknown) => this.#failedTeardown("the connections of an identity", error));
  }

  #failedTeardown(what: string, error: unknown): void {
    this.log.warn(`closing ${what} failed; carrying on`, { error });
  }

  /**
   * `session` no longer wants updates of `uri`: tell the upstream, on the host's own connection
   * to a per-host server, or on the shared one once no host wants them.
   */
  async unsubscribe(session: HostSession, uri: string): Promise<void> {
    session.subscriptions.delete(uri);
    const owner = this.viewFor(session).catalogue.resource(uri);
    const shared = owner && this.upstream(owner.server);
    if (!owner || !shared) return;
    if (shared.config.sharing === "per-host") {
      // A session that has ended stops its own connection, which ends its subscriptions too.
      if (session.closed) return;
    } else if ([...this.sessions].some((other) => other.subscriptions.has(uri))) return;
    const upstream = await this.connectionFor(session, owner.server);
    await upstream?.call("resources/unsubscribe", { uri: owner.original }).catch(() => {});
  }

  /** The most verbose level any host asked for: upstreams log at that, and mcpx filters per host. */
  async applyLogLevel(): Promise<void> {
    const levels = [...this.sessions].map((session) => session.logLevel).filter((level): level is LogLevel => !!level);
    if (levels.length === 0) return;
    const level = LOG_LEVELS[Math.min(...levels.map((candidate) => LOG_LEVELS.indexOf(candidate)))];
    await Promise.all(
      [...this.upstreams, ...this.#connections.all()]
        .filter((upstream) => upstream.state === "ready" && upstream.capabilities.logging !== undefined)
        .map((upstream) => upstream.call("logging/setLevel", { level }).catch(() => {})),
    );
  }

  /** Send a notification to every initialized host, shaped for each one's revision. */
  broadcast(method: string, params: JsonObject = {}, only?: (session: HostSession) => boolean): void {
    for (const session of this.sessions) {
      if (!only || only(session)) session.notify(method, params);
    }
  }

  /**
   * The shared connection's catalogue, for the schema cache: `ready` comes only after the whole
   * catalogue was read, and a part's change only after that part was (a failed refresh says
   * nothing); `down` is a failed read, which the cache notes beside the last good one.
   */
  #cacheRead(upstream: Upstream, what: CatalogPart | "state"): void {
    if (!this.#schemaCache) return;
    if (upstream.state === "ready") {
      const { revision, transport, serverInfo, instructions, catalog } = upstream;
      this.#schemaCache.read(upstream.config, { revision, transport, serverInfo, instructions, catalog });
    } else if (what === "state" && upstream.state === "down") {
      this.#schemaCache.failed(upstream.config, upstream.reason ?? "it did not start");
    }
  }

  /**
   * The tools a server waiting for a sign-in listed when last read (the schema cache): hosts
   * keep seeing them, and a call of one waits for the sign-in, its host asked inline. Read once
   * per wait.
   */
  readonly #toolsBeforeSignIn = new Map<Upstream, JsonObject[]>();

  #catalogOf(upstream: Upstream): Catalog | undefined {
    // A restarting upstream keeps its items: they answer "unavailable, back in N s" meanwhile.
    if (upstream.state === "ready" || upstream.restarting) {
      this.#toolsBeforeSignIn.delete(upstream);
      return upstream.catalog;
    }
    if (upstream.signInNeeded !== "waiting" || !this.#schemaCache) return undefined;
    let tools = this.#toolsBeforeSignIn.get(upstream);
    if (!tools) this.#toolsBeforeSignIn.set(upstream, (tools = lastListedTools(this.#schemaCache.stateDir, upstream.config)));
    return { ...emptyCatalog(), tools };
  }

  #rebuild(): void {
    const sources = this.upstreams.flatMap((upstream): CatalogueSource[] => {
      const catalog = this.#catalogOf(upstream);
      return catalog ? [{ server: upstream.name, passthrough: upstream.config.passthrough, catalog, tools: upstream.config.tools }] : [];
    });
    this.catalogue = new Catalogue(sources, {
      servers: this.config.servers.map((server) => server.name),
      maxToolsPerServer: this.config.limits.maxToolsPerServer,
    });
    this.#profileViews = new Map(this.config.profiles.map((profile) => [profile.name, profileView(this.config, profile, sources)]));
    // A profile the config no longer has needs no index.
    for (const [name, indexes] of this.#profileIndexes) {
      if (this.#profileViews.has(name)) continue;
      this.#profileIndexes.delete(name);
      void indexes.stop();
    }
    // Every rebuild sees the same conflicts again; the log hears of each one once (`mcpx servers` lists them all).
    for (const { message, ...dropped } of this.catalogue.dropped) {
      // A tool the config hides is what the person asked for: worth a note, not a warning.
      const level = dropped.reason === "hidden" ? "info" : "warn";
      if (this.#firstTime(`dropped ${JSON.stringify(dropped)}`)) this.log[level](`left out of the catalogue: ${message}`, { ...dropped });
    }
    const ready = this.upstreams.filter((upstream) => upstream.state === "ready").map((upstream) => upstream.name);
    for (const name of missingPinned(this.config, this.catalogue, ready)) {
      if (this.#firstTime(`pinned ${name}`)) this.log.warn("a pinned tool is not among its server's tools, so hosts do not see it listed", { tool: name });
    }
    for (const aliased of this.catalogue.aliased) {
      if (this.#firstTime(`aliased ${JSON.stringify(aliased)}`))
        this.log.info("a resource URI another server lists too is served under an alias", { ...aliased });
    }
  }

  readonly #reported = new Set<string>();

  #firstTime(key: string): boolean {
    if (this.#reported.has(key)) return false;
    this.#reported.add(key);
    return true;
  }

  /**
   * Rebuild, and tell hosts. An upstream's own list_changed is relayed as a direct connection
   * would have it; an upstream coming, going or restarting is news only for the lists that
   * now read differently (a restart that brings the same items back changes nothing).
   */
  #changed(upstream: Upstream, what: CatalogPart | "state"): void {
    this.#cacheRead(upstream, what);
    const before = this.#views();
    this.#rebuild();
    const signIn = what === "state" && this.#signInChanged(upstream);
    this.#announce(before, signIn, what === "state" ? undefined : [what]);
  }

  /** The whole catalogue's view and each profile's, by profile ("" for the whole). */
  #views(): Map<string, HostView> {
    const views = new Map<string, HostView>([["", this.viewFor(undefined)]]);
    for (const [name, view] of this.#profileViews) views.set(name, view);
    return views;
  }

  /**
   * Tell hosts of the lists that read differently from `before` (or of `parts`, an upstream's
   * own list_changed, relayed as a direct connection would have it), each host for its own view
   * (a profile's hosts hear only of what changed in their profile). In discovery mode hosts
   * list the gateway tools and the pinned ones: tools are news only when those change, or the
   * servers waiting for a sign-in (`signIn`).
   */
  #announce(before: Map<string, HostView>, signIn: boolean, parts?: CatalogPart[]): void {
    const empty = new Catalogue([]);
    for (const [key, view] of this.#views()) {
      const old = before.get(key) ?? { ...view, catalogue: empty };
      const differing =
        parts ??
        (["tools", "prompts", "resources", "resourceTemplates"] as const).filter(
          (part) => (part === "tools" && signIn) || !sameList(old.catalogue[part], view.catalogue[part]),
        );
      // The whole catalogue's hosts hear an upstream's own list_changed as it came; a profile's only when theirs reads differently.
      const relayed = parts !== undefined && view.profile === undefined;
      const news = differing.filter((part) =>
        part === "tools"
          ? signIn ||
            (relayed && view.config.expose !== "discovery") ||
            !sameList(listedTools(old.config, old.catalogue), listedTools(view.config, view.catalogue))
          : parts === undefined || relayed || !sameList(old.catalogue[part], view.catalogue[part]),
      );
      const profile = view.profile;
      for (const method of new Set(news.map((part) => LIST_CHANGED[part]))) this.broadcast(method, {}, (session) => session.profileName === profile);
    }
  }
}

/** Would a host listing both read the same items? */
function sameList(a: readonly JsonObject[], b: readonly JsonObject[]): boolean {
  return a === b || (a.length === b.length && JSON.stringify(a) === JSON.stringify(b));
}

/**
 * `mcpx serve --http`: the Streamable HTTP endpoint at `/mcp`, serving many host sessions.
 *
 * Sessions are minted at `initialize` (`Mcp-Session-Id`), at most `limits.maxSessions` at once
 * (503 beyond); a request without one is 400, an unknown or ended one 404; DELETE ends a
 * session, and so does `limits.sessionIdleSeconds` without a request. Host and Origin are
 * checked on every request (403); with a host credential configured, `/mcp` also needs it as a
 * Bearer token (401); with an issuer, its access token (identity-auth.ts: 401, 403), and a
 * session is its identity's alone: another identity's request naming it is 404, as an unknown one. A POST must accept JSON or SSE (406; a JSON-only POST gets its answer as
 * JSON and carries nothing else) and send JSON (415), a GET must accept SSE (406). Bodies are bounded in size (413), headers and bodies in time (408, then the connection
 * closes). Other paths are offered to `extraRoutes` (the REST API and the web page), else 404.
 *
 * One of a cluster's instances (`gateway.cluster`) mints session ids that name it, and hands a
 * request naming another instance's session, or a modern retry of a call another holds, on to
 * that instance (cluster/); when it is gone, the host hears so as 404 or "call again".
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import { classify, ErrorCode, errorResponse, isRequest, type JsonRpcMessage } from "../protocol/jsonrpc.js";
import { defines, isRevision, LEGACY_REVISIONS } from "../protocol/revisions.js";
import { Peer } from "../rpc/peer.js";
import type { Gateway } from "./gateway.js";
import { HostSession } from "./session.js";
import { serveRequest } from "./modern/serve.js";
import { isModernPost, serveModernPost } from "./modern/http.js";
import { isModernRequest } from "./modern/envelope.js";
import { hostNotification } from "./host-notifications.js";
import { Exchange, HttpSessionChannel } from "./http-session-channel.js";
import { allowedHosts, allowedOrigins, rejectReason } from "./http-guard.js";
import type { HostCredential } from "./host-credential.js";
import { authenticate, isRefused, serveResourceMetadata } from "./identity-auth.js";
import type { IdentityIssuer } from "./identity-issuer.js";
import { accepts, isJson, postAcceptance } from "./media-types.js";
import { readBody, sendError } from "./http-replies.js";
import { HOP_HEADER } from "../cluster/hop.js";
import { slowClientBounds } from "../api/http.js";
import { heldCallOf } from "./modern/request-state.js";

export const MCP_PATH = "/mcp";
/** Idle sessions are looked for this often at most; a short idle timeout is checked more often. */
const MAX_SWEEP_MS = 60_000;

export type ExtraRoutes = (request: IncomingMessage, response: ServerResponse, url: URL) => Promise<boolean>;

interface Live {
  session: HostSession;
  channel: HttpSessionChannel;
  lastSeen: number;
  /** POSTs still being answered: a session waiting on a long call is not idle. */
  open: number;
}

export interface HttpHostOptions {
  host: string;
  port: number;
  allowedOrigins: string[];
  allowedHosts: string[];
  /** Required on `/mcp` when set (the extra routes check their own): the operator's. */
  credential?: HostCredential;
  /** Hosts with identities: the issuer whose access tokens `/mcp` takes. */
  issuer?: IdentityIssuer;
  extraRoutes?: ExtraRoutes;
  /** `mcpx serve --http --profile NAME`: `/mcp` serves that profile, and no other path serves another. */
  profile?: string;
}

export class HttpHost {
  readonly #sessions = new Map<string, Live>();
  readonly #server: Server;
  #hosts = new Set<string>();
  #origins = new Set<string>();
  #sweeper: NodeJS.Timeout | undefined;
  #refusing = false;

  constructor(
    private readonly gateway: Gateway,
    private readonly options: HttpHostOptions,
  ) {
    this.#server = createServer(slowClientBounds(gateway.config.http), (request, response) => {
      this.#handle(request, response).catch((error: unknown) => {
        gateway.log.error("HTTP handler failed", { error });
        if (!response.headersSent) sendError(response, 500, ErrorCode.InternalError, "Internal error in mcpx (see its log)");
        else response.end();
      });
    });
  }

  get sessionCount(): number {
    return this.#sessions.size;
  }

  async listen(): Promise<URL> {
    await new Promise<void>((resolve, reject) => {
      this.#server.once("error", reject);
      this.#server.listen(this.options.port, this.options.host, () => resolve());
    });
    const { port } = this.#server.address() as AddressInfo;
    const guard = { ...this.options, port };
    this.#hosts = allowedHosts(guard);
    this.#origins = allowedOrigins(guard);
    this.#sweeper = setInterval(() => this.#sweep(), sweepInterval(this.#idleMs));
    this.#sweeper.unref();
    const host = this.options.host.includes(":") ? `[${this.options.host}]` : this.options.host;
    const url = new URL(`http://${host}:${port}${MCP_PATH}`);
    this.options.issuer?.listening(url);
    return url;
  }

  async close(): Promise<void> {
    clearInterval(this.#sweeper);
    for (const [id, live] of this.#sessions) {
      this.#sessions.delete(id);
      await this.gateway.closeSession(live.session);
    }
    this.#server.closeAllConnections();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }

  async #handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    // Nearly every request is to the MCP path itself, spelled plainly: no URL is parsed for those.
    const url = request.url === MCP_PATH ? undefined : new URL(request.url ?? "/", "http://mcpx.invalid");
    const hop = this.#acceptHop(request);
    if (hop && "refused" in hop) return sendError(response, 403, ErrorCode.InvalidRequest, `Forbidden: ${hop.refused}`);
    // Operators (and the cluster's tests) see in the logs how requests spread over the instances.
    if (hop) this.gateway.log.debug("serving a request handed on by another instance", { from: hop.from });
    // A request handed on by another instance had its Host and Origin checked there (this one's Host is its own address).
    const refused = hop ? undefined : rejectReason(request, this.#hosts, this.#origins);
    if (refused) return sendError(response, 403, ErrorCode.InvalidRequest, `Forbidden: ${refused}`);
    const profile = url ? this.#profileOf(url.pathname) : { name: this.options.profile };
    if (url && profile === undefined) {
      if (request.method === "GET" && serveResourceMetadata(url, response, this.options.issuer)) return;
      if (await this.options.extraRoutes?.(request, response, url)) return;
      return sendError(response, 404, ErrorCode.InvalidRequest, `Not found: ${url.pathname} (the MCP endpoint is ${MCP_PATH})`);
    }
    const caller = await authenticate(request, this.options);
    if (isRefused(caller)) {
      if (caller.challenge) response.setHeader("www-authenticate", caller.challenge);
      return sendError(response, caller.status, ErrorCode.InvalidRequest, caller.message);
    }
    // Only a caller /mcp takes hears which profiles there are.
    if (profile === "unknown")
      return sendError(response, 404, ErrorCode.InvalidRequest, `Not found: ${url!.pathname} is not a profile of this mcpx (config "profiles")`);
    const who: Caller = { identity: caller.identity, profile: profile!.name };
    const sessionId = request.headers["mcp-session-id"];
    const holder = typeof sessionId === "string" ? this.gateway.cluster?.elsewhere(request, sessionId) : undefined;
    if (holder) {
      this.gateway.log.debug("handing a session's request on to the instance that holds it", { holder });
      const outcome = await this.gateway.cluster!.handOn(request, response, holder);
      if (outcome === "forwarded") return;
      if (outcome === "no store") return storeAway(response);
      return sendError(response, 404, ErrorCode.InvalidRequest, "Session not found: the mcpx instance that held it is gone; initialize a new one");
    }
    switch (request.method) {
      case "POST":
        return this.#post(request, response, who);
      case "GET":
        return this.#get(request, response, who);
      case "DELETE":
        return this.#delete(request, response, who);
      default:
        response.setHeader("allow", "GET, POST, DELETE");
        return sendError(response, 405, ErrorCode.InvalidRequest, `Method ${request.method} is not allowed on ${MCP_PATH}`);
    }
  }

  /**
   * Which surface a path is: `/mcp` (the served profile with `--profile`, else every tool),
   * `/mcp/<profile>` for a profile the config has now ("unknown" otherwise), or none of MCP's.
   */
  #profileOf(pathname: string): { name: string | undefined } | "unknown" | undefined {
    if (pathname === MCP_PATH) return { name: this.options.profile };
    if (!pathname.startsWith(`${MCP_PATH}/`)) return undefined;
    const name = decodeSegment(pathname.slice(MCP_PATH.length + 1));
    const known = name !== undefined && this.gateway.config.profiles.some((profile) => profile.name === name);
    if (!known || (this.options.profile !== undefined && name !== this.options.profile)) return "unknown";
    return { name };
  }

  async #post(request: IncomingMessage, response: ServerResponse, who: Caller): Promise<void> {
    const { identity } = who;
    // The spec has the client accept both (its MUST; what a server does otherwise is left
    // open). One that takes only SSE gets every answer as SSE; one that takes only JSON gets
    // its answer as plain JSON and nothing else on that POST: no request of mcpx's can travel
    // with it (a URL question for it becomes -32042 where the host's revision has that).
    const accept = request.headers.accept;
    const { json: jsonAccepted, sse: sseAccepted } = postAcceptance(accept);
    if (!jsonAccepted && !sseAccepted) {
      return sendError(
        response,
        406,
        ErrorCode.InvalidRequest,
        `Not Acceptable: a POST must accept application/json and text/event-stream (got Accept: ${accept})`,
      );
    }
    if (!isJson(request.headers["content-type"])) {
      return sendError(response, 415, ErrorCode.InvalidRequest, "Unsupported Media Type: the body must be sent as Content-Type: application/json");
    }
    const limit = this.gateway.config.limits.maxMessageBytes;
    const body = await readBody(request, limit);
    if (body === undefined) return sendError(response, 413, ErrorCode.InvalidRequest, `Message exceeds the ${limit}-byte limit`);
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch (error) {
      return sendError(response, 400, ErrorCode.ParseError, `Parse error: ${(error as Error).message}`);
    }
    const batch = Array.isArray(value);
    const items = batch ? (value as unknown[]) : [value];
    if (items.length === 0) return sendError(response, 400, ErrorCode.InvalidRequest, "Invalid JSON-RPC message: empty batch");
    const messages: JsonRpcMessage[] = [];
    for (const item of items) {
      const parsed = classify(item);
      if (!parsed.ok) return sendError(response, 400, parsed.error.code, parsed.error.message, parsed.id);
      messages.push(parsed.message);
    }

    // An initialize carrying the modern envelope is a 2026-07-28 request (of a method that era lacks), not a legacy opening.
    const initializing = messages.some((message) => isRequest(message) && message.method === "initialize" && !isModernRequest(message));
    // Dual era: a session-less POST of the modern era is served statelessly.
    if (!initializing && !request.headers["mcp-session-id"] && isModernPost(request, messages)) {
      if (await this.#handedOnRetry(request, response, messages, body)) return;
      return serveModernPost(this.gateway, request, response, messages, { batch, json: jsonAccepted, identity, profile: who.profile });
    }
    let live: Live | undefined;
    if (initializing && !request.headers["mcp-session-id"]) {
      if (batch) return sendError(response, 400, ErrorCode.InvalidRequest, "initialize must not be part of a batch");
      if (this.#sessions.size >= this.gateway.config.limits.maxSessions) return this.#full(response, messages);
      live = this.#open(who);
    } else {
      live = this.#session(request, response, who);
      if (!live) return;
      if (!this.#versionHeaderOk(request, response)) return;
      const revision = live.session.revision;
      if (batch && !(revision && defines(revision, "jsonRpcBatch"))) {
        return sendError(response, 400, ErrorCode.InvalidRequest, `JSON-RPC batches are not part of protocol revision ${revision ?? "(none yet)"}`);
      }
    }

    const headers = { "mcp-session-id": live.session.id };
    const hasRequests = messages.some(isRequest);
    if (!sseAccepted && messages.filter(isRequest).length > 1) {
      return sendError(response, 406, ErrorCode.InvalidRequest, "Not Acceptable: the answers to a batch of requests need Accept: text/event-stream");
    }
    if (!hasRequests) {
      response.writeHead(202, headers).end();
      live.channel.receive(messages, undefined);
      return;
    }
    const priming = (): string | undefined => live.channel.priming(live.session.revision);
    const exchange = new Exchange(response, headers, { json: jsonAccepted, sse: sseAccepted, priming });
    live.open++;
    response.once("close", () => {
      live.open--;
      live.lastSeen = Date.now();
      if (exchange.ended && exchange.waiting.size === 0) return;
      // The host hung up before its answers: treat that as cancelling what it asked.
      for (const id of live.channel.forget(exchange)) live.session.peer.abandon(id, "the host closed the connection");
    });
    live.channel.receive(messages, exchange);
  }

  async #get(request: IncomingMessage, response: ServerResponse, who: Caller): Promise<void> {
    const live = this.#session(request, response, who);
    if (!live) return;
    if (!this.#versionHeaderOk(request, response)) return;
    if (!accepts(request.headers.accept, "text/event-stream")) {
      return sendError(response, 406, ErrorCode.InvalidRequest, "Not Acceptable: GET needs Accept: text/event-stream");
    }
    if (request.headers["last-event-id"] !== undefined) {
      // A host resuming a POST's stream (it was primed): mcpx keeps no events to replay. 405 tells
      // the SDK clients there is no stream to resume, and they stop trying, quietly.
      return sendError(
        response,
        405,
        ErrorCode.InvalidRequest,
        "Method Not Allowed: mcpx does not resume streams (Last-Event-ID); no events are kept to replay",
      );
    }
    if (live.channel.hasListeningStream) {
      return sendError(response, 409, ErrorCode.InvalidRequest, "This session already has a GET stream open");
    }
    live.channel.listen(response, { "mcp-session-id": live.session.id });
  }

  async #delete(request: IncomingMessage, response: ServerResponse, who: Caller): Promise<void> {
    const live = this.#session(request, response, who);
    if (!live) return;
    this.#sessions.delete(live.session.id);
    await this.gateway.closeSession(live.session);
    response.writeHead(200).end();
  }

  /** A hop from another instance: undefined when the request is no hop; refused when it is one this instance cannot accept. */
  #acceptHop(request: IncomingMessage): { from: string } | { refused: string } | undefined {
    if (this.gateway.cluster) return this.gateway.cluster.acceptHop(request);
    return request.headers[HOP_HEADER] === undefined ? undefined : { refused: "this mcpx is not one of a cluster's instances" };
  }

  /**
   * A modern retry whose call another instance holds is handed on to it, body and all; when that
   * instance is gone, the host is told to call again. Whether this instance is done with it.
   */
  async #handedOnRetry(request: IncomingMessage, response: ServerResponse, messages: JsonRpcMessage[], body: string): Promise<boolean> {
    const [message] = messages;
    if (!this.gateway.cluster || messages.length !== 1 || !message || !isRequest(message)) return false;
    const call = heldCallOf(message.params?.requestState);
    const holder = call === undefined ? undefined : this.gateway.cluster.elsewhere(request, call);
    if (!holder) return false;
    this.gateway.log.debug("handing a modern retry on to the instance that holds its call", { holder });
    const outcome = await this.gateway.cluster.handOn(request, response, holder, Buffer.from(body));
    if (outcome === "forwarded") return true;
    if (outcome === "no store") {
      storeAway(response);
      return true;
    }
    const error = {
      code: ErrorCode.InvalidParams,
      message: "the call this requestState belongs to is no longer open: the mcpx instance that held it is gone; call again",
    };
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(errorResponse(message.id, error)));
    return true;
  }

  #open({ identity, profile }: Caller): Live {
    const id = this.gateway.cluster?.newId() ?? randomUUID();
    const channel = new HttpSessionChannel(this.gateway.log.child({ session: id }));
    let session: HostSession | undefined;
    const peer = new Peer(
      channel,
      {
        request: (context) => serveRequest(this.gateway, session!, context),
        notification: (notification) => hostNotification(this.gateway, session!, notification),
      },
      this.gateway.log.child({ session: id }),
      "mcpx-",
    );
    session = new HostSession(peer, "http", id);
    session.identity = identity;
    session.profileName = profile;
    session.canCarryRequests = (requestId) => requestId !== undefined && channel.carriesRequests(requestId);
    const live = { session, channel, lastSeen: Date.now(), open: 0 };
    this.#sessions.set(id, live);
    this.#refusing = false;
    this.gateway.addSession(session);
    return live;
  }

  /**
   * The session the request names, when it is `identity`'s and of the path's profile (another
   * identity's, or one opened on another path, is unknown to it, word for word).
   */
  #session(request: IncomingMessage, response: ServerResponse, { identity, profile }: Caller): Live | undefined {
    const id = request.headers["mcp-session-id"];
    if (typeof id !== "string" || id === "") {
      sendError(response, 400, ErrorCode.InvalidRequest, "Bad Request: Mcp-Session-Id header is required (send initialize first)");
      return undefined;
    }
    const live = this.#sessions.get(id);
    if (!live || live.session.identity !== identity || live.session.profileName !== profile) {
      sendError(response, 404, ErrorCode.InvalidRequest, "Session not found: it ended or never existed; initialize a new one");
      return undefined;
    }
    live.lastSeen = Date.now();
    return live;
  }

  #versionHeaderOk(request: IncomingMessage, response: ServerResponse): boolean {
    const header = request.headers["mcp-protocol-version"];
    if (header === undefined) return true;
    // A session is of the legacy era (initialize made it); a modern revision is not its own.
    if (typeof header === "string" && isRevision(header) && LEGACY_REVISIONS.includes(header)) return true;
    sendError(
      response,
      400,
      ErrorCode.InvalidRequest,
      `Bad Request: unsupported MCP-Protocol-Version ${JSON.stringify(header)} (supported in a session: ${LEGACY_REVISIONS.join(", ")})`,
    );
    return false;
  }

  get #idleMs(): number {
    return this.gateway.config.limits.sessionIdleSeconds * 1000;
  }

  /** No room for another session: 503, with when to try again (the sweeper may have freed one by then). */
  #full(response: ServerResponse, messages: JsonRpcMessage[]): void {
    const limit = this.gateway.config.limits.maxSessions;
    const [initialize] = messages; // never part of a batch
    const id = initialize && isRequest(initialize) ? initialize.id : null;
    // Once per time the limit is reached, not once per refused host.
    if (!this.#refusing) this.gateway.log.warn("refusing new host sessions: the session limit is reached", { limit });
    this.#refusing = true;
    response.writeHead(503, { "content-type": "application/json", "retry-after": String(Math.ceil(sweepInterval(this.#idleMs) / 1000)) });
    // -32000: the JSON-RPC server-error range, as for other refusals at the HTTP level; data.code says which.
    const message = `mcpx is serving its limit of ${limit} host sessions (limits.maxSessions); retry later, or end an unused session (DELETE ${MCP_PATH})`;
    response.end(JSON.stringify(errorResponse(id, { code: -32000, message, data: { code: "SESSION_LIMIT", limit } })));
  }

  #sweep(): void {
    const now = Date.now();
    for (const [id, live] of this.#sessions) {
      if (now - live.lastSeen < this.#idleMs || live.open > 0 || live.channel.hasListeningStream) continue;
      this.#sessions.delete(id);
      this.gateway.log.info("ended an idle host session", { session: id });
      void this.gateway.closeSession(live.session);
    }
  }
}

/** The shared store cannot say where the holder is (and it was not looked up lately): 503, to retry shortly. */
function storeAway(response: ServerResponse): void {
  response.setHeader("retry-after", "2");
  sendError(
    response,
    503,
    ErrorCode.InternalError,
    "mcpx cannot reach its shared store to find the instance that holds this request's session or call; retry shortly",
  );
}

/** Who calls, and on which profile's path. */
interface Caller {
  identity: string;
  profile: string | undefined;
}

/** A path segment percent-decoded, or undefined when it is not one segment. */
function decodeSegment(segment: string): string | undefined {
  if (segment === "" || segment.includes("/")) return undefined;
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** Half the idle timeout (a session ends between 1 and 1.5 timeouts idle), at least 100 ms, at most a minute. */
function sweepInterval(idleMs: number): number {
  return Math.min(MAX_SWEEP_MS, Math.max(100, idleMs / 2));
}

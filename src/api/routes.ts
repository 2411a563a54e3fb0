/**
 * The REST API under `/v1`, its event stream, and the web page at `/`, as routes for an HTTP
 * server that has already refused foreign Host and Origin headers (`http-guard.ts`).
 *
 *   GET  /v1/questions[?all=1]         → [view]
 *   GET  /v1/questions/:id             → view | 404 UNKNOWN_QUESTION
 *   POST /v1/questions/:id/answer      {action, content?} → view | 400 | 404 | 409
 *   POST /v1/questions/:id/done        {} → view | 400 (not a URL question) | 404 | 409
 *   GET  /v1/tasks[?all=1], /v1/tasks/:id → the caller's tasks (task-routes.ts)
 *   POST /v1/tasks/:id/cancel          {} → task record | 404 | 409 (task-routes.ts)
 *   GET  /v1/events                    → text/event-stream, event `question` with a view
 *   POST /v1/page-session              {code} → {token, expiresInSeconds} | 401 INVALID_CODE
 *   POST /v1/page-link                 {} → {url, expiresInSeconds}: a one-time link to the page, for the caller's identity
 *
 * Everything under `/v1` but the page-session exchange needs a Bearer token (`auth.ts`): the
 * host credential or, without one, the API token; or the page's in-tab credential; or, with an
 * issuer, a host's access token. Each caller is an identity and sees only its own questions:
 * another identity's is unknown to it (404), in lists, by id, to answer, to complete, and on
 * the event stream. POST needs
 * `content-type: application/json` (which a cross-site form cannot send without a CORS
 * preflight, and no CORS headers are ever given) and at most 64 KiB.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Broker } from "../broker/broker.js";
import { auditFilter } from "../broker/audit-filter.js";
import { BrokerError } from "../broker/errors.js";
import { TOKEN_FILE as TOKEN_SECRET } from "../broker/state-dir.js";
import { viewOf } from "../broker/view.js";
import type { ExtraRoutes } from "../host/http-host.js";
import { GatewayError } from "../protocol/errors.js";
import { isObject } from "../protocol/jsonrpc.js";
import type { Logger } from "../util/log.js";
import type { HostCredential } from "../host/host-credential.js";
import type { IdentityIssuer } from "../host/identity-issuer.js";
import { LOCAL_IDENTITY, visibleTo } from "../broker/identity.js";
import type { QuestionRecord } from "../broker/types.js";
import { callerOf, type ApiAuth, type Caller } from "./auth.js";
import { QuestionEvents } from "./events.js";
import { MAX_BODY_BYTES, mediaType, readBody, sendApiError, sendJson } from "./http.js";
import { servePage } from "./page.js";
import { cancelTask, serveTasks } from "./task-routes.js";
import { CODE_TTL_MS, mintPageCode, PageCodes, portOf } from "./page-codes.js";
import { PageSessions } from "./page-sessions.js";

export interface ApiOptions {
  broker: Broker;
  /** The API token: the key of page codes, and the scripts' token when there is no host credential. */
  token: string;
  /** When configured, the only token scripts may use (and `/mcp` needs it too: `http-host.ts`). */
  hostCredential?: HostCredential;
  /** Hosts with identities: their access tokens are accepted, each seeing its own questions. */
  issuer?: IdentityIssuer;
  log: Logger;
  /**
   * Several instances behind a balancer (`cluster.publicUrl`): the address people open. Codes
   * are for its port, not this instance's, and any instance takes one another minted.
   */
  publicUrl?: URL;
}

export type ApiRoutes = ExtraRoutes & { close(): void };

const STATUS: Record<BrokerError["code"], number> = {
  UNKNOWN_QUESTION: 404,
  ALREADY_SETTLED: 409,
  INVALID_ANSWER: 400,
  PERSON_ONLY: 403,
};

export function createApiRoutes(options: ApiOptions): ApiRoutes {
  const { broker, token, log } = options;
  const tokenWhere = broker.store.secrets.whereIs(TOKEN_SECRET);
  const events = new QuestionEvents(broker, log);
  const auth: ApiAuth = {
    apiToken: token,
    sessions: new PageSessions(broker.store.pageSessions),
    ...(options.hostCredential ? { hostCredential: options.hostCredential } : {}),
    ...(options.issuer ? { issuer: options.issuer } : {}),
  };
  const codes = new PageCodes(token, broker.store.usedPageCodes, Date.now(), { cluster: options.publicUrl !== undefined });
  /** The port a code is for: the public URL's behind a balancer, else the one this request came in on. */
  const codePort = (request: IncomingMessage): number => (options.publicUrl ? portOf(options.publicUrl) : (request.socket.localPort ?? 0));

  const routes = async (request: IncomingMessage, response: ServerResponse, url: URL): Promise<boolean> => {
    if (url.pathname !== "/v1" && !url.pathname.startsWith("/v1/")) {
      return servePage(request, response, url);
    }
    try {
      if (url.pathname === "/v1/page-session") {
        await pageSession(request, response);
        return true;
      }
      const caller = await callerOf(request, auth, tokenWhere);
      if ("status" in caller) {
        const code = caller.status === 403 ? "FORBIDDEN" : caller.status === 503 ? "UNAVAILABLE" : "UNAUTHORIZED";
        sendApiError(response, caller.status, code, caller.message, caller.challenge ? { "www-authenticate": caller.challenge } : {});
        return true;
      }
      await api(request, response, url, caller);
    } catch (error) {
      if (response.headersSent) {
        response.end();
      } else if (error instanceof BrokerError) {
        sendApiError(response, STATUS[error.code], error.code, error.message);
      } else if (error instanceof GatewayError) {
        sendApiError(response, 503, error.code, error.message);
      } else {
        log.error("REST handler failed", { error, path: url.pathname });
        sendApiError(response, 500, "INTERNAL", "Internal error in mcpx (see its log)");
      }
    }
    return true;
  };

  async function api(request: IncomingMessage, response: ServerResponse, url: URL, caller: Caller): Promise<void> {
    const parts = url.pathname.split("/").slice(2); // after "", "v1"
    const method = request.method ?? "GET";
    if (parts.length === 1 && parts[0] === "questions") {
      if (method !== "GET") return notAllowed(response, "GET");
      const all = ["1", "true"].includes(url.searchParams.get("all") ?? "");
      return sendJson(
        response,
        200,
        await Promise.all((await broker.list(all)).filter((record) => visibleTo(record, caller.identity)).map((record) => broker.view(record))),
      );
    }
    if (parts.length === 2 && parts[0] === "questions") {
      if (method !== "GET") return notAllowed(response, "GET");
      return sendJson(response, 200, await broker.view(await own(idOf(parts[1]!), caller)));
    }
    if (parts.length === 3 && parts[0] === "questions" && parts[2] === "answer") {
      if (method !== "POST") return notAllowed(response, "POST");
      return answer(request, response, idOf(parts[1]!), caller);
    }
    if (parts.length === 3 && parts[0] === "questions" && parts[2] === "done") {
      if (method !== "POST") return notAllowed(response, "POST");
      return done(request, response, idOf(parts[1]!), caller);
    }
    if (parts.length === 1 && parts[0] === "page-link") {
      if (method !== "POST") return notAllowed(response, "POST");
      return pageLinkFor(request, response, caller);
    }
    if (parts.length === 1 && parts[0] === "audit") {
      if (method !== "GET") return notAllowed(response, "GET");
      const given = Object.fromEntries(
        ["since", "server", "tool", "session", "profile"].flatMap((key) => (url.searchParams.has(key) ? [[key, url.searchParams.get(key)!]] : [])),
      );
      const filter = auditFilter(given, Date.now());
      if ("problem" in filter) return sendApiError(response, 400, "INVALID_FILTER", filter.problem);
      // A signed-in identity reads its own entries; the operator reads them all.
      const own = caller.identity === LOCAL_IDENTITY ? filter : { ...filter, identity: caller.identity };
      return sendJson(response, 200, await broker.store.audit.list(own));
    }
    if (parts.length === 3 && parts[0] === "tasks" && parts[2] === "cancel") {
      if (method !== "POST") return notAllowed(response, "POST");
      return cancelTask(response, broker, caller.identity, idOf(parts[1]!));
    }
    if (parts[0] === "tasks" && parts.length <= 2) {
      if (method !== "GET") return notAllowed(response, "GET");
      return serveTasks(response, broker, caller.identity, url, parts[1] === undefined ? undefined : idOf(parts[1]));
    }
    if (parts.length === 1 && parts[0] === "events") {
      if (method !== "GET") return notAllowed(response, "GET");
      return events.stream(response, caller.identity);
    }
    sendApiError(
      response,
      404,
      "NOT_FOUND",
      `Not found: ${url.pathname} (the API has /v1/questions, /v1/questions/:id, /v1/questions/:id/answer, /v1/questions/:id/done, /v1/tasks, /v1/tasks/:id, /v1/tasks/:id/cancel, /v1/events and /v1/page-link)`,
    );
  }

  /** The page's one-time code, traded once for its in-tab credential. */
  async function pageSession(request: IncomingMessage, response: ServerResponse): Promise<void> {
    if (request.method !== "POST") return notAllowed(response, "POST");
    if (mediaType(request) !== "application/json") {
      return sendApiError(response, 415, "UNSUPPORTED_MEDIA_TYPE", "send the code with content-type: application/json");
    }
    const body = await readBody(request, 1024);
    let code: unknown;
    try {
      code = (JSON.parse(body ?? "") as { code?: unknown }).code;
    } catch {
      code = undefined;
    }
    const identity = await codes.redeemFor(code, codePort(request));
    if (identity === undefined) {
      return sendApiError(response, 401, "INVALID_CODE", "this link was already used, has expired, or is not for this mcpx: run `mcpx link` for a fresh one", {
        "www-authenticate": 'Bearer realm="mcpx"',
      });
    }
    sendJson(response, 200, await auth.sessions.open(Date.now(), identity));
  }

  /**
   * A one-time link to the page that signs a tab in as the caller's identity: how a person who
   * signed in with the issuer gets to their questions on the page (`mcpx link` is the operator's).
   * Its address is the cluster's public URL, else the audience's origin (how hosts reach mcpx),
   * else this request's Host.
   */
  async function pageLinkFor(request: IncomingMessage, response: ServerResponse, caller: Caller): Promise<void> {
    if (mediaType(request) !== "application/json") {
      return sendApiError(response, 415, "UNSUPPORTED_MEDIA_TYPE", "send the request with content-type: application/json (an empty object)");
    }
    await readBody(request, 1024);
    const base = options.publicUrl?.origin ?? (options.issuer ? new URL(options.issuer.resource).origin : `http://${request.headers.host}`);
    const code = mintPageCode(token, codePort(request), Date.now(), caller.identity);
    sendJson(response, 200, { url: new URL(`/#code=${code}`, base).href, expiresInSeconds: CODE_TTL_MS / 1000 });
  }

  async function answer(request: IncomingMessage, response: ServerResponse, id: string, caller: Caller): Promise<void> {
    if (mediaType(request) !== "application/json") {
      return sendApiError(response, 415, "UNSUPPORTED_MEDIA_TYPE", "the answer must be sent with content-type: application/json");
    }
    const body = await readBody(request);
    if (body === undefined) {
      return sendApiError(response, 413, "PAYLOAD_TOO_LARGE", `the answer exceeds the ${MAX_BODY_BYTES}-byte limit`);
    }
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch (error) {
      return sendApiError(response, 400, "INVALID_ANSWER", `the body is not JSON: ${(error as Error).message}`);
    }
    if (!isObject(value)) return sendApiError(response, 400, "INVALID_ANSWER", 'the body must be a JSON object {"action": ..., "content": {...}}');
    const unknown = Object.keys(value).filter((key) => key !== "action" && key !== "content");
    if (unknown.length) return sendApiError(response, 400, "INVALID_ANSWER", `unknown field "${unknown[0]}" (an answer has only "action" and "content")`);
    const { action, content } = value;
    if (action !== "accept" && action !== "decline" && action !== "cancel") {
      return sendApiError(
        response,
        400,
        "INVALID_ANSWER",
        `field "action" must be "accept", "decline" or "cancel", not ${JSON.stringify(action) ?? "missing"}`,
      );
    }
    if (content !== undefined && !isObject(content)) {
      return sendApiError(response, 400, "INVALID_ANSWER", 'field "content" must be a JSON object');
    }
    await own(id, caller);
    const record = await broker.answer(id, { action, ...(content !== undefined ? { content } : {}) }, { by: caller.by, ...fromAddress(request) });
    // Answered is not yet delivered: say which it is once the waiting process confirms (bounded).
    const { delivery } = await broker.awaitDelivery(record.id);
    sendJson(response, 200, viewOf(record, Date.now(), delivery));
  }

  /** A URL question is finished (the REST twin of `mcpx elicit done` and the page's button). */
  async function done(request: IncomingMessage, response: ServerResponse, id: string, caller: Caller): Promise<void> {
    if (mediaType(request) !== "application/json") {
      return sendApiError(response, 415, "UNSUPPORTED_MEDIA_TYPE", "send the request with content-type: application/json (an empty object)");
    }
    const body = await readBody(request, 1024);
    if (body === undefined) return sendApiError(response, 413, "PAYLOAD_TOO_LARGE", "the body of done is an empty object");
    let value: unknown = {};
    try {
      if (body.trim() !== "") value = JSON.parse(body);
    } catch (error) {
      return sendApiError(response, 400, "INVALID_ANSWER", `the body is not JSON: ${(error as Error).message}`);
    }
    if (!isObject(value) || Object.keys(value).length > 0) return sendApiError(response, 400, "INVALID_ANSWER", "the body of done is an empty object {}");
    await own(id, caller);
    sendJson(response, 200, await broker.view(await broker.complete(id, caller.by, fromAddress(request).from)));
  }

  /** The question, when it is the caller's; another identity's is as unknown as one that never was. */
  async function own(id: string, caller: Caller): Promise<QuestionRecord> {
    const record = await broker.get(id);
    if (!record || !visibleTo(record, caller.identity)) throw new BrokerError("UNKNOWN_QUESTION", `no question with id ${id}`);
    return record;
  }

  return Object.assign(routes, { close: () => events.close() });
}

function notAllowed(response: ServerResponse, allow: string): void {
  sendApiError(response, 405, "METHOD_NOT_ALLOWED", `use ${allow} here`, { allow });
}

/** A path segment as a question id (a malformed escape is kept as it is: no such question). */
function idOf(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Where an answer over HTTP came from, for the record (the socket's peer: a proxy's forwarding headers are not believed). */
function fromAddress(request: IncomingMessage): { from?: string } {
  const address = request.socket.remoteAddress;
  return address ? { from: address } : {};
}

/**
 * The routes commands use on a daemon (or a `serve --http` on loopback), under `/v1/daemon`:
 *
 *   GET  /v1/daemon                   → status: pid, config, idle time, calls in flight, servers
 *   GET  /v1/daemon/servers           → each server as `mcpx servers --json` reports it, live
 *   GET  /v1/daemon/tools             → {tools, notUp}: the tools hosts see, as `mcpx tools --json`, live
 *   POST /v1/daemon/call              {callId, target, args} → the call's end, or that it waits on a question
 *   POST /v1/daemon/exec              {runId, kind, code, language, filename, args} → the script run's end, or that it waits on a question
 *   POST /v1/daemon/calls/:id/stop    {signal} → {stopped}: the call (or run) fails as stopped by that signal
 *   POST /v1/daemon/refresh           {server?} → each server's tool count once its catalogue is read again
 *   POST /v1/daemon/stop              {} → {stopping: true}, then the process stops
 *
 * Every one needs the credential of the process's discovery file as a Bearer token: only a
 * process of the user who can read that 0600 file can make calls here. POST needs
 * `content-type: application/json` (no form can send it cross-site without a preflight).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { ExtraRoutes } from "../host/http-host.js";
import { bearerOf, secretsEqual } from "../host/host-credential.js";
import { isObject, type JsonObject } from "../protocol/jsonrpc.js";
import type { Logger } from "../util/log.js";
import { mediaType, readBody, sendApiError, sendJson } from "./http.js";

export const DAEMON_ROUTES = "/v1/daemon";

export interface Reply {
  status: number;
  body: JsonObject;
}

/** What the routes do; the process serving them (cli/daemon-serve.ts) supplies it. */
export interface DaemonHandlers {
  status(): JsonObject;
  /** `servers` or `tools`, live from the running upstreams (once each has come up or failed). */
  live(what: "servers" | "tools"): Promise<unknown>;
  call(request: JsonObject): Promise<Reply>;
  /** A script run (`mcpx exec`, `mcpx run`). */
  exec(request: JsonObject): Promise<Reply>;
  stopCall(callId: string, signal: string): boolean;
  refresh(server: string | undefined): Promise<Reply>;
  /** Called once the reply to `/stop` is sent. */
  stop(): void;
}

export interface DaemonRoutesOptions {
  credential: string;
  handlers: DaemonHandlers;
  log: Logger;
  /** The largest request body (a call's arguments): the config's `limits.maxMessageBytes`. */
  maxBodyBytes: number;
}

export type DaemonRoutes = ExtraRoutes & {
  /** When a command last sent an authenticated request (ms since the epoch). */
  readonly lastRequestAt: number;
};

export function createDaemonRoutes(options: DaemonRoutesOptions): DaemonRoutes {
  const { handlers, log } = options;
  let lastRequestAt = Date.now();

  const routes = async (request: IncomingMessage, response: ServerResponse, url: URL): Promise<boolean> => {
    if (url.pathname !== DAEMON_ROUTES && !url.pathname.startsWith(`${DAEMON_ROUTES}/`)) return false;
    if (!secretsEqual(options.credential, bearerOf(request))) {
      sendApiError(
        response,
        401,
        "UNAUTHORIZED",
        "Unauthorized: send the credential of this mcpx's discovery file (in the state directory) as a Bearer token",
        {
          "www-authenticate": 'Bearer realm="mcpx-daemon"',
        },
      );
      return true;
    }
    lastRequestAt = Date.now();
    try {
      await route(request, response, url.pathname.slice(DAEMON_ROUTES.length));
    } catch (error) {
      log.error("daemon route failed", { error, path: url.pathname });
      if (!response.headersSent) sendApiError(response, 500, "INTERNAL", "Internal error in mcpx (see the daemon's log)");
      else response.end();
    } finally {
      lastRequestAt = Date.now();
    }
    return true;
  };

  async function route(request: IncomingMessage, response: ServerResponse, path: string): Promise<void> {
    const method = request.method ?? "GET";
    if (path === "" || path === "/") {
      if (method !== "GET") return notAllowed(response, "GET");
      return sendJson(response, 200, handlers.status());
    }
    if (path === "/servers" || path === "/tools") {
      if (method !== "GET") return notAllowed(response, "GET");
      return sendJson(response, 200, await handlers.live(path === "/servers" ? "servers" : "tools"));
    }
    if (method !== "POST") return notAllowed(response, "POST");
    const body = await jsonBody(request, response);
    if (!body) return;
    const stopCall = /^\/calls\/([^/]+)\/stop$/.exec(path);
    if (path === "/call") return send(response, await handlers.call(body));
    if (path === "/exec") return send(response, await handlers.exec(body));
    if (stopCall) {
      const signal = typeof body.signal === "string" ? body.signal : "SIGTERM";
      return sendJson(response, 200, { stopped: handlers.stopCall(decodeURIComponent(stopCall[1]!), signal) });
    }
    if (path === "/refresh") {
      if (body.server !== undefined && typeof body.server !== "string")
        return sendApiError(response, 400, "INVALID_REQUEST", 'field "server" must be a string');
      return send(response, await handlers.refresh(body.server));
    }
    if (path === "/stop") {
      response.once("finish", () => handlers.stop());
      return sendJson(response, 200, { stopping: true });
    }
    sendApiError(
      response,
      404,
      "NOT_FOUND",
      `Not found: ${DAEMON_ROUTES}${path} (there are ${DAEMON_ROUTES}, /servers, /tools, /call, /exec, /calls/:id/stop, /refresh and /stop)`,
    );
  }

  async function jsonBody(request: IncomingMessage, response: ServerResponse): Promise<JsonObject | undefined> {
    if (mediaType(request) !== "application/json") {
      sendApiError(response, 415, "UNSUPPORTED_MEDIA_TYPE", "send a JSON object with content-type: application/json");
      return undefined;
    }
    const text = await readBody(request, options.maxBodyBytes);
    if (text === undefined) {
      sendApiError(response, 413, "PAYLOAD_TOO_LARGE", `the request exceeds ${options.maxBodyBytes} bytes (limits.maxMessageBytes)`);
      return undefined;
    }
    try {
      const value: unknown = text.trim() === "" ? {} : JSON.parse(text);
      if (isObject(value)) return value;
    } catch {
      // answered below
    }
    sendApiError(response, 400, "INVALID_REQUEST", "the body must be a JSON object");
    return undefined;
  }

  return Object.defineProperty(routes, "lastRequestAt", { get: () => lastRequestAt }) as DaemonRoutes;
}

function send(response: ServerResponse, reply: Reply): void {
  sendJson(response, reply.status, reply.body);
}

function notAllowed(response: ServerResponse, allow: string): void {
  sendApiError(response, 405, "METHOD_NOT_ALLOWED", `use ${allow} here`, { allow });
}

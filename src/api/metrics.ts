/**
 * `GET /metrics` on `serve --http`: mcpx's metrics in the Prometheus text exposition format
 * (the OpenTelemetry Prometheus exporter's, telemetry/otel/start.ts), for the operator alone:
 * the host credential when one is configured, else the API token, as a Bearer token (a scraper's
 * `authorization` or `bearer_token_file`). A signed-in identity's token is not the operator's:
 * the metrics count every identity's calls.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { secretsEqual, type HostCredential } from "../host/host-credential.js";
import { authenticate, isRefused } from "../host/identity-auth.js";
import { tokenHint } from "./auth.js";
import { sendApiError, sendJson } from "./http.js";

export const METRICS_PATH = "/metrics";

export interface MetricsOptions {
  /** Writes the exposition (absent: this process serves no metrics, 404). */
  serve: ((request: IncomingMessage, response: ServerResponse) => void) | undefined;
  apiToken: string;
  hostCredential?: HostCredential;
  /** Where the API token is kept, for the 401's words (the store's `secrets.whereIs("api-token")`). */
  tokenWhere: string;
}

/** Handles `/metrics` (true), leaves every other path to the next routes (false). */
export function metricsRoute(options: MetricsOptions): (request: IncomingMessage, response: ServerResponse, url: URL) => Promise<boolean> {
  const hint = tokenHint(options.hostCredential ? { hostCredential: options.hostCredential } : {}, options.tokenWhere);
  const operator = { matches: (token: string) => secretsEqual(options.apiToken, token), hint };
  return async (request, response, url) => {
    if (url.pathname !== METRICS_PATH) return false;
    if (request.method !== "GET" && request.method !== "HEAD") {
      sendJson(response, 405, { error: { code: "METHOD_NOT_ALLOWED", message: "GET /metrics" } }, { allow: "GET, HEAD" });
      return true;
    }
    const caller = await authenticate(request, options.hostCredential ? { credential: options.hostCredential } : {}, operator);
    if (isRefused(caller)) {
      sendApiError(response, caller.status, "UNAUTHORIZED", caller.message, caller.challenge ? { "www-authenticate": caller.challenge } : {});
      return true;
    }
    if (!options.serve) {
      sendApiError(response, 404, "NOT_FOUND", "this mcpx serves no metrics (the daemon serves them only when OTEL_* asks for metrics)");
      return true;
    }
    options.serve(request, response);
    return true;
  };
}

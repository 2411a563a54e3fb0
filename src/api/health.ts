/**
 * `GET /healthz` (the process serves) and `GET /readyz` (the store takes a write, and every
 * server marked `"required": true` is ready), without the credential so that probes reach
 * them; they say no more than a status and the names of the required servers that are not
 * ready. A store that cannot be written is "store", never its path or error.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { sendJson } from "./http.js";

export interface HealthSources {
  /** Why the store cannot be written, or undefined. */
  storeProblem(): Promise<string | undefined>;
  /** The required servers that are not ready now. */
  requiredNotReady(): string[];
}

/** Handles the two paths (true), leaves every other to the next routes (false). */
export function healthRoute(sources: HealthSources): (request: IncomingMessage, response: ServerResponse, url: URL) => Promise<boolean> {
  return async (request, response, url) => {
    if (url.pathname !== "/healthz" && url.pathname !== "/readyz") return false;
    if (request.method !== "GET" && request.method !== "HEAD") {
      sendJson(response, 405, { status: "method not allowed" }, { allow: "GET, HEAD" });
      return true;
    }
    if (url.pathname === "/healthz") {
      sendJson(response, 200, { status: "ok" });
      return true;
    }
    const servers = sources.requiredNotReady();
    // A store that cannot even answer (unreachable) is as unready as one that refuses the write.
    const store = (await sources.storeProblem().catch((error: unknown) => String(error))) !== undefined;
    if (!store && servers.length === 0) sendJson(response, 200, { status: "ready" });
    else sendJson(response, 503, { status: "not ready", ...(store ? { store: "not writable" } : {}), ...(servers.length > 0 ? { servers } : {}) });
    return true;
  };
}

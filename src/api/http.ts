/**
 * Small HTTP pieces the API and the page share: JSON replies with `{error: {code, message}}`,
 * a bounded body reader and the media type. No CORS headers anywhere: same origin only.
 */
import type { IncomingMessage, ServerOptions, ServerResponse } from "node:http";

/** How long a client may take to send a request: its headers, then its body (`http.*TimeoutSeconds`). */
export interface RequestTimeouts {
  headersTimeoutSeconds: number;
  bodyTimeoutSeconds: number;
}

/**
 * Server options that cut off slow clients: headers that trickle in, and bodies (on every
 * path: /mcp, /v1, the page), get 408 and the connection closed. Node measures both from the
 * request's start, so the body's time is added to the headers'; a response may take as long as
 * it likes. Node checks every `connectionsCheckingInterval` (30 s by default): often enough here.
 */
export function slowClientBounds(timeouts: RequestTimeouts): ServerOptions {
  const headersTimeout = timeouts.headersTimeoutSeconds * 1000;
  const requestTimeout = headersTimeout + timeouts.bodyTimeoutSeconds * 1000;
  const connectionsCheckingInterval = Math.max(100, Math.min(1000, headersTimeout / 4));
  return { headersTimeout, requestTimeout, connectionsCheckingInterval };
}

/** Largest request body the API reads (an answer is a small JSON object). */
export const MAX_BODY_BYTES = 64 * 1024;

export function sendJson(response: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    ...headers,
  });
  response.end(JSON.stringify(value));
}

export function sendApiError(response: ServerResponse, status: number, code: string, message: string, headers: Record<string, string> = {}): void {
  sendJson(response, status, { error: { code, message } }, headers);
}

/** The body as text, or undefined when it is larger than `limit` bytes (read and dropped). */
export function readBody(request: IncomingMessage, limit = MAX_BODY_BYTES): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
      else chunks.length = 0;
    });
    request.once("end", () => resolve(size > limit ? undefined : Buffer.concat(chunks).toString("utf8")));
    request.once("error", reject);
  });
}

/** The media type of the request body, without parameters, lower-cased. */
export function mediaType(request: IncomingMessage): string {
  return (request.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
}

/**
 * Small HTTP pieces the API and the page share: JSON replies with `{error: {code, message}}`,
 * a bounded body reader and the media type. No CORS headers anywhere: same origin only.
 */
import type { IncomingMessage, ServerResponse } from "node:http";

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

export function sendApiError(
  response: ServerResponse,
  status: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
): void {
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

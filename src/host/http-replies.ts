/**
 * The HTTP plumbing of `/mcp` around JSON-RPC: reading a request body within its size bound,
 * and the error replies sent before (or instead of) serving any message.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { errorResponse, type RequestId } from "../protocol/jsonrpc.js";

/** Read a body up to `limit` bytes; undefined when it is larger. */
export function readBody(request: IncomingMessage, limit: number): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    request.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        over = true;
        chunks.length = 0;
        return;
      }
      if (!over) chunks.push(chunk);
    });
    request.once("end", () => resolve(over ? undefined : Buffer.concat(chunks).toString("utf8")));
    request.once("error", reject);
  });
}

/** An error status with its JSON-RPC error body. */
export function sendError(response: ServerResponse, status: number, code: number, message: string, id: RequestId | null = null): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(errorResponse(id, { code, message })));
}

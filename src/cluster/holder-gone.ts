/**
 * What a host hears when the instance its request was handed on to dies in the middle of an
 * SSE answer: an error for each request of the body, on the stream it is reading, so its
 * call ends now with a reason it can act on (a new session) instead of waiting out its own
 * timeout on a stream that was cut.
 */
import { ErrorCode } from "../protocol/jsonrpc.js";
import { formatSse } from "../util/sse.js";

export const HOLDER_GONE = "the mcpx instance that held this session died during the request; initialize a new session and call again";

/** The SSE events answering every request in `body` (a JSON-RPC message or batch) with the error; none for anything else. */
export function holderGoneEvents(body: Buffer): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.toString("utf8"));
  } catch {
    return "";
  }
  const messages = Array.isArray(parsed) ? parsed : [parsed];
  return messages
    .filter((message): message is { id: string | number; method: string } => isRequest(message))
    .map((message) =>
      formatSse(JSON.stringify({ jsonrpc: "2.0", id: message.id, error: { code: ErrorCode.InternalError, message: HOLDER_GONE } }), { event: "message" }),
    )
    .join("");
}

function isRequest(message: unknown): boolean {
  if (typeof message !== "object" || message === null) return false;
  const { id, method } = message as { id?: unknown; method?: unknown };
  return typeof method === "string" && (typeof id === "string" || typeof id === "number");
}

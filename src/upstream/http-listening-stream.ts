/**
 * The standing GET stream of a legacy Streamable HTTP session, opened after the handshake: it
 * carries what the server sends unrelated to any request. A server that refuses it (405, or any
 * error status) is left alone; one that ends or breaks it is reconnected with `Last-Event-ID`,
 * after its `retry` or with backoff.
 */
import { sleep } from "../util/sleep.js";
import { describeFetchError } from "./http-client.js";
import { DEFAULT_RETRY_MS, freshStream, type HttpLink } from "./http-inbound.js";

const MAX_GET_BACKOFF_MS = 30_000;

export function openListeningStream(link: HttpLink): void {
  void listen(link, 0);
}

async function listen(link: HttpLink, attempt: number, lastEventId?: string): Promise<void> {
  if (link.closed()) return;
  let response: Response;
  try {
    response = await link.fetch(link.url, {
      method: "GET",
      headers: link.headers({ accept: "text/event-stream", ...(lastEventId ? { "last-event-id": lastEventId } : {}) }),
      signal: link.closing,
    });
  } catch (error) {
    if (link.closed()) return;
    link.log.debug("GET stream failed", { error: describeFetchError(error) });
    return relisten(link, attempt + 1, lastEventId);
  }
  if (response.status === 405 || !response.ok || !response.body) {
    await response.body?.cancel().catch(() => {});
    if (response.status !== 405) link.log.debug("server refused the GET stream", { status: response.status });
    return;
  }
  const state = freshStream(lastEventId);
  await link.inbound.consume(response.body, undefined, state);
  if (!link.closed()) return relisten(link, 0, state.lastEventId, state.retryMs);
}

async function relisten(link: HttpLink, attempt: number, lastEventId?: string, retryMs?: number): Promise<void> {
  const delay = retryMs ?? Math.min(MAX_GET_BACKOFF_MS, DEFAULT_RETRY_MS * 2 ** attempt);
  await sleep(delay, link.closing);
  return listen(link, attempt, lastEventId);
}

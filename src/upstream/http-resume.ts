/**
 * Resuming a Streamable HTTP response stream that broke before its answer, as SEP-1699 asks:
 * GET with `Last-Event-ID` after the server's `retry`, again while resumptions bring something,
 * until the answer comes or it is clear it will not (legacy era only: a 2026-07-28 stream
 * cannot be resumed). The request itself is never sent again.
 */
import type { RequestId } from "../protocol/jsonrpc.js";
import { sleep } from "../util/sleep.js";
import { describeFetchError } from "./http-client.js";
import type { HttpLink, StreamState } from "./http-inbound.js";

/** Resumptions in a row that bring nothing, after which the answer is taken as lost. */
const MAX_RESUMES = 5;
/**
 * A resumed stream that has delivered nothing at all this long will not deliver the answer: a
 * server that kept it replays it at once (SDK 1.27-1.29 servers lose it and stay silent).
 */
const RESUME_QUIET_MS = 5_000;

/** Undefined once answered (or closing), else why the answer cannot be had. */
export async function resumeStream(link: HttpLink, related: RequestId, state: StreamState): Promise<string | undefined> {
  if (state.lastEventId === undefined) return "and gave no event id to resume it from";
  for (let fruitless = 0; fruitless < MAX_RESUMES; fruitless++) {
    await sleep(state.retryMs, link.closing);
    if (link.closed()) return undefined;
    let response: Response;
    try {
      response = await resumeRequest(link, state.lastEventId);
    } catch (error) {
      if (link.closed()) return undefined;
      link.log.debug("resuming a stream failed", { error: describeFetchError(error) });
      continue;
    }
    if (!response.ok || !response.body) {
      await response.body?.cancel().catch(() => {});
      return `and resuming it (GET with Last-Event-ID) got HTTP ${response.status}`;
    }
    const before = state.events;
    const quiet = await link.inbound.consume(response.body, related, state, RESUME_QUIET_MS);
    if (state.answered || link.closed()) return undefined;
    if (quiet) return `and the resumed stream (GET with Last-Event-ID) delivered nothing for ${RESUME_QUIET_MS / 1000}s`;
    if (state.events > before) fruitless = -1; // it brought something: the server is still at work
  }
  return `and ${MAX_RESUMES} resumptions in a row (GET with Last-Event-ID) delivered nothing`;
}

/** The GET that resumes a stream; a server that sends no headers within the quiet bound fails it. */
async function resumeRequest(link: HttpLink, lastEventId: string): Promise<Response> {
  const timeout = AbortSignal.timeout(RESUME_QUIET_MS);
  const request = new AbortController();
  const stop = (): void => request.abort();
  link.closing.addEventListener("abort", stop, { once: true });
  timeout.addEventListener("abort", stop, { once: true });
  try {
    const response = await link.fetch(link.url, {
      method: "GET",
      headers: link.headers({ accept: "text/event-stream", "last-event-id": lastEventId }),
      signal: request.signal,
    });
    // Headers are in: from here the body is read (and bounded) by consume.
    timeout.removeEventListener("abort", stop);
    return response;
  } finally {
    link.closing.removeEventListener("abort", stop);
  }
}

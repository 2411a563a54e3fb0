/**
 * When a question has nobody left to read its answer: the upstream stopped waiting for it, or
 * every call it could belong to has ended. Either closes it (`cancel`) on every surface.
 */
import type { Broker } from "../broker/broker.js";
import { CLOSED_BECAUSE, serverStoppedWaiting } from "../broker/settled-why.js";
import type { QuestionRecord } from "../broker/types.js";
import type { Upstream } from "../upstream/upstream.js";
import type { Logger } from "../util/log.js";
import type { Attribution } from "./attribution.js";

/**
 * Close the question once the upstream stops waiting for it: it cancelled its request (its own
 * timeout, say) or its connection ended, so nobody would read an answer. Nothing on the wire
 * says beforehand how long a server waits, so stopping before the deadline is logged with the
 * setting that would make the deadline shown the server's.
 */
export function closeWhenServerStops(
  broker: Broker,
  upstream: Upstream,
  signal: AbortSignal,
  record: QuestionRecord,
  attribution: Attribution,
  log: Logger,
): () => void {
  const stopped = async (): Promise<void> => {
    // The caller's cancellation may end the question this way too (a 2026-07-28 upstream's round ends with its call).
    if (attribution.calls.length > 0 && attribution.calls.every((call) => call.signal?.aborted === true)) {
      await broker.close(record.id, CLOSED_BECAUSE.callCancelled);
      return;
    }
    const why = serverStoppedWaiting(reasonOf(signal));
    if ((await broker.get(record.id))?.state === "pending") {
      const waited = Math.round((Date.now() - Date.parse(record.createdAt)) / 1000);
      log.warn("the server stopped waiting before the question's deadline; the question is closed", {
        why,
        waitedSeconds: waited,
        deadline: record.expiresAt,
        hint: `give "${upstream.name}" "elicitation": { "ttlSeconds": ${Math.max(1, waited)} } so the deadline shown is the server's, or make the server wait longer`,
      });
    }
    await broker.close(record.id, why);
  };
  const onAbort = (): void => {
    stopped().catch((error: unknown) => log.warn("could not close the question the server stopped waiting for", { question: record.id, error }));
  };
  if (signal.aborted) onAbort();
  else signal.addEventListener("abort", onAbort, { once: true });
  return () => signal.removeEventListener("abort", onAbort);
}

/**
 * Close the question (`gone`, with why) once every call it could belong to has ended: its
 * answer then reaches nobody, or only a handler whose caller gave up (a booking nobody waits
 * for). Also for a question no single host can be proven to own: whoever it belongs to is one
 * of those calls. Not when a call cannot be followed (`mcpx call`'s runner ends with its call),
 * nor for a question raised while no call was in flight (the server asked on its own).
 */
export function followCalls(attribution: Attribution, gone: (why: string) => void): () => void {
  const ends = attribution.calls.map((call) => call.ended?.());
  if (ends.length === 0 || !ends.every((signal): signal is AbortSignal => signal !== undefined)) return () => {};
  const check = (): void => {
    if (!ends.every((signal) => signal.aborted)) return;
    const cancelled = attribution.calls.every((call) => call.signal?.aborted === true);
    gone(cancelled ? CLOSED_BECAUSE.callCancelled : CLOSED_BECAUSE.callEnded);
  };
  for (const signal of ends) signal.addEventListener("abort", check, { once: true });
  check();
  return () => {
    for (const signal of ends) signal.removeEventListener("abort", check);
  };
}

/** What the upstream (or its connection) said when it stopped waiting. */
function reasonOf(signal: AbortSignal): string | undefined {
  const reason: unknown = signal.reason;
  if (typeof reason === "string") return reason;
  return reason instanceof Error ? reason.message : undefined;
}

/**
 * Design rule 7, as a client: an upstream negotiated at 2025-11-25 answers a host's request
 * with `-32042` (URL elicitation required). Each `data.elicitations` entry becomes a URL
 * question in the broker, raised by that very call (so the calling host is asked inline when
 * it takes URL questions; otherwise it waits for the CLI, the page, REST). Once every one is
 * complete (the upstream's `notifications/elicitation/complete`, or a person's "done"), the
 * request is sent again exactly once, same params, new id; its outcome is the host's.
 *
 * Decline, cancel, expiry, or `-32042` again end the call with an error saying which, naming
 * the server. Malformed `data` passes the original error through untouched. For upstreams of
 * other revisions, or with no one here to answer, `-32042` is just an error code: relayed as
 * it is only to a host that could itself act on it (2025-11-25, `elicitation.url`).
 */
import { randomUUID } from "node:crypto";
import { ErrorCode, isObject, type JsonObject } from "../protocol/jsonrpc.js";
import { RpcError } from "../protocol/errors.js";
import { defines } from "../protocol/revisions.js";
import { questionRefusal, type Question } from "../render/question.js";
import { elicitationModes } from "../render/host.js";
import type { QuestionRecord } from "../broker/types.js";
import type { Upstream } from "../upstream/upstream.js";
import { askAndWait, type QuestionRelay } from "./questions.js";
import type { CallerContext, HostSession } from "./session.js";

/**
 * Send the request (`send`, which may be called twice); resolve a `-32042` answer as above.
 * `signal` ends the wait (the host cancelled or went away).
 */
export async function sendResolvingUrlRequired(
  gateway: QuestionRelay,
  upstream: Upstream,
  owner: CallerContext,
  method: string,
  signal: AbortSignal,
  send: () => Promise<JsonObject>,
): Promise<JsonObject> {
  try {
    return await send();
  } catch (error) {
    if (!isUrlRequired(error)) throw error;
    if (!resolvesHere(gateway, upstream)) throw relayed(error, upstream, owner.session);
    const elicitations = urlElicitations(error.data);
    if (!elicitations) {
      gateway.log.info("an upstream's -32042 has no usable data.elicitations; passing it on as it is", { server: upstream.name });
      throw error;
    }
    gateway.log.info("the upstream needs URL elicitations completed first", { server: upstream.name, method, count: elicitations.length });
    await completeAll(gateway, upstream, owner, method, signal, elicitations);
  }
  try {
    return await send();
  } catch (error) {
    if (!isUrlRequired(error)) throw error;
    throw new RpcError(
      ErrorCode.InternalError,
      `"${upstream.name}" answered ${method} with -32042 (URL elicitation required) again after its URL questions were completed; mcpx retries only once`,
      { server: upstream.name, reason: "url-required-again" },
    );
  }
}

function isUrlRequired(error: unknown): error is RpcError {
  return error instanceof RpcError && error.code === ErrorCode.UrlElicitationRequired;
}

/** Only a 2025-11-25 upstream's -32042 means this, and only with a broker and questions allowed. */
function resolvesHere(gateway: QuestionRelay, upstream: Upstream): boolean {
  if (!upstream.revision || !defines(upstream.revision, "urlElicitationRequiredError")) return false;
  return gateway.broker !== undefined && gateway.config.elicitation.mode !== "error";
}

/**
 * The entries, when each is a URL-mode elicitation with an id and an absolute http(s) URL (the spec's MUSTs);
 * undefined when any is not, or there are none.
 */
export function urlElicitations(data: unknown): JsonObject[] | undefined {
  if (!isObject(data) || !Array.isArray(data.elicitations) || data.elicitations.length === 0) return undefined;
  const entries: JsonObject[] = [];
  for (const entry of data.elicitations) {
    // Each as a URL question of the revision that has -32042 is checked (an id, an absolute http(s) url).
    if (!isObject(entry) || entry.mode !== "url" || questionRefusal("elicitation/create", entry, "2025-11-25")) return undefined;
    entries.push(entry);
  }
  return entries;
}

/** An upstream's own -32042 mcpx does not resolve: to a host that can act on it as it is, else a plain error. */
function relayed(error: RpcError, upstream: Upstream, session: HostSession | undefined): RpcError {
  const profile = session?.profile();
  if (profile && defines(profile.revision, "urlElicitationRequiredError") && elicitationModes(profile).has("url")) return error;
  return new RpcError(
    ErrorCode.InternalError,
    `"${upstream.name}" needs a URL elicitation completed first (${error.message}), which mcpx cannot resolve here ` +
      "and this host cannot be sent (that needs protocol 2025-11-25 and elicitation.url)",
    { server: upstream.name, reason: "url-required" },
  );
}

/** Every entry a URL question, all of them complete; else an error saying which ended how. */
async function completeAll(
  gateway: QuestionRelay,
  upstream: Upstream,
  owner: CallerContext,
  method: string,
  signal: AbortSignal,
  elicitations: JsonObject[],
): Promise<void> {
  const stop = new AbortController();
  const follow = (): void => stop.abort(signal.reason);
  if (signal.aborted) follow();
  signal.addEventListener("abort", follow, { once: true });
  try {
    const questions = elicitations.map((entry) => urlQuestion(upstream.name, entry));
    // One ending early (declined, say) withdraws the others: the call ends either way.
    await Promise.all(
      questions.map((question) =>
        completeOne(gateway, upstream, owner, method, stop.signal, question).catch((error: unknown) => {
          stop.abort("another URL question of the same call ended");
          throw error;
        }),
      ),
    );
  } finally {
    signal.removeEventListener("abort", follow);
  }
}

function urlQuestion(server: string, entry: JsonObject): Question {
  const params = structuredClone(entry);
  return { id: randomUUID(), server, kind: "elicitation", method: "elicitation/create", params, mode: "url" };
}

async function completeOne(
  gateway: QuestionRelay,
  upstream: Upstream,
  owner: CallerContext,
  method: string,
  signal: AbortSignal,
  question: Question,
): Promise<void> {
  const broker = gateway.broker!;
  // Raised by that very call: attribution is exact (design rule 5).
  const outcome = await askAndWait(gateway, upstream, signal, question, { level: "call", call: owner, calls: [owner] });
  const record = await broker.get(question.id);
  if (!record) throw ended(upstream, method, question.id, outcome.action === "decline" ? "declined" : "cancelled");
  if (outcome.action !== "accept") throw ended(upstream, method, record.id, how(record));
  if (acceptedByHostWithoutCompletion(record, owner)) await broker.complete(record.id, record.answer!.by);
  const finished = await broker.untilFinished(record.id, Date.parse(record.expiresAt), signal);
  if (finished.completion) return;
  throw ended(upstream, method, record.id, signal.aborted ? "cancelled (the call ended)" : "expired before it was completed");
}

/**
 * A 2026-07-28 host hears no completion notification: it retries with `accept` once the person
 * is done at the URL (MRTR), so its own accept is the interaction's end, as a person's "done" is.
 */
function acceptedByHostWithoutCompletion(record: QuestionRecord, owner: CallerContext): boolean {
  const profile = owner.session?.profile();
  if (!profile || defines(profile.revision, "elicitationComplete")) return false;
  return record.completion === undefined && record.answer?.action === "accept" && record.answer.by === `host:${owner.session!.id}`;
}

function how(record: QuestionRecord): string {
  const by = record.answer?.by ?? "nobody";
  if (record.state === "expired") return "expired (nobody answered it)";
  if (record.state === "closed") return `closed (${by.replace(/^closed: /, "")})`;
  return `${record.answer?.action === "decline" ? "declined" : "cancelled"} (by ${by})`;
}

function ended(upstream: Upstream, method: string, questionId: string, which: string): RpcError {
  return new RpcError(
    ErrorCode.InternalError,
    `"${upstream.name}" needs a URL elicitation completed before it answers ${method}, and it was ${which}: ` +
      `mcpx question ${questionId} (mcpx elicit show ${questionId}); the request was not retried`,
    { server: upstream.name, reason: which.split(" ")[0], question: questionId },
  );
}

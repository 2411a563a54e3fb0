/**
 * A sign-in raised when mcpx connected to a server (no call was there to carry it, so it waits
 * for a person on the page and in `mcpx elicit`) is put to each host whose call then waits for
 * it as well: inline on that call when the host takes URL questions in its era's way, by
 * `-32042` where design rule 7 allows, else the host is told where it waits; a `mcpx call`
 * takes it as its own question. It is the same question, not another: the first answer from
 * anywhere settles it, and the sign-in's completion reaches every host that was asked.
 */
import { identityOf, LOCAL_IDENTITY } from "../broker/identity.js";
import { questionFromRequest } from "../render/question.js";
import type { Upstream } from "../upstream/upstream.js";
import { attribute, routeOf } from "./attribution.js";
import { askInlineAndSettle } from "./inline.js";
import type { QuestionRelay } from "./questions.js";
import type { CallerContext } from "./session.js";
import { tellCallerItWaits } from "./where-it-waits.js";

export function askWaitingCaller(
  gateway: QuestionRelay,
  upstream: Upstream,
  elicitationId: string,
  caller: CallerContext,
  signal: AbortSignal | undefined,
): void {
  askWhenRead(gateway, upstream, elicitationId, caller, signal).catch((error: unknown) =>
    gateway.log.warn("could not ask the waiting caller's host about the sign-in", { server: upstream.name, error }),
  );
}

async function askWhenRead(
  gateway: QuestionRelay,
  upstream: Upstream,
  elicitationId: string,
  caller: CallerContext,
  signal: AbortSignal | undefined,
): Promise<void> {
  const { broker } = gateway;
  const id = gateway.urlQuestions.get(upstream, elicitationId);
  const record = id === undefined ? undefined : await broker?.get(id);
  // Consented to already (the person is signing in) or over: the call just waits for the sign-in.
  if (!broker || !record || record.state !== "pending") return;
  // A `mcpx call` of the operator's: the question becomes its own, which the command shows as it shows any.
  if (!caller.session) {
    if (caller.callId !== undefined && identityOf(record) === LOCAL_IDENTITY) await broker.attachToCall(record.id, caller.callId);
    return;
  }
  const question = questionFromRequest(record.id, record.server, record.method, record.params);
  const attribution = attribute([caller], undefined);
  const route = routeOf(attribution);
  if (!question || !caller.session || !route) return;
  const log = gateway.log.child({ server: upstream.name, question: record.id, method: record.method });
  log.info("a call waits for a sign-in asked before it came: its host is asked too", { session: caller.session.id });
  const asked = new AbortController();
  const stop = (): void => asked.abort();
  signal?.addEventListener("abort", stop, { once: true });
  broker
    .wait(record.id)
    .catch(() => {}) // a question gone from the store: nothing more to ask
    .finally(() => {
      signal?.removeEventListener("abort", stop);
      stop();
    });
  askInlineAndSettle(
    gateway,
    upstream,
    { question, record, host: caller.session, attribution, signal: asked.signal, log },
    {
      notAsked: (why) => tellCallerItWaits(record, route, why, gateway.servesPage),
      // Nothing to undo: the question stays open for the page, the CLI and other hosts.
      didNotCount: () => {},
      gone: () => {},
    },
  );
}

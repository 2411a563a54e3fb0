/**
 * Requests an upstream sends to the user side (elicitation, sampling, roots): to the host
 * whose call caused them, rendered for that host, or else to nobody, answered `cancel`.
 *
 * Design rules 1 and 5: a question goes only to a host that provably made the call and that
 * can take it as rendered for its revision. Nothing is ever sent to another host.
 */
import { randomUUID } from "node:crypto";
import { isObject, type JsonObject } from "../protocol/jsonrpc.js";
import { GatewayError, methodNotFound, RpcError } from "../protocol/errors.js";
import type { IncomingContext } from "../rpc/peer.js";
import { questionFromRequest, type Question } from "../render/question.js";
import { renderForHost } from "../render/render.js";
import type { Upstream } from "../upstream/upstream.js";
import type { Gateway } from "./gateway.js";
import type { HostCall, HostSession } from "./session.js";

/** URL elicitations delivered to a host, so their completion goes to that host alone. */
class DeliveredElicitations {
  readonly #byKey = new Map<string, HostSession>();
  remember(server: string, elicitationId: string, session: HostSession): void {
    this.#byKey.set(`${server}\u0000${elicitationId}`, session);
  }
  take(server: string, elicitationId: string): HostSession | undefined {
    const key = `${server}\u0000${elicitationId}`;
    const session = this.#byKey.get(key);
    this.#byKey.delete(key);
    return session;
  }
}
export const deliveredElicitations = new DeliveredElicitations();

export async function relayQuestion(
  gateway: Gateway,
  upstream: Upstream,
  context: IncomingContext,
  owner: HostCall | undefined,
): Promise<JsonObject> {
  const { request } = context;
  const question = questionFromRequest(randomUUID(), upstream.name, request.method, request.params);
  if (!question) throw methodNotFound(request.method);
  const log = gateway.log.child({ server: upstream.name, question: question.id, method: question.method });

  const profile = owner?.session.profile();
  if (owner && profile && !owner.session.closed) {
    const rendered = renderForHost(question, profile, { nameServer: !upstream.config.passthrough });
    if (rendered.sendable) {
      log.info("asking the host that made the call", { session: owner.session.id });
      rememberUrlElicitation(question, owner.session);
      try {
        return await owner.session.peer.request(rendered.method, rendered.params, {
          route: { relatedRequestId: owner.requestId },
          signal: context.signal,
        });
      } catch (error) {
        if (error instanceof RpcError) throw error; // the host's own answer
        log.warn("the host went away before answering", { error });
        return nobodyAnswered(question, "the host that made the call went away before answering");
      }
    }
    log.info("the calling host cannot take this question", { session: owner.session.id, reason: rendered.reason });
    return nobodyAnswered(question, rendered.reason);
  }
  const why = owner ? "the calling host has not finished initializing" : "no single call it belongs to can be proven";
  log.warn("no host can be asked this question", { reason: why });
  return nobodyAnswered(question, why);
}

function rememberUrlElicitation(question: Question, session: HostSession): void {
  const id = isObject(question.params) ? question.params.elicitationId : undefined;
  if (question.mode === "url" && typeof id === "string") deliveredElicitations.remember(question.server, id, session);
}

/** Until the broker lands: elicitation is cancelled (nobody was asked), anything else fails. */
function nobodyAnswered(question: Question, why: string): JsonObject {
  if (question.kind === "elicitation") return { action: "cancel" };
  throw new GatewayError("UPSTREAM_UNAVAILABLE", `no host can answer ${question.method} from "${question.server}": ${why}`);
}

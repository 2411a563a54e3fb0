/**
 * Multi round-trip requests toward modern hosts (2026-07-28 MRTR). A modern host's `tools/call`,
 * `prompts/get` or `resources/read` is a call mcpx holds open: when a question for the host
 * arises (an upstream's elicitation or sampling, on any era of upstream), the host's current
 * request is answered `input_required` with the question rendered for 2026 and a signed
 * `requestState`; the host's retry (same or new connection, new id) brings `inputResponses`,
 * which answer the broker questions (the first answer stands), and the call goes on: to its
 * result, or to another round. Rounds are bounded (`limits.maxInputRounds`); a round nobody
 * retries lapses after `limits.inputRoundSeconds`, and the call is cancelled (its questions close
 * `cancel`). One host may leave `limits.maxWaitingRoundsPerHost` calls waiting for its retry, so
 * its abandoned calls cannot use up the questions other hosts may be asked.
 *
 * Seam for the upstream's -32042 (URL elicitation required): when the other side of issue 9
 * turns it into broker questions, they arrive here through `ask` like any other question.
 */
import { randomUUID } from "node:crypto";
import { RpcError, invalidParams } from "../../protocol/errors.js";
import { ErrorCode, isObject, type JsonObject } from "../../protocol/jsonrpc.js";
import type { IncomingContext } from "../../rpc/peer.js";
import { requestStateKey } from "../../broker/token.js";
import { stateDir } from "../../broker/state-dir.js";
import type { Gateway } from "../gateway.js";
import { dispatch } from "../dispatch.js";
import type { HostSession } from "../session.js";
import type { Envelope } from "./envelope.js";
import { ModernRequestSession, type InputSink } from "./request-session.js";
import { inputResponsesRefusal } from "./input-responses.js";
import { hostIdentity } from "./host-identity.js";
import { digest, RequestStateSigner, type Binding } from "./request-state.js";
import { CALL_TOOL } from "../gateway-tools/definitions.js";
import { callTarget } from "../gateway-tools/call.js";

/** The requests that may be answered `input_required`. */
export const MRTR_METHODS = new Set(["tools/call", "prompts/get", "resources/read"]);

interface Ask {
  method: string;
  params: JsonObject;
  resolve: (result: JsonObject) => void;
}

type Outcome = { ok: true; result: JsonObject } | { ok: false; error: unknown };

class ModernCall implements InputSink {
  readonly controller = new AbortController();
  /** Questions asked of the host and not yet answered by it, by input-request key. */
  readonly asks = new Map<string, Ask>();
  round = 0;
  outcome: Outcome | undefined;
  /** A retry is being answered now. */
  busy = false;
  #wake: (() => void) | undefined;
  #notifying: NodeJS.Immediate | undefined;
  #expiry: NodeJS.Timeout | undefined;

  constructor(
    readonly session: ModernRequestSession,
    readonly binding: Binding,
    /** The host it is held for (host-identity.ts): its share of waiting calls is bounded. */
    readonly identity: string,
    /** In a cluster, the id names this instance, so a retry reaching another is handed on here. */
    readonly id: string = randomUUID(),
  ) {}

  /** Answered input_required and waiting for the host's retry. */
  get waiting(): boolean {
    return this.round > 0 && !this.busy && !this.outcome;
  }

  ask(inputKey: string, method: string, params: JsonObject, signal: AbortSignal | undefined): Promise<JsonObject> {
    return new Promise((resolve, reject) => {
      // Keys are unique within a round; one still open from elsewhere gets a fresh name.
      const key = this.asks.has(inputKey) ? `${inputKey}~${randomUUID()}` : inputKey;
      const withdraw = (): void => {
        if (this.asks.delete(key)) reject(new RpcError(ErrorCode.InternalError, "the question was settled elsewhere"));
      };
      if (signal?.aborted) return withdraw();
      signal?.addEventListener("abort", withdraw, { once: true });
      this.asks.set(key, {
        method,
        params,
        resolve: (result) => {
          signal?.removeEventListener("abort", withdraw);
          resolve(result);
        },
      });
      this.#notifySoon();
    });
  }

  /**
   * Questions an upstream sends together reach the call one by one, each after the store has
   * recorded it: the round is answered a turn of the event loop after the first, so it carries
   * them all (as one input_required with every request, not one round each).
   */
  #notifySoon(): void {
    if (this.#notifying) return;
    this.#notifying = setImmediate(() => {
      this.#notifying = undefined;
      this.#notify();
    });
  }

  /** The first outcome stands: a call failed early still hears its dispatch end. */
  settle(outcome: Outcome): void {
    if (this.outcome) return;
    this.outcome = outcome;
    this.#notify();
  }

  fail(error: RpcError): void {
    this.settle({ ok: false, error });
    this.controller.abort();
  }

  /** The open questions' methods, by key. */
  asked(): Map<string, string> {
    return new Map([...this.asks].map(([key, ask]) => [key, ask.method]));
  }

  /** The host's answers, by key; unknown keys are ignored (MRTR: SHOULD ignore). */
  answer(responses: unknown): void {
    if (!isObject(responses)) return;
    for (const [key, ask] of [...this.asks]) {
      const response = Object.hasOwn(responses, key) ? responses[key] : undefined;
      if (!isObject(response)) continue;
      this.asks.delete(key);
      ask.resolve(response);
    }
  }

  /** Resolves once the call has its outcome or a question for the host, or `signal` aborts. */
  next(signal: AbortSignal): Promise<void> {
    if (this.outcome || this.asks.size || signal.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        signal.removeEventListener("abort", done);
        this.#wake = undefined;
        resolve();
      };
      this.#wake = done;
      signal.addEventListener("abort", done, { once: true });
    });
  }

  inputRequests(): JsonObject {
    return Object.fromEntries([...this.asks].map(([key, ask]) => [key, { method: ask.method, params: ask.params }]));
  }

  expireAt(at: number, expired: () => void): void {
    this.stopExpiry();
    this.#expiry = setTimeout(expired, Math.max(0, at - Date.now()));
    this.#expiry.unref();
  }

  stopExpiry(): void {
    clearTimeout(this.#expiry);
  }

  cancel(): void {
    this.stopExpiry();
    this.controller.abort();
  }

  #notify(): void {
    this.#wake?.();
  }
}

/** The calls one gateway holds open for modern hosts. */
class ModernCalls {
  readonly #calls = new Map<string, ModernCall>();
  #signer: Promise<RequestStateSigner> | undefined;

  constructor(private readonly gateway: Gateway) {}

  /** Signs with the store's shared key: every instance on one store verifies what any of them signed. */
  signer(): Promise<RequestStateSigner> {
    const secrets = this.gateway.broker?.store.secrets;
    this.#signer ??= (async () => new RequestStateSigner(secrets ? Buffer.from(await secrets.get("request-state-key"), "hex") : requestStateKey(stateDir())))();
    return this.#signer;
  }

  start(base: HostSession, envelope: Envelope, context: IncomingContext, params: JsonObject, binding: Binding): ModernCall {
    const session = new ModernRequestSession(base, envelope);
    session.follow(context.request, base);
    const call = new ModernCall(session, binding, hostIdentity(base, envelope), this.gateway.cluster?.newId());
    session.sink = call;
    this.#calls.set(call.id, call);
    const request = { ...context.request, params };
    // The upstream call lives as long as the modern call, not as long as this first request.
    dispatch(this.gateway, session, { request, signal: call.controller.signal, arrival: context.arrival })
      .then(
        (result) => call.settle({ ok: true, result }),
        (error: unknown) => call.settle({ ok: false, error }),
      )
      .finally(() => void this.gateway.closeSession(session));
    return call;
  }

  /** The call a retry's `requestState` names: verified, current, and not being answered already. */
  resume(signer: RequestStateSigner, state: unknown, binding: Binding, identity: string): ModernCall {
    const claims = signer.verify(state, binding);
    if ("refused" in claims) throw invalidParams(claims.refused);
    const call = this.#calls.get(claims.call);
    // Another identity's call is no call of this host's: refused as one that ended (nothing said of it).
    if (!call || call.session.identity !== identity)
      throw invalidParams("the call this requestState belongs to is no longer open in mcpx (it ended, expired, or mcpx restarted); call again");
    if (claims.round !== call.round) throw invalidParams("this requestState is of an earlier round of the call; send the latest one");
    if (call.busy) throw invalidParams("a retry of this call is already being answered");
    return call;
  }

  /** How many calls of this host wait for its retry. */
  waitingFor(identity: string): number {
    let count = 0;
    for (const call of this.#calls.values()) if (call.identity === identity && call.waiting) count++;
    return count;
  }

  end(call: ModernCall): void {
    call.stopExpiry();
    this.#calls.delete(call.id);
  }

  /**
   * Nobody retried in time: the round lapses. The call is cancelled, which closes its questions
   * (`cancel` to the upstream, as for a call that ended) and cancels the upstream call.
   */
  expire(call: ModernCall): void {
    this.gateway.log.info("a modern host did not retry its call in time (limits.inputRoundSeconds); it is cancelled", { call: call.id });
    this.end(call);
    call.cancel();
  }
}

const byGateway = new WeakMap<Gateway, ModernCalls>();

function callsOf(gateway: Gateway): ModernCalls {
  let calls = byGateway.get(gateway);
  if (!calls) byGateway.set(gateway, (calls = new ModernCalls(gateway)));
  return calls;
}

/** What a retry must repeat of the original request: for mcpx__call, the tool it calls and that tool's arguments. */
function bindingOf(method: string, params: JsonObject): Binding {
  const called = method === "tools/call" && params.name === CALL_TOOL ? callTarget(params) : undefined;
  if (called) return { method, target: called.name, args: digest(called.arguments) };
  const target = method === "resources/read" ? params.uri : params.name;
  return { method, target: typeof target === "string" ? target : "", args: digest(params.arguments ?? null) };
}

/**
 * One round of a modern host's call: the first request, or a retry with `requestState`.
 * @param forwardable the request's params as upstreams may see them (no envelope, no MRTR fields).
 */
export async function serveRound(
  gateway: Gateway,
  base: HostSession,
  envelope: Envelope,
  context: IncomingContext,
  forwardable: JsonObject,
): Promise<JsonObject> {
  const calls = callsOf(gateway);
  const { method } = context.request;
  const params = context.request.params ?? {};
  const binding = bindingOf(method, params);
  // Awaited first: from the check that no retry answers this call already to marking it busy, nothing waits.
  const signer = await calls.signer();
  let call: ModernCall;
  if (params.requestState !== undefined) {
    call = calls.resume(signer, params.requestState, binding, base.identity);
    // A malformed answer is refused before anything of the retry is taken: the round stays as it was.
    const refused = inputResponsesRefusal(params.inputResponses, call.asked());
    if (refused) throw refused;
    call.session.apply(envelope); // this request's capabilities, not the last round's
    call.session.follow(context.request, base);
    call.stopExpiry();
    call.answer(params.inputResponses);
  } else {
    await gateway.start();
    call = calls.start(base, envelope, context, forwardable, binding);
  }
  // Cancelling this request (or on HTTP closing its stream) cancels the call.
  const cancel = (): void => {
    calls.end(call);
    call.cancel();
  };
  context.signal.addEventListener("abort", cancel, { once: true });
  call.busy = true;
  try {
    await call.next(context.signal);
    if (context.signal.aborted) throw new RpcError(ErrorCode.InternalError, "cancelled");
    if (call.outcome) {
      calls.end(call);
      if (call.outcome.ok) return call.outcome.result;
      throw call.outcome.error;
    }
    const limit = gateway.config.limits.maxInputRounds;
    if (call.round >= limit) {
      cancel();
      throw new RpcError(ErrorCode.InternalError, `${method} needed more than ${limit} rounds of input (limits.maxInputRounds); it was cancelled`, {
        code: "INPUT_ROUNDS",
        limit,
      });
    }
    const share = gateway.config.limits.maxWaitingRoundsPerHost;
    if (call.round === 0 && calls.waitingFor(call.identity) >= share) {
      // Another call of this host's would wait: its share is used. The others' stays whole.
      cancel();
      throw new RpcError(
        ErrorCode.InternalError,
        `${method} needs your answers, but ${share} calls of yours already wait for your retry (limits.maxWaitingRoundsPerHost); retry or cancel them, or call again after they lapse`,
        { code: "WAITING_ROUNDS", limit: share },
      );
    }
    call.round++;
    // A round lapses long before a person's question would: the host retries as soon as it has its answers.
    const { inputRoundSeconds } = gateway.config.limits;
    const expiresAt = Date.now() + Math.min(inputRoundSeconds, gateway.config.elicitation.ttlSeconds) * 1000;
    call.expireAt(expiresAt, () => calls.expire(call));
    const requestState = signer.sign({ call: call.id, round: call.round, ...binding, expiresAt });
    return { resultType: "input_required", inputRequests: call.inputRequests(), requestState };
  } finally {
    call.busy = false;
    context.signal.removeEventListener("abort", cancel);
  }
}

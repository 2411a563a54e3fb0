/**
 * Multi round-trip requests toward a 2026-07-28 upstream (mcpx is the client).
 *
 * A `tools/call`, `prompts/get` or `resources/read` may be answered `input_required`: the
 * server's questions (`inputRequests`) and an opaque `requestState`. Each question is asked
 * the way a legacy server's request would be (`ask`: the broker and the calling host), and the
 * request is sent again, as a new request, with the answers and the `requestState` exactly as
 * it came, until the server answers `complete`, for at most `maxRounds` retries.
 */
import { GatewayError } from "../protocol/errors.js";
import { isObject, type JsonObject } from "../protocol/jsonrpc.js";
import { inputResponse, readOutcome } from "../protocol/modern.js";
import type { Revision } from "../protocol/revisions.js";
import { questionRefusal } from "../render/question.js";
import type { IncomingContext } from "../rpc/peer.js";

export interface InputRounds {
  server: string;
  method: string;
  /** The request's own params (no envelope, no earlier round's answers). */
  params: JsonObject;
  /** `limits.maxInputRounds`. */
  maxRounds: number;
  /** The server's revision: what its input requests must carry. */
  revision: Revision | undefined;
  /** Send the request once (a new id each time) and give back the raw result. */
  send(params: JsonObject): Promise<JsonObject>;
  /** Ask one input request (`{method, params}`) and give back the answer; stop asking when `signal` aborts. */
  ask(key: string, request: JsonObject, signal: AbortSignal): Promise<JsonObject>;
  /** The server answered with a task (it may, as the request declared the tasks extension): what the call gives back for it. */
  task(created: JsonObject): Promise<JsonObject>;
}

export async function withInputRounds(rounds: InputRounds): Promise<JsonObject> {
  const { method, server } = rounds;
  // State belongs to one retry only. Answers the caller sent unasked go with the first request
  // alone (the server uses or ignores them); each retry carries the answers to its own round.
  const { inputResponses: given, requestState: _state, ...base } = rounds.params;
  let params: JsonObject = isObject(given) ? { ...base, inputResponses: given } : base;
  for (let round = 0; ; round++) {
    const outcome = readOutcome(method, await rounds.send(params));
    if (outcome.kind === "complete") return outcome.result;
    if (outcome.kind === "task") return rounds.task(outcome.created);
    if (outcome.kind === "invalid") throw new GatewayError("UPSTREAM_PROTOCOL", `upstream "${server}" answered ${method} with ${outcome.why}`, { server });
    if (round >= rounds.maxRounds) {
      throw new GatewayError(
        "UPSTREAM_PROTOCOL",
        `upstream "${server}" still asked for input after ${rounds.maxRounds} rounds of ${method}; mcpx gave up (limits.maxInputRounds)`,
        { server, limit: "limits.maxInputRounds", rounds: rounds.maxRounds },
      );
    }
    const answers = await answerAll(rounds, outcome.inputRequests);
    params = {
      ...base,
      ...(Object.keys(answers).length ? { inputResponses: answers } : {}),
      // Echoed exactly as it came (a string is carried as is), and only when the server sent one.
      ...(outcome.requestState === undefined ? {} : { requestState: outcome.requestState }),
    };
  }
}

/** Every input request of one round, asked at once; one that fails withdraws the others. */
async function answerAll(rounds: InputRounds, requests: Record<string, JsonObject>): Promise<Record<string, JsonObject>> {
  refuseMalformed(rounds, requests);
  const stop = new AbortController();
  try {
    const answered = await Promise.all(
      Object.entries(requests).map(async ([key, request]) => {
        const answer = await rounds.ask(key, request, stop.signal);
        return [key, inputResponse(String(request.method), answer)] as const;
      }),
    );
    return Object.fromEntries(answered);
  } catch (error) {
    stop.abort("another question of the same round failed");
    throw error;
  }
}

/**
 * An input request the protocol forbids (a method no client takes, an undeclared elicitation
 * mode, a URL question without an absolute http(s) URL) is the server's protocol error: the
 * call fails as for any malformed result (-32603 naming the server), before anything is asked.
 * The host's request was valid, so it is never told it was not.
 */
function refuseMalformed(rounds: InputRounds, requests: Record<string, JsonObject>): void {
  for (const [key, request] of Object.entries(requests)) {
    const method = String(request.method);
    const refusal = questionRefusal(method, request.params, rounds.revision);
    if (!refusal) continue;
    throw new GatewayError(
      "UPSTREAM_PROTOCOL",
      `upstream "${rounds.server}" answered ${rounds.method} with an input request mcpx refuses: "${key}" (${method}): ${refusal.message}`,
      { server: rounds.server, inputKey: key, refused: refusal },
    );
  }
}

/** A modern result of a method that has no input rounds: complete, or a protocol error. */
export function completeWithoutRounds(server: string, method: string, result: JsonObject): JsonObject {
  const outcome = readOutcome(method, result);
  if (outcome.kind === "complete") return outcome.result;
  const why = outcome.kind === "invalid" ? outcome.why : `${outcome.kind}, which ${method} may not answer`;
  throw new GatewayError("UPSTREAM_PROTOCOL", `upstream "${server}" answered ${method} with ${why}`, { server });
}

/** A legacy server has no multi round-trip requests: a modern host's unasked answers are not for it. */
export function withoutInputFields(params: JsonObject | undefined): JsonObject | undefined {
  if (params?.inputResponses === undefined && params?.requestState === undefined) return params;
  const { inputResponses: _answers, requestState: _state, ...rest } = params;
  return rest;
}

/** An input request put as a legacy server's request would be, so that one path answers both. */
export function inputQuestion(key: string, request: JsonObject, signal: AbortSignal): IncomingContext {
  const params = isObject(request.params) ? request.params : {};
  return { request: { jsonrpc: "2.0", id: `input:${key}`, method: String(request.method), params }, signal, arrival: {} };
}

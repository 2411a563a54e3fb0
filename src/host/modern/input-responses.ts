/**
 * The answers a 2026-07-28 host brings in a retry (`inputResponses`), judged by shape before any
 * of them counts: each must be the result the protocol allows for the input request it answers
 * (an ElicitResult, a CreateMessageResult, a ListRootsResult). One that is not is refused with
 * -32602 at once, naming its key, and nothing of the retry is taken, so the question stays open
 * and a correct retry with the same requestState still works. Only the shape is judged: whether
 * accepted content fits the upstream's requestedSchema is the upstream's to say (design rule 8).
 */
import { invalidParams, type RpcError } from "../../protocol/errors.js";
import { createMessageResultProblem, elicitResultProblem } from "../../protocol/host-results.js";
import { isObject, type JsonObject } from "../../protocol/jsonrpc.js";

/** Why a ListRootsResult is not one, or undefined. */
function listRootsResultProblem(result: JsonObject): string | undefined {
  if (!Array.isArray(result.roots)) return '"roots" must be a list';
  const bad = result.roots.findIndex((root) => !isObject(root) || typeof root.uri !== "string");
  return bad === -1 ? undefined : `roots[${bad}] must be an object with a "uri" string`;
}

const RESULTS: Record<string, { name: string; problem: (result: JsonObject) => string | undefined }> = {
  "elicitation/create": { name: "ElicitResult", problem: elicitResultProblem },
  "sampling/createMessage": { name: "CreateMessageResult", problem: createMessageResultProblem },
  "roots/list": { name: "ListRootsResult", problem: listRootsResultProblem },
};

/**
 * The -32602 refusing a retry's answers, or undefined when every answer to an open question
 * has the shape its method allows. Keys of no open question are ignored (MRTR: SHOULD ignore).
 * @param asked the open questions' methods, by key.
 */
export function inputResponsesRefusal(responses: unknown, asked: ReadonlyMap<string, string>): RpcError | undefined {
  if (responses === undefined) return undefined;
  if (!isObject(responses)) return invalidParams("inputResponses must be an object of answers by input request key");
  for (const [key, method] of asked) {
    if (!Object.hasOwn(responses, key)) continue;
    const response = responses[key];
    const expected = RESULTS[method];
    if (!isObject(response)) return invalidParams(`inputResponses[${JSON.stringify(key)}] must be an object (the ${expected?.name ?? "result"} of ${method})`);
    const problem = expected?.problem(response);
    if (problem)
      return invalidParams(
        `inputResponses[${JSON.stringify(key)}] is not a valid ${expected!.name}: ${problem}; the question stays open, retry with a valid answer`,
      );
  }
  return undefined;
}

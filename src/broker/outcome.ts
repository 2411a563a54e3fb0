/**
 * What the upstream hears once a question is settled. Pure.
 *
 * Elicitation always gets an ElicitResult: expiry and a vanished call are `cancel`, never
 * `decline`. Sampling gets the accepted result, or an error saying who refused.
 */
import type { JsonObject } from "../protocol/jsonrpc.js";
import { RpcError } from "../protocol/errors.js";
import type { QuestionRecord } from "./types.js";

/** The spec's example code for a sampling request the user rejected. */
export const USER_REJECTED = -1;

export function outcomeFor(record: QuestionRecord): JsonObject {
  const answer = record.answer ?? { action: "cancel" as const, by: "nobody" };
  if (record.kind === "elicitation") {
    const withContent = answer.action === "accept" && record.mode !== "url" && answer.content !== undefined;
    return withContent ? { action: "accept", content: answer.content } : { action: answer.action };
  }
  if (answer.action === "accept" && answer.content) return answer.content;
  const what = answer.action === "decline" ? "declined" : "cancelled";
  throw new RpcError(USER_REJECTED, `${record.method} from "${record.server}" was ${what} (${answer.by})`);
}

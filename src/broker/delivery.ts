/**
 * Whether an answer reached the upstream that asked. Giving an answer and delivering it are two
 * steps in two processes: the store records the answer at once, and the process waiting on the
 * question records delivery once it has handed the answer over. Until then the answer is only
 * recorded; if that process is gone, or the question was closed, it never will be delivered.
 */
import { processAlive } from "../util/process.js";
import type { QuestionRecord } from "./types.js";

export type Delivery = "delivered" | "pending" | "undeliverable";

/** How far a settled question's answer got; undefined while the question is pending. */
export function deliveryOf(record: QuestionRecord, alive: (pid: number) => boolean = processAlive): Delivery | undefined {
  if (record.state === "pending") return undefined;
  if (record.deliveredAt !== undefined) return "delivered";
  if (record.state === "closed" || !alive(record.ownerPid)) return "undeliverable";
  return "pending";
}

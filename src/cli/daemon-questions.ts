/**
 * What the daemon's calls and runs watch for while they are made (daemon-calls.ts,
 * daemon-runs.ts): a question of their own, or one nobody can be proven to own (two calls in
 * flight on one stdio connection, design rule 5), which the command is told of rather than left
 * to wait silently. Either means the command goes on to follow the store.
 */
import type { Broker } from "../broker/broker.js";
import type { QuestionRecord } from "../broker/types.js";

/** A call or run id as commands make them (`randomUUID`); anything else is refused before the store sees it. */
export const COMMAND_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface QuestionWatch {
  /** Settles once such a question is pending. */
  asks: Promise<"waiting">;
  /** The questions nobody can be proven to own seen so far. */
  unattributed: Array<{ id: string; server: string }>;
  unsubscribe(): void;
}

/** @param server only an unowned question from this server counts (a run may call any: undefined). */
export function watchQuestions(broker: Broker, id: string, server?: string): QuestionWatch {
  let waiting!: () => void;
  const asks = new Promise<"waiting">((resolve) => (waiting = () => resolve("waiting")));
  const unattributed: Array<{ id: string; server: string }> = [];
  const unsubscribe = broker.subscribe((record: QuestionRecord) => {
    if (record.state !== "pending") return;
    if (record.callId === id) waiting();
    else if (record.callId === undefined && record.hostSession === undefined && (server === undefined || record.server === server)) {
      unattributed.push({ id: record.id, server: record.server });
      waiting();
    }
  });
  return { asks, unattributed, unsubscribe };
}

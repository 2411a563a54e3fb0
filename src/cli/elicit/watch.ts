/**
 * `mcpx elicit watch`: follow questions live until interrupted. Questions are opened and settled
 * by other processes, so this listens to the shared store (`onChange`) and prints what differs
 * from what it last saw: first the questions already pending, then each new one and each
 * settlement.
 */
import { LOCAL_IDENTITY, visibleTo } from "../../broker/identity.js";
import type { Broker } from "../../broker/broker.js";
import type { QuestionRecord } from "../../broker/types.js";
import { coalesced } from "../../util/coalesce.js";
import { inertJson } from "../inert.js";
import { watchLine } from "./format.js";

/** Expiry is a write someone must make; the owner does it on time, this only covers for a gone owner. */
const SWEEP_MS = 1_000;

export interface WatchOptions {
  json: boolean;
  write: (line: string) => void;
  /** Resolves when watching should stop (SIGINT in the CLI). */
  until: Promise<void>;
}

export async function watchQuestions(broker: Broker, options: WatchOptions): Promise<void> {
  const store = broker.store;
  const print = async (record: QuestionRecord): Promise<void> =>
    options.write(options.json ? inertJson(JSON.stringify(await broker.view(record))) : watchLine(record));
  const seen = new Map<string, QuestionRecord["state"]>();
  // As the operator (identity "local"), as every elicit command.
  const mine = async (): Promise<QuestionRecord[]> => (await store.questions.list(true)).filter((record) => visibleTo(record, LOCAL_IDENTITY));
  const look = coalesced(
    async () => {
      for (const record of await mine()) {
        if (seen.get(record.id) === record.state) continue;
        seen.set(record.id, record.state);
        await print(record);
      }
    },
    () => {}, // the next change or sweep looks again
  );
  // Listening before the first read: nothing written between the two is missed.
  const unlisten = store.onChange(look);
  try {
    await broker.sweep();
    for (const record of await mine()) {
      seen.set(record.id, record.state);
      if (record.state === "pending") await print(record);
    }
    // Its own writes (the sweep's) are not reported by the store: it looks after each sweep.
    const timer = setInterval(() => {
      broker.sweep().then(look, () => {});
    }, SWEEP_MS);
    try {
      await options.until;
    } finally {
      clearInterval(timer);
    }
  } finally {
    unlisten();
  }
}

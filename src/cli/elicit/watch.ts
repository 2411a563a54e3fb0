/**
 * `mcpx elicit watch`: follow questions live until interrupted. Questions are opened and settled
 * by other processes, so this polls the shared store (cheap when nothing changed) and prints
 * what differs from what it last saw: first the questions already pending, then each new one
 * and each settlement.
 */
import { LOCAL_IDENTITY, visibleTo } from "../../broker/identity.js";
import type { Broker } from "../../broker/broker.js";
import type { QuestionRecord } from "../../broker/types.js";
import { viewOf } from "../../broker/view.js";
import { inertJson } from "../inert.js";
import { watchLine } from "./format.js";

const POLL_MS = 200;
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
  const print = (record: QuestionRecord): void => options.write(options.json ? inertJson(JSON.stringify(viewOf(record))) : watchLine(record));
  const seen = new Map<string, QuestionRecord["state"]>();
  // Our own data_version mark (not store.changed(), whose single mark other pollers share).
  let version = store.dataVersion();
  broker.sweep();
  // As the operator (identity "local"), as every elicit command.
  const mine = (): QuestionRecord[] => store.list(true).filter((record) => visibleTo(record, LOCAL_IDENTITY));
  for (const record of mine()) {
    seen.set(record.id, record.state);
    if (record.state === "pending") print(record);
  }
  let lastSweep = Date.now();
  const tick = (): void => {
    let swept = false;
    if (Date.now() - lastSweep >= SWEEP_MS) {
      broker.sweep();
      lastSweep = Date.now();
      swept = true; // our own writes do not move data_version
    }
    const now = store.dataVersion();
    if (now === version && !swept) return;
    version = now;
    for (const record of mine()) {
      if (seen.get(record.id) === record.state) continue;
      seen.set(record.id, record.state);
      print(record);
    }
  };
  const timer = setInterval(tick, POLL_MS);
  try {
    await options.until;
  } finally {
    clearInterval(timer);
  }
}

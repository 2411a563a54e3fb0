/**
 * Person-only answers do not linger (design rule 9): no surface's view shows their content,
 * even before delivery; delivery forgets it; so do a gone waiter and a stopping one; a policy
 * rule's person-only answer is never written; what is deleted (forgotten or pruned) leaves the
 * files; pruning runs on a timer. Real SQLite, the files read raw.
 */
import { randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { Broker } from "../../src/broker/broker.js";
import { QuestionStore, STORE_FILE } from "../../src/broker/store.js";
import type { QuestionRecord } from "../../src/broker/types.js";
import { viewOf } from "../../src/broker/view.js";
import { silentLogger } from "../../src/util/log.js";
import { deadPid, form, openBroker, within, type OpenBroker } from "./support.js";

const opened: Array<{ close(): void }> = [];
afterEach(() => {
  for (const one of opened.splice(0)) one.close();
});

function fresh(dir?: string): OpenBroker {
  const one = openBroker(dir);
  opened.push(one);
  return one;
}

/** Another process's view of the same store (its own connection and broker). */
function other(dir: string): { store: QuestionStore; broker: Broker } {
  const store = QuestionStore.open(dir);
  opened.push(store);
  return { store, broker: new Broker(store, silentLogger) };
}

const passwordForm = () => form({ password: { type: "string", format: "password" } }, ["password"]);
const nameForm = () => form({ name: { type: "string" } }, ["name"]);

/** The store's files (db, -wal, -shm) whose raw bytes contain `marker`. */
function filesHolding(dir: string, marker: string): string[] {
  const needle = Buffer.from(marker, "utf8");
  return [STORE_FILE, `${STORE_FILE}-wal`, `${STORE_FILE}-shm`].filter((name) => {
    const path = join(dir, name);
    return existsSync(path) && readFileSync(path).includes(needle);
  });
}

describe("a person-only answer", () => {
  it("is never shown by a view, even before delivery; delivery forgets it and its bytes", async () => {
    const { broker, dir, store } = fresh();
    const marker = `s3cret-${randomUUID()}`;
    const asked = broker.open(passwordForm(), { tool: "vault__unlock" }, 60);
    expect(asked.audience).toBe("person");
    const waiting = broker.wait(asked.id);

    // A person answers from another process; until the owner delivers it, the store holds it.
    const cli = other(dir);
    const answered = cli.broker.answer(asked.id, { action: "accept", content: { password: marker } }, { by: "cli" });
    expect(JSON.stringify(viewOf(answered))).not.toContain(marker);
    expect(viewOf(answered).answer).toEqual({ action: "accept", by: "cli", answeredAt: expect.any(String), contentWithheld: true });
    expect(JSON.stringify(cli.broker.list(true).map((record) => viewOf(record)))).not.toContain(marker);

    const settled = await within(waiting, 3000, "the owner noticing the answer");
    expect(settled.answer?.content).toEqual({ password: marker }); // what the owner hands upstream
    broker.delivered(asked.id);

    expect(store.get(asked.id)?.answer).toEqual({ action: "accept", by: "cli", answeredAt: settled.answer!.answeredAt });
    expect(cli.store.get(asked.id)?.answer).not.toHaveProperty("content");
    expect(filesHolding(dir, marker)).toEqual([]);
  });

  it("is forgotten by a sweep when the process that was to deliver it is gone", async () => {
    const { broker, dir, store } = fresh();
    const marker = `orphaned-${randomUUID()}`;
    const record: QuestionRecord = { ...broker.open(passwordForm(), {}, 60), id: `q-${randomUUID()}`, ownerPid: await deadPid(), ownerInstance: "dead" };
    store.insert(record);
    expect(store.settle(record.id, "answered", { action: "accept", content: { password: marker }, by: "cli" })).toBe(true);

    other(dir).broker.sweep();
    expect(store.get(record.id)?.answer).toMatchObject({ action: "accept", by: "cli" });
    expect(store.get(record.id)?.answer).not.toHaveProperty("content");
    expect(filesHolding(dir, marker)).toEqual([]);
  });

  it("is forgotten when its owner stops before delivering it; another broker's is left alone", () => {
    const { broker, dir, store } = fresh();
    const mine = broker.open(passwordForm(), {}, 60);
    const theirs = other(dir).broker.open(passwordForm(), {}, 60);
    for (const asked of [mine, theirs]) store.settle(asked.id, "answered", { action: "accept", content: { password: "pw" }, by: "cli" });
    broker.stop();
    expect(store.get(mine.id)?.answer).not.toHaveProperty("content");
    expect(store.get(theirs.id)?.answer?.content).toEqual({ password: "pw" });
  });

  it("from a policy rule is handed over but never written", () => {
    const { broker, dir, store } = fresh();
    const marker = `rule-${randomUUID()}`;
    const settled = broker.open(passwordForm(), {}, 60, { action: "accept", content: { password: marker }, by: "rule:1" });
    expect(settled.answer).toMatchObject({ action: "accept", by: "rule:1", content: { password: marker } });
    expect(store.get(settled.id)?.answer).toMatchObject({ action: "accept", by: "rule:1" });
    expect(store.get(settled.id)?.answer).not.toHaveProperty("content");
    expect(filesHolding(dir, marker)).toEqual([]);
  });
});

describe("an answer an agent may give", () => {
  it("is shown and kept after delivery, for the record", () => {
    const { broker, store } = fresh();
    const asked = broker.open(nameForm(), {}, 60);
    broker.answer(asked.id, { action: "accept", content: { name: "Ada" } }, { by: "cli" });
    broker.delivered(asked.id);
    expect(viewOf(store.get(asked.id)!).answer).toMatchObject({ content: { name: "Ada" } });
  });
});

describe("pruning", () => {
  it("leaves no bytes of what it deleted in the files", () => {
    const { broker, dir, store } = fresh();
    const marker = `kept-a-week-${randomUUID()}`;
    const tenDaysAgo = new Date(Date.now() - 10 * 86_400_000).toISOString();
    const asked: QuestionRecord = { ...broker.open(nameForm(), {}, 60), id: `q-${randomUUID()}`, createdAt: tenDaysAgo };
    store.insert(asked);
    store.settle(asked.id, "answered", { action: "accept", content: { name: marker }, by: "cli" });
    expect(filesHolding(dir, marker).length).toBeGreaterThan(0);
    broker.prune(7);
    expect(broker.get(asked.id)).toBeUndefined();
    expect(filesHolding(dir, marker)).toEqual([]);
  });

  it("runs on a timer, not only at start", async () => {
    const { broker, store } = fresh();
    broker.start(1 / 86_400_000, { pruneEveryMs: 20 }); // retention: one millisecond
    const asked = broker.open(nameForm(), {}, 60);
    broker.answer(asked.id, { action: "decline" }, { by: "cli" });
    const pending = broker.open(nameForm(), {}, 60);
    const deadline = Date.now() + 3000;
    while (store.get(asked.id) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(store.get(asked.id), "the settled question past retention was pruned").toBeUndefined();
    expect(store.get(pending.id)?.state).toBe("pending");
  });
});

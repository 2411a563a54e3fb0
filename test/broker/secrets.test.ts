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
import { SqliteStore, STORE_FILE } from "../../src/broker/sqlite/sqlite-store.js";
import type { QuestionRecord } from "../../src/broker/types.js";
import { viewOf } from "../../src/broker/view.js";
import { deliveryOf } from "../../src/broker/delivery.js";
import { silentLogger } from "../../src/util/log.js";
import { deadPid, form, openBroker, within, type OpenBroker } from "./support.js";

/** A question as the surfaces show it, its delivery by this machine's processes (one machine here). */
const localView = (record: QuestionRecord) => viewOf(record, Date.now(), deliveryOf(record));

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
function other(dir: string): { store: SqliteStore; broker: Broker } {
  const store = SqliteStore.open(dir);
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
    const asked = await broker.open(passwordForm(), { tool: "vault__unlock" }, 60);
    expect(asked.audience).toBe("person");
    const waiting = broker.wait(asked.id);

    // A person answers from another process; until the owner delivers it, the store holds it.
    const cli = other(dir);
    const answered = await cli.broker.answer(asked.id, { action: "accept", content: { password: marker } }, { by: "cli" });
    expect(JSON.stringify(localView(answered))).not.toContain(marker);
    expect(localView(answered).answer).toEqual({ action: "accept", by: "cli", answeredAt: expect.any(String), contentWithheld: true });
    expect(JSON.stringify((await cli.broker.list(true)).map((record) => localView(record)))).not.toContain(marker);

    const settled = await within(waiting, 3000, "the owner noticing the answer");
    expect(settled.answer?.content).toEqual({ password: marker }); // what the owner hands upstream
    await broker.delivered(asked.id);

    expect((await store.questions.get(asked.id))?.answer).toEqual({ action: "accept", by: "cli", answeredAt: settled.answer!.answeredAt });
    expect((await cli.store.questions.get(asked.id))?.answer).not.toHaveProperty("content");
    expect(filesHolding(dir, marker)).toEqual([]);
  });

  it("is forgotten by a sweep when the process that was to deliver it is gone", async () => {
    const { broker, dir, store } = fresh();
    const marker = `orphaned-${randomUUID()}`;
    const record: QuestionRecord = {
      ...(await broker.open(passwordForm(), {}, 60)),
      id: `q-${randomUUID()}`,
      ownerPid: await deadPid(),
      ownerInstance: "dead",
    };
    await store.questions.insert(record);
    expect(await store.questions.settle(record.id, "answered", { action: "accept", content: { password: marker }, by: "cli" })).toBe(true);

    await other(dir).broker.sweep();
    expect((await store.questions.get(record.id))?.answer).toMatchObject({ action: "accept", by: "cli" });
    expect((await store.questions.get(record.id))?.answer).not.toHaveProperty("content");
    expect(filesHolding(dir, marker)).toEqual([]);
  });

  it("is forgotten when its owner stops before delivering it; another broker's is left alone", async () => {
    const { broker, dir, store } = fresh();
    const mine = await broker.open(passwordForm(), {}, 60);
    const theirs = await other(dir).broker.open(passwordForm(), {}, 60);
    for (const asked of [mine, theirs]) await store.questions.settle(asked.id, "answered", { action: "accept", content: { password: "pw" }, by: "cli" });
    await broker.stop();
    expect((await store.questions.get(mine.id))?.answer).not.toHaveProperty("content");
    expect((await store.questions.get(theirs.id))?.answer?.content).toEqual({ password: "pw" });
  });

  it("from a policy rule is handed over but never written", async () => {
    const { broker, dir, store } = fresh();
    const marker = `rule-${randomUUID()}`;
    const settled = await broker.open(passwordForm(), {}, 60, { action: "accept", content: { password: marker }, by: "rule:1" });
    expect(settled.answer).toMatchObject({ action: "accept", by: "rule:1", content: { password: marker } });
    expect((await store.questions.get(settled.id))?.answer).toMatchObject({ action: "accept", by: "rule:1" });
    expect((await store.questions.get(settled.id))?.answer).not.toHaveProperty("content");
    expect(filesHolding(dir, marker)).toEqual([]);
  });
});

describe("an answer an agent may give", () => {
  it("is shown and kept after delivery, for the record", async () => {
    const { broker, store } = fresh();
    const asked = await broker.open(nameForm(), {}, 60);
    await broker.answer(asked.id, { action: "accept", content: { name: "Ada" } }, { by: "cli" });
    await broker.delivered(asked.id);
    expect(localView((await store.questions.get(asked.id))!).answer).toMatchObject({ content: { name: "Ada" } });
  });
});

describe("pruning", () => {
  it("leaves no bytes of what it deleted in the files", async () => {
    const { broker, dir, store } = fresh();
    const marker = `kept-a-week-${randomUUID()}`;
    const tenDaysAgo = new Date(Date.now() - 10 * 86_400_000).toISOString();
    const asked: QuestionRecord = { ...(await broker.open(nameForm(), {}, 60)), id: `q-${randomUUID()}`, createdAt: tenDaysAgo };
    await store.questions.insert(asked);
    await store.questions.settle(asked.id, "answered", { action: "accept", content: { name: marker }, by: "cli" });
    expect(filesHolding(dir, marker).length).toBeGreaterThan(0);
    await broker.prune(7);
    expect(await broker.get(asked.id)).toBeUndefined();
    expect(filesHolding(dir, marker)).toEqual([]);
  });

  it("runs on a timer, not only at start", async () => {
    const { broker, store } = fresh();
    await broker.start(1 / 86_400_000, { pruneEveryMs: 20 }); // retention: one millisecond
    const asked = await broker.open(nameForm(), {}, 60);
    await broker.answer(asked.id, { action: "decline" }, { by: "cli" });
    const pending = await broker.open(nameForm(), {}, 60);
    const deadline = Date.now() + 3000;
    while ((await store.questions.get(asked.id)) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await store.questions.get(asked.id), "the settled question past retention was pruned").toBeUndefined();
    expect((await store.questions.get(pending.id))?.state).toBe("pending");
  });
});

/**
 * The store is shared by every mcpx process: answers race across processes and exactly one
 * wins; the process waiting on a question notices an answer written elsewhere within a
 * fraction of a second. The other processes are test/fixtures/broker-child.mjs (dist/).
 */
import { afterEach, describe, expect, it } from "vitest";
import { openBroker, profileForm, raceChildren, runChild, within, type OpenBroker } from "./support.js";

let open: OpenBroker;
afterEach(async () => open?.close());

describe("answers from several processes at once", () => {
  it.each([2, 3, 4, 5])("exactly one of %i racing processes wins; the others learn who did", async (n) => {
    open = openBroker();
    const asked = await open.broker.open(profileForm(), {}, 60);
    const waiting = open.broker.wait(asked.id);
    const results = await raceChildren(Array.from({ length: n }, (_, i) => ["answer", open.dir, asked.id, `surface-${i}`, "gated"]));

    const winners = results.filter((result) => result.ok);
    const losers = results.filter((result) => !result.ok);
    expect(winners, JSON.stringify(results)).toHaveLength(1);
    const winner = winners[0]!.record!.answer!.by;
    for (const loser of losers) {
      expect(loser.code, loser.message).toBe("ALREADY_SETTLED");
      expect(loser.message).toContain(`accept by ${winner}`);
    }
    const settled = await within(waiting, 1000, "the waiting process noticing the answer");
    expect(settled.state).toBe("answered");
    expect(settled.answer).toMatchObject({ action: "accept", by: winner, content: { name: winner } });
  });
});

describe("the waiting process notices an answer from another process", () => {
  it("within a second", async () => {
    open = openBroker();
    const asked = await open.broker.open(profileForm(), {}, 60);
    const waiting = open.broker.wait(asked.id).then((record) => ({ record, at: Date.now() }));
    const answered = await runChild(["answer", open.dir, asked.id, "cli"]);
    expect(answered).toMatchObject({ ok: true, record: { state: "answered" } });
    const { record, at } = await within(waiting, 2000, "the waiting process noticing the answer");
    expect(record.answer).toMatchObject({ action: "accept", by: "cli", content: { name: "cli" } });
    expect(at - Date.parse(record.answer!.answeredAt)).toBeLessThan(1000);
  });

  it("even while something else in the process also watches the store for changes", async () => {
    // e.g. the /v1/events stream, which listens to store.onChange to learn of other processes' writes.
    open = openBroker();
    const { store, broker } = open;
    let heard = 0;
    const unlisten = store.onChange(() => (heard += 1));
    try {
      const asked = await broker.open(profileForm(), {}, 60);
      const waiting = broker.wait(asked.id);
      await runChild(["answer", open.dir, asked.id, "rest"]);
      expect((await within(waiting, 1500, "the waiting process noticing the answer")).answer?.by).toBe("rest");
      expect(heard, "the other listener heard the same write").toBeGreaterThan(0);
    } finally {
      unlisten();
    }
  });

  it("refuses, in the other process, an answer to a question that expired here", async () => {
    open = openBroker();
    const asked = await open.broker.open(profileForm(), {}, 1);
    await within(open.broker.wait(asked.id), 3000, "expiry");
    const late = await runChild(["answer", open.dir, asked.id, "cli"]);
    expect(late).toMatchObject({ ok: false, code: "ALREADY_SETTLED" });
    expect(late.message).toMatch(/expired: nobody answered within 1s \(at .*\); the server was told cancel/);
  });
});

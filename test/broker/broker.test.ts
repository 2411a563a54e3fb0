/**
 * The broker in one process: a question is state with a deadline; the first answer stands;
 * answers are checked against the question (messages name the field); expiry answers
 * `cancel`, never `decline`; a question whose waiter is gone is closed, not left pending.
 */
import Database from "better-sqlite3";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BrokerError, type BrokerErrorCode } from "../../src/broker/errors.js";
import { duration, serverStoppedWaiting } from "../../src/broker/settled-why.js";
import { STORE_FILE } from "../../src/broker/sqlite/sqlite-store.js";
import { viewOf } from "../../src/broker/view.js";
import { deliveryOf } from "../../src/broker/delivery.js";
import type { QuestionRecord } from "../../src/broker/types.js";
import { deadPid, form, manualClock, openBroker, profileForm, question, urlQuestion, within, type OpenBroker } from "./support.js";

/** A question as the surfaces show it, its delivery by this machine's processes (one machine here). */
const localView = (record: QuestionRecord) => viewOf(record, Date.now(), deliveryOf(record));

let open: OpenBroker;
afterEach(async () => open?.close());

function fresh(): OpenBroker {
  open = openBroker();
  return open;
}

/** The BrokerError `run` throws, checked for its code. */
async function brokerError(code: BrokerErrorCode, run: () => Promise<unknown>): Promise<BrokerError> {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(BrokerError);
    expect((error as BrokerError).code, (error as Error).message).toBe(code);
    return error as BrokerError;
  }
  throw new Error(`expected a BrokerError ${code}`);
}

/** A question row as another process would have written it. */
function foreignRecord(overrides: Partial<QuestionRecord> = {}): QuestionRecord {
  const now = Date.now();
  return {
    id: `foreign-${Math.random().toString(36).slice(2)}`,
    server: "files",
    kind: "elicitation",
    method: "elicitation/create",
    mode: "form",
    message: "Tell me",
    params: { message: "Tell me", requestedSchema: { type: "object", properties: { name: { type: "string" } } } },
    audience: "agent",
    audienceReason: "nothing in it needs a person",
    createdAt: new Date(now).toISOString(),
    expiresAt: new Date(now + 60_000).toISOString(),
    state: "pending",
    ownerPid: process.pid,
    ownerInstance: "another-instance",
    ...overrides,
  };
}

describe("opening and answering a question", () => {
  it("records where the question came from, its audience and its deadline", async () => {
    const { broker } = fresh();
    const asked = await broker.open(profileForm(), { tool: "files__write", hostSession: "s-1" }, 90);
    expect(asked).toMatchObject({
      server: "files",
      kind: "elicitation",
      method: "elicitation/create",
      mode: "form",
      message: "Tell me",
      tool: "files__write",
      hostSession: "s-1",
      audience: "agent",
      state: "pending",
      ownerPid: process.pid,
      ownerInstance: broker.instance,
    });
    expect(asked.audienceReason).toBeTruthy();
    expect(Date.parse(asked.expiresAt) - Date.parse(asked.createdAt)).toBe(90_000);
    expect(await broker.get(asked.id)).toEqual(asked);
    expect((await broker.list()).map((record) => record.id)).toEqual([asked.id]);
  });

  it("settles with the answer, who gave it and when; waiting resolves with it", async () => {
    const { broker } = fresh();
    const asked = await broker.open(profileForm(), {}, 60);
    const waiting = broker.wait(asked.id);
    const answered = await broker.answer(asked.id, { action: "accept", content: { name: "Ada", age: 36 } }, { by: "cli" });
    expect(answered.state).toBe("answered");
    expect(answered.answer).toMatchObject({ action: "accept", content: { name: "Ada", age: 36 }, by: "cli" });
    expect(Date.parse(answered.answer!.answeredAt)).toBeGreaterThanOrEqual(Date.parse(asked.createdAt));
    expect(await within(waiting, 1000, "wait()")).toEqual(answered);
    expect(await broker.list()).toEqual([]);
    expect((await broker.list(true)).map((record) => record.id)).toEqual([asked.id]);
  });

  it("keeps the first answer: a second is refused, naming who answered first", async () => {
    const { broker } = fresh();
    const asked = await broker.open(profileForm(), {}, 60);
    await broker.answer(asked.id, { action: "accept", content: { name: "Ada" } }, { by: "web" });
    const error = await brokerError("ALREADY_SETTLED", () => broker.answer(asked.id, { action: "decline" }, { by: "cli" }));
    expect(error.message).toContain(asked.id);
    expect(error.message).toMatch(/accept by web/);
    expect(error.message).toMatch(/first answer stands/);
    expect((await broker.get(asked.id))?.answer).toMatchObject({ action: "accept", by: "web", content: { name: "Ada" } });
  });

  it("refuses an unknown question", async () => {
    const { broker } = fresh();
    const error = await brokerError("UNKNOWN_QUESTION", () => broker.answer("nope", { action: "cancel" }, { by: "cli" }));
    expect(error.message).toContain("nope");
  });

  it("answers sampling with the whole result", async () => {
    const { broker } = fresh();
    const sampling = await broker.open(question("sampling/createMessage", { messages: [], maxTokens: 10 }), {}, 60);
    expect(sampling).toMatchObject({ kind: "sampling", audience: "agent", message: expect.stringContaining("model completion") });
    expect(sampling.mode).toBeUndefined();
    const result = { role: "assistant", content: { type: "text", text: "hi" }, model: "a person" };
    expect((await broker.answer(sampling.id, { action: "accept", content: result }, { by: "rest" })).answer?.content).toEqual(result);
  });
});

describe("an answer must fit the question", () => {
  const answerProfile = async (content: Record<string, unknown> | undefined, action: "accept" | "decline" | "cancel" = "accept") => {
    const { broker } = open;
    const asked = await broker.open(profileForm(), {}, 60);
    const input = content === undefined ? { action } : { action, content: content as never };
    const error = await brokerError("INVALID_ANSWER", () => broker.answer(asked.id, input, { by: "cli" }));
    expect((await broker.get(asked.id))?.state, "a refused answer leaves the question pending").toBe("pending");
    return error.message;
  };

  it("needs content to accept a form", async () => {
    fresh();
    expect(await answerProfile(undefined)).toMatch(/needs content/);
  });

  it("names a missing required field", async () => {
    fresh();
    expect(await answerProfile({ age: 3 })).toMatch(/missing required field "name"/);
  });

  it("names a field of the wrong type", async () => {
    fresh();
    expect(await answerProfile({ name: "Ada", age: "old" })).toMatch(/field "age" must be integer/);
  });

  it("names a field outside its enum, with the allowed values", async () => {
    fresh();
    const message = await answerProfile({ name: "Ada", colour: "blue" });
    expect(message).toMatch(/field "colour"/);
    expect(message).toContain('"red", "green"');
  });

  it("names a field that is not an email", async () => {
    fresh();
    expect(await answerProfile({ name: "Ada", email: "not-an-address" })).toMatch(/field "email" must match format "email"/);
  });

  it("reports every problem at once", async () => {
    fresh();
    const message = await answerProfile({ age: 1.5, email: "x" });
    expect(message).toMatch(/"name"/);
    expect(message).toMatch(/"age"/);
    expect(message).toMatch(/"email"/);
  });

  it("refuses content on a decline, and an unknown action", async () => {
    fresh();
    expect(await answerProfile({ name: "Ada" }, "decline")).toMatch(/decline carries no content/);
    expect(await answerProfile(undefined, "maybe" as never)).toMatch(/accept, decline or cancel/);
  });

  it("accepts a URL question without content, and refuses content on it", async () => {
    const { broker } = fresh();
    const first = await broker.open(urlQuestion(), {}, 60);
    expect(first).toMatchObject({ mode: "url", url: "https://example.com/login", audience: "person" });
    expect((await broker.answer(first.id, { action: "accept" }, { by: "web" })).answer).toMatchObject({ action: "accept", by: "web" });
    const second = await broker.open(urlQuestion(), {}, 60);
    const error = await brokerError("INVALID_ANSWER", () => broker.answer(second.id, { action: "accept", content: { ok: true } }, { by: "web" }));
    expect(error.message).toMatch(/URL question/);
  });

  it("turns a schema the validator cannot compile into INVALID_ANSWER, not a crash", async () => {
    const { broker } = fresh();
    const asked = await broker.open(form({ code: { type: "string", pattern: "(" } }), {}, 60);
    const error = await brokerError("INVALID_ANSWER", () => broker.answer(asked.id, { action: "accept", content: { code: "x" } }, { by: "cli" }));
    expect(error.message).toMatch(/schema/);
    // Declining needs no validation, so the question can still be settled.
    expect((await broker.answer(asked.id, { action: "decline" }, { by: "cli" })).state).toBe("answered");
  });
});

describe("person-only questions", () => {
  it("refuses an agent, with the reason, and takes a person's answer", async () => {
    const { broker } = fresh();
    const asked = await broker.open(form({ password: { type: "string" } }, ["password"]), {}, 60);
    expect(asked.audience).toBe("person");
    const error = await brokerError("PERSON_ONLY", () =>
      broker.answer(asked.id, { action: "accept", content: { password: "hunter2" } }, { by: "agent-tool", asAgent: true }),
    );
    expect(error.message).toContain(asked.audienceReason);
    expect(error.message).toMatch(/password/);
    expect((await broker.get(asked.id))?.state).toBe("pending");
    expect((await broker.answer(asked.id, { action: "accept", content: { password: "hunter2" } }, { by: "web" })).state).toBe("answered");
  });

  it("lets an agent answer everything else", async () => {
    const { broker } = fresh();
    const asked = await broker.open(profileForm(), {}, 60);
    const answered = await broker.answer(asked.id, { action: "accept", content: { name: "Ada" } }, { by: "agent-tool", asAgent: true });
    expect(answered.answer?.by).toBe("agent-tool");
  });
});

describe("expiry", () => {
  it("answers cancel (never decline) when the deadline passes", async () => {
    const { broker } = fresh();
    const asked = await broker.open(profileForm(), {}, 1);
    const settled = await within(broker.wait(asked.id), 3000, "expiry");
    expect(settled.state).toBe("expired");
    expect(settled.answer).toMatchObject({ action: "cancel", by: "expiry" });
    expect(Date.parse(settled.answer!.answeredAt)).toBeGreaterThanOrEqual(Date.parse(asked.expiresAt));
    const late = await brokerError("ALREADY_SETTLED", () => broker.answer(asked.id, { action: "accept", content: { name: "Ada" } }, { by: "cli" }));
    expect(late.message).toMatch(/expired/);
  });

  it("is enforced by a sweep for questions another process left overdue", async () => {
    const { broker, store } = fresh();
    const overdue = foreignRecord({ expiresAt: new Date(Date.now() - 1000).toISOString() });
    const current = foreignRecord();
    await store.questions.insert(overdue);
    await store.questions.insert(current);
    await broker.sweep();
    expect(await broker.get(overdue.id)).toMatchObject({ state: "expired", answer: { action: "cancel", by: "expiry" } });
    expect((await broker.get(current.id))?.state).toBe("pending");
  });

  it("does not expire a question with a very long deadline at once", async () => {
    // setTimeout cannot wait past ~24.8 days: a longer delay fires after 1 ms instead.
    const { broker } = fresh();
    const events: QuestionRecord[] = [];
    broker.subscribe((record) => events.push(record));
    const asked = await broker.open(profileForm(), {}, 30 * 86_400);
    await expect(within(broker.wait(asked.id), 100, "a settle")).rejects.toThrow(/did not happen/);
    expect((await broker.get(asked.id))?.state).toBe("pending");
    expect(events.map((record) => record.state)).toEqual(["pending"]);
  });
});

describe("why a question is over (closedBecause), as every surface shows it", () => {
  it("names who answered, that it expired and how long it lived, or why it was closed; null while pending", async () => {
    const { broker } = fresh();
    const pending = await broker.open(profileForm(), {}, 300);
    expect(localView(pending).closedBecause).toBeNull();

    const declined = await broker.answer(pending.id, { action: "decline" }, { by: "cli" });
    expect(localView(declined).closedBecause).toBe("declined by cli");

    const expiring = await broker.open(profileForm(), {}, 1);
    const expired = await within(broker.wait(expiring.id), 3000, "expiry");
    expect(localView(expired).closedBecause).toBe("expired: nobody answered within 1s");

    const stopped = await broker.open(profileForm(), {}, 300);
    await broker.close(stopped.id, serverStoppedWaiting("  MCP error -32001:\n Request timed out  "));
    expect(localView((await broker.get(stopped.id))!).closedBecause).toBe("the server stopped waiting (MCP error -32001: Request timed out)");
    const late = await brokerError("ALREADY_SETTLED", () => broker.answer(stopped.id, { action: "decline" }, { by: "cli" }));
    expect(late.message).toMatch(/^question \S+ was closed: the server stopped waiting \(MCP error -32001: Request timed out\) \(at .*\); nobody is waiting/);
    expect(late.message).not.toMatch(/first answer stands/);
  });

  it("writes a question's lifetime as people read it", async () => {
    expect([45_000, 300_000, 150_000, 3_900_000, 7_200_000].map(duration)).toEqual(["45s", "5m", "2m 30s", "1h 05m", "2h"]);
  });
});

describe("a question whose waiter is gone", () => {
  it("is closed by close(), with cancel and why; a later answer is refused", async () => {
    const { broker } = fresh();
    const asked = await broker.open(profileForm(), {}, 60);
    const waiting = broker.wait(asked.id);
    await broker.close(asked.id, "the host cancelled the call");
    const closed = await within(waiting, 1000, "wait()");
    expect(closed.state).toBe("closed");
    expect(closed.answer).toMatchObject({ action: "cancel", by: "closed: the host cancelled the call" });
    expect((await brokerError("ALREADY_SETTLED", () => broker.answer(asked.id, { action: "cancel" }, { by: "cli" }))).message).toMatch(/closed/);
  });

  it("is closed when this process's broker stops", async () => {
    const { broker, store } = fresh();
    const asked = await broker.open(profileForm(), {}, 60);
    const theirs = foreignRecord();
    await store.questions.insert(theirs);
    await broker.stop();
    expect(await broker.get(asked.id)).toMatchObject({ state: "closed", answer: { action: "cancel" } });
    expect((await broker.get(theirs.id))?.state, "another broker's question is not ours to close").toBe("pending");
  });

  it("is closed by a sweep when the process that owned it has died", async () => {
    const { broker, store } = fresh();
    const orphan = foreignRecord({ ownerPid: await deadPid(), ownerInstance: "dead-instance" });
    const alive = foreignRecord();
    await store.questions.insert(orphan);
    await store.questions.insert(alive);
    await broker.sweep();
    expect(await broker.get(orphan.id)).toMatchObject({ state: "closed", answer: { action: "cancel", by: expect.stringMatching(/^closed: .*gone/) } });
    expect((await broker.get(alive.id))?.state).toBe("pending");
  });

  it("refuses an answer to a question whose owner died, rather than recording it as answered", async () => {
    const { broker, store } = fresh();
    const orphan = foreignRecord({ ownerPid: await deadPid(), ownerInstance: "dead-instance" });
    await store.questions.insert(orphan);
    const error = await brokerError("ALREADY_SETTLED", () => broker.answer(orphan.id, { action: "accept", content: { name: "Ada" } }, { by: "cli" }));
    expect(error.message).toMatch(/closed/);
    expect((await broker.get(orphan.id))?.state).toBe("closed");
  });

  it("makes wait() on an unknown question fail instead of resolving with nothing", async () => {
    const { broker } = fresh();
    await expect(within(broker.wait("no-such-question"), 1000, "wait()")).rejects.toMatchObject({ code: "UNKNOWN_QUESTION" });
  });
});

describe("retention", () => {
  it("prunes settled questions older than the retention, keeping pending and recent ones", async () => {
    const { broker, store, dir } = fresh();
    const days = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();
    const oldSettled = foreignRecord({ createdAt: days(10), expiresAt: new Date(Date.now() + 60_000).toISOString() });
    const oldPending = foreignRecord({ createdAt: days(10), expiresAt: new Date(Date.now() + 60_000).toISOString() });
    const recentSettled = foreignRecord({ createdAt: days(1) });
    for (const record of [oldSettled, oldPending, recentSettled]) await store.questions.insert(record);
    for (const record of [oldSettled, recentSettled]) expect(await store.questions.settle(record.id, "answered", { action: "decline", by: "cli" })).toBe(true);

    await broker.start(3);
    await broker.stop();

    expect(await broker.get(oldSettled.id)).toBeUndefined();
    expect((await broker.get(oldPending.id))?.state).toBe("pending");
    expect((await broker.get(recentSettled.id))?.state).toBe("answered");
    // The answer went with its question.
    const db = new Database(join(dir, STORE_FILE), { readonly: true });
    try {
      expect(db.prepare("SELECT count(*) AS n FROM answers WHERE question_id = ?").get(oldSettled.id)).toEqual({ n: 0 });
    } finally {
      db.close();
    }
  });
});

describe("events in this process", () => {
  it("tells subscribers of every question opened and settled", async () => {
    const { broker } = fresh();
    const seen: string[] = [];
    const unsubscribe = broker.subscribe((record) => seen.push(`${record.id}:${record.state}`));
    const asked = await broker.open(profileForm(), {}, 60);
    await broker.answer(asked.id, { action: "cancel" }, { by: "cli" });
    unsubscribe();
    await broker.open(profileForm(), {}, 60);
    expect(seen).toEqual([`${asked.id}:pending`, `${asked.id}:answered`]);
  });
});

describe("deadlines on the broker's clock", () => {
  it("a question expires exactly at its deadline, never a moment before", async () => {
    const clock = manualClock();
    const { broker, close } = openBroker(undefined, clock);
    try {
      const asked = await broker.open(form({ name: { type: "string" } }), {}, 60);
      expect(asked.expiresAt).toBe(new Date(clock.now() + 60_000).toISOString());
      clock.advance(59_999);
      await broker.sweep();
      expect((await broker.get(asked.id))?.state).toBe("pending");
      clock.advance(1);
      await broker.sweep();
      expect(await broker.get(asked.id)).toMatchObject({ state: "expired", answer: { action: "cancel", by: "expiry", answeredAt: asked.expiresAt } });
    } finally {
      await close();
    }
  });

  it("a timer that fires before the deadline by the clock does not expire the question", async () => {
    const clock = manualClock();
    const { broker, close } = openBroker(undefined, clock);
    try {
      // The timer fires after 20 ms of real time; the clock has not moved, so it is not due.
      const asked = await broker.open(form({ name: { type: "string" } }), {}, 0.02);
      await new Promise((resolve) => setTimeout(resolve, 60));
      expect((await broker.get(asked.id))?.state).toBe("pending");
      clock.advance(20);
      const settled = await within(broker.wait(asked.id), 3_000, "expiry");
      expect(settled).toMatchObject({ state: "expired", answer: { answeredAt: asked.expiresAt } });
    } finally {
      await close();
    }
  });
});

/**
 * onElicit precedence (register ELI-21): a question of a script run's call is offered to the
 * run's script after the operator's rules and before `elicitation.mode`, the calling host and
 * every other surface; only what an agent may answer (never a secret, a URL, a consent); its
 * answer is checked as mcpx's own surfaces' answers are and recorded as answered by "script";
 * a pass or an answer that does not fit goes on to the usual path.
 *
 * In process: a real gateway, the real asking fixture over stdio, a real SQLite store, a real
 * script run (host/script-run.ts). Most tests wrap the run's RunningScript with a handler of the
 * test's (what `onElicit` registers), through the same `offer` the question path calls, to see
 * what was offered; the last ones register `onElicit` in the script itself.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Broker } from "../../src/broker/broker.js";
import { SqliteStore } from "../../src/broker/sqlite/sqlite-store.js";
import type { QuestionRecord } from "../../src/broker/types.js";
import { configFromObject } from "../../src/config/load.js";
import { DEFAULTS_FILE } from "../../src/config/validate.js";
import { Gateway } from "../../src/host/gateway.js";
import { startRun } from "../../src/host/script-run.js";
import type { CallerContext } from "../../src/host/session.js";
import { DEFAULT_SCRIPT_LIMITS, type ScriptAnswer, type ScriptEnvelope, type ScriptQuestion } from "../../src/scripts/types.js";
import { silentLogger } from "../../src/util/log.js";
import { askingStdio } from "../relay/support.js";

const NAME_FORM = { type: "object", properties: { name: { type: "string" } }, required: ["name"] };
const PASSWORD_FORM = { type: "object", properties: { password: { type: "string" } }, required: ["password"] };
const RULED_FORM = { type: "object", properties: { ruled: { type: "string" } }, required: ["ruled"] };

interface Setup {
  gateway: Gateway;
  broker: Broker;
  store: SqliteStore;
}

async function setup(elicitation: object): Promise<Setup> {
  const store = SqliteStore.open(mkdtempSync(join(tmpdir(), "mcpx-onelicit-")));
  const broker = new Broker(store, silentLogger);
  await broker.start();
  const config = configFromObject({ mcpServers: { ask: askingStdio() }, elicitation: { ttlSeconds: 60, ...elicitation } }, DEFAULTS_FILE, {});
  return { gateway: new Gateway(config, silentLogger, { broker }), broker, store };
}

async function teardown(setup: Setup | undefined): Promise<void> {
  await setup?.gateway.stop();
  await setup?.broker.stop();
  await setup?.store.close();
}

let runs = 0;

/** Run `code` as a command's run; `handler` is the script's onElicit. */
async function runScript(
  { gateway }: Setup,
  code: string,
  handler: (question: ScriptQuestion) => ScriptAnswer | undefined | Promise<ScriptAnswer | undefined>,
): Promise<{ callId: string; offered: ScriptQuestion[]; done: Promise<ScriptEnvelope> }> {
  const callId = `run-${++runs}`;
  const run: CallerContext = { callId };
  const running = await startRun(gateway, { code, language: "ts", filename: "t.ts", args: [] }, { run, limits: DEFAULT_SCRIPT_LIMITS });
  const offered: ScriptQuestion[] = [];
  // What onElicit(handler) makes of the run; set before any question can arrive (that takes a round trip to the upstream).
  run.script = {
    handlesQuestions: true,
    offer: async (question) => {
      offered.push(question);
      return handler(question);
    },
    hold: () => running.hold(),
  };
  return { callId, offered, done: running.done };
}

const askForm = (message: string, schema: object): string =>
  `const r = await ask.ask_form({ message: ${JSON.stringify(message)}, schema: ${JSON.stringify(schema)} });\nreturn JSON.parse(textOf(r));`;

/** The question of this run, once it is in the store (bounded). */
async function questionOf({ store }: Setup, callId: string, state?: QuestionRecord["state"]): Promise<QuestionRecord> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const found = (await store.questions.list(true)).find((record) => record.callId === callId && (state === undefined || record.state === state));
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no question of ${callId} in the store: ${JSON.stringify(await store.questions.list(true))}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('elicitation.mode "ask", with a rule', () => {
  let it_: Setup;
  beforeAll(async () => {
    it_ = await setup({ rules: [{ match: { server: "ask", fields: ["ruled"] }, action: "accept", content: { ruled: "by the rule" } }] });
  });
  afterAll(async () => teardown(it_));

  it("offers an agent's question to the script before any surface can see it, with server, tool, message and schema; its answer is the upstream's, recorded as the script's", async () => {
    let storedWhenOffered = -1;
    const run = await runScript(it_, askForm("Who are you?", NAME_FORM), async () => {
      storedWhenOffered = (await it_.store.questions.list(true)).filter((record) => record.callId === run.callId).length;
      return { action: "accept", content: { name: "from the script" } };
    });
    const envelope = await run.done;
    expect(storedWhenOffered).toBe(0);
    expect(envelope).toMatchObject({ ok: true, value: { action: "accept", content: { name: "from the script" } } });
    expect(run.offered).toEqual([{ server: "ask", tool: "ask_form", message: "Who are you?", requestedSchema: NAME_FORM }]);
    const record = await questionOf(it_, run.callId);
    expect(record).toMatchObject({ state: "answered", answer: { action: "accept", by: "script" } });
  });

  it("never offers a person-only question (a password): it waits for a person", async () => {
    const run = await runScript(it_, askForm("Your password, please", PASSWORD_FORM), () => ({ action: "accept", content: { password: "guessed" } }));
    const record = await questionOf(it_, run.callId, "pending");
    expect(record.audience).toBe("person");
    await it_.broker.answer(record.id, { action: "decline" }, { by: "cli" });
    expect((await run.done).value).toEqual({ action: "decline" });
    expect(run.offered).toEqual([]);
  });

  it("a pass goes on to the usual answerers", async () => {
    const run = await runScript(it_, askForm("Pick a name", NAME_FORM), () => undefined);
    const record = await questionOf(it_, run.callId, "pending");
    await it_.broker.answer(record.id, { action: "accept", content: { name: "from the cli" } }, { by: "cli" });
    expect((await run.done).value).toEqual({ action: "accept", content: { name: "from the cli" } });
    expect(run.offered).toHaveLength(1);
  });

  it("an answer that does not fit the schema is not taken: it goes on to the usual answerers", async () => {
    const run = await runScript(it_, askForm("Pick a name", NAME_FORM), () => ({ action: "accept", content: { nickname: 3 } }));
    const record = await questionOf(it_, run.callId, "pending");
    await it_.broker.answer(record.id, { action: "cancel" }, { by: "cli" });
    expect((await run.done).value).toEqual({ action: "cancel" });
    expect(run.offered).toHaveLength(1);
  });

  it("the operator's rule comes first: the script is not offered what a rule answers", async () => {
    const run = await runScript(it_, askForm("Ruled?", RULED_FORM), () => ({ action: "decline" }));
    expect((await run.done).value).toEqual({ action: "accept", content: { ruled: "by the rule" } });
    expect(run.offered).toEqual([]);
    expect((await questionOf(it_, run.callId)).answer?.by).toBe("rule:0");
  });
});

describe('elicitation.mode "auto"', () => {
  let it_: Setup;
  beforeAll(async () => {
    it_ = await setup({ mode: "auto" });
  });
  afterAll(async () => teardown(it_));

  it("the script answers before the mode would cancel; what it passes the mode cancels", async () => {
    const answered = await runScript(it_, askForm("Who?", NAME_FORM), () => ({ action: "accept", content: { name: "scripted" } }));
    expect((await answered.done).value).toEqual({ action: "accept", content: { name: "scripted" } });
    const passed = await runScript(it_, askForm("Who?", NAME_FORM), () => undefined);
    expect((await passed.done).value).toEqual({ action: "cancel" });
    expect((await questionOf(it_, passed.callId)).answer?.by).toBe("policy:auto");
  });
});

describe("onElicit in the script itself, and the deadline while a question waits", () => {
  let it_: Setup;
  beforeAll(async () => {
    it_ = await setup({});
  });
  afterAll(async () => teardown(it_));

  it("a handler the script registers answers its run's question; the store says the script did", async () => {
    const callId = `run-${++runs}`;
    const code = `onElicit((q) => ({ action: "accept", content: { name: q.tool + " asked: " + q.message } }));\n${askForm("Who?", NAME_FORM)}`;
    const running = await startRun(it_.gateway, { code, language: "ts", filename: "t.ts", args: [] }, { run: { callId }, limits: DEFAULT_SCRIPT_LIMITS });
    expect(await running.done).toMatchObject({ ok: true, value: { action: "accept", content: { name: "ask_form asked: Who?" } } });
    expect((await questionOf(it_, callId)).answer?.by).toBe("script");
  });

  it("the time a question of the run waits for a person does not count against the script's deadline", async () => {
    const callId = `run-${++runs}`;
    // room for the run to reach its question on a loaded machine (a worker's start counts against it)
    const limits = { ...DEFAULT_SCRIPT_LIMITS, timeoutMs: 3_000 };
    const running = await startRun(
      it_.gateway,
      { code: askForm("Your password, please", PASSWORD_FORM), language: "ts", filename: "t.ts", args: [] },
      { run: { callId }, limits },
    );
    const record = await questionOf(it_, callId, "pending");
    // The person takes longer than the script may run: its clock stands still meanwhile.
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    await it_.broker.answer(record.id, { action: "accept", content: { password: "hunter2" } }, { by: "cli" });
    expect(await running.done).toMatchObject({ ok: true, value: { action: "accept" } });
  });

  it("a script that loops while its question waits is still ended, by the timeout at a stretch", async () => {
    const callId = `run-${++runs}`;
    const limits = { ...DEFAULT_SCRIPT_LIMITS, timeoutMs: 1_000 };
    const code = `const asked = ask.ask_form({ message: "Your password, please", schema: ${JSON.stringify(PASSWORD_FORM)} });\nawait new Promise((resolve) => setTimeout(resolve, 300));\nwhile (true) {}\nawait asked;`;
    const started = Date.now();
    const running = await startRun(it_.gateway, { code, language: "ts", filename: "t.ts", args: [] }, { run: { callId }, limits });
    const envelope = await running.done;
    expect(envelope).toMatchObject({ ok: false, error: { kind: "timeout" } });
    expect(Date.now() - started).toBeLessThan(15_000);
  });
});

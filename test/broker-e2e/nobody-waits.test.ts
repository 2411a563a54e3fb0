/**
 * A question nobody waits for any more is closed, and every surface says why (issue 13, items
 * 3 and 4). With the README's own `desk` server behind one shared connection: two hosts' calls
 * raise questions no single host can be proven to own; once both calls are cancelled nobody
 * can use an answer (it would only make a booking nobody asked for), so both questions close
 * on the store, the CLI, REST and the event stream, and a late answer is refused saying why.
 * The server giving up on its own question (its request timeout, or its process ending) closes
 * it as "the server stopped waiting"; an expired question says it expired, never that "the
 * first answer stands" when nobody answered.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/load.js";
import { EventStream, type Frame } from "../helpers/raw-http.js";
import { ROOT, startMcpxHttp, type RunningMcpx, type TempConfig } from "../helpers/mcpx.js";
import { httpHost, type RecordingHost } from "../relay/support.js";
import { brokerConfig, childPids, elicit, pendingFrom, Rest, storedQuestions, waitForQuestion, type QuestionView } from "./support.js";

const DESK = join(ROOT, "examples", "servers", "desk.mjs");

/** The example's desk server on one connection shared by every host (the case `per-host` avoids). */
function sharedDesk(args: string[] = []): object {
  return { command: process.execPath, args: [DESK, ...args], sharing: "shared" };
}

/** Wait (bounded) until the stored question is no longer pending. */
async function settled(config: TempConfig, id: string, timeoutMs = 10_000): Promise<QuestionView> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const view = (await storedQuestions(config)).find((question) => question.id === id);
    if (view && view.state !== "pending") return view;
    if (Date.now() > deadline) throw new Error(`question ${id} is still pending: ${JSON.stringify(view)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function openEvents(rest: Rest): Promise<EventStream> {
  const controller = new AbortController();
  const response = await fetch(new URL("/v1/events", rest.base), { headers: { authorization: `Bearer ${rest.token}` }, signal: controller.signal });
  expect(response.status).toBe(200);
  return new EventStream(response, controller);
}

/**
 * One gateway for the file: the desk on a shared connection, and variants of it that give up
 * after a second (`quick`), whose questions live a second (`late`), and one to kill (`doomed`,
 * found by its marker argument).
 */
let config: TempConfig;
let mcpx: RunningMcpx & { url: URL };
beforeAll(async () => {
  config = brokerConfig({
    desk: sharedDesk(),
    quick: sharedDesk(["--wait-seconds", "1"]),
    late: { ...sharedDesk(), elicitation: { ttlSeconds: 1 } },
    doomed: sharedDesk(["--wait-seconds", "299"]),
  });
  mcpx = await startMcpxHttp(config);
});
afterAll(async () => {
  await mcpx?.close();
});

/** Run with a fresh HTTP host, closed after. */
async function withHost(run: (host: RecordingHost) => Promise<void>): Promise<void> {
  const host = await httpHost(mcpx.url);
  try {
    await run(host);
  } finally {
    await host.close();
  }
}

/** The host's call to `server`'s book_table: its result, or its error, once it ends. */
function book(host: RecordingHost, server: string, restaurant: string): Promise<unknown> {
  return host.client.callTool({ name: `${server}__book_table`, arguments: { restaurant } }).catch((error: unknown) => error);
}

describe("two hosts' calls on a shared desk, both cancelled", () => {
  let hosts: RecordingHost[] = [];
  let events: EventStream | undefined;

  beforeAll(async () => {
    hosts = [await httpHost(mcpx.url, { name: "host-A" }), await httpHost(mcpx.url, { name: "host-B" })];
  });
  afterAll(async () => {
    events?.close();
    for (const host of hosts) await host.close();
  });
  it("closes both questions as cancelled calls on every surface, and refuses a late answer saying why", async () => {
    const rest = Rest.fromLog(mcpx.stderr());
    events = await openEvents(rest);
    const stops = hosts.map(() => new AbortController());
    const calls = hosts.map((host, index) =>
      host.client.callTool({ name: "desk__book_table", arguments: { restaurant: `Table ${index}` } }, undefined, { signal: stops[index]!.signal }).then(
        () => "answered",
        () => "cancelled",
      ),
    );
    const questions = [
      await waitForQuestion(config, pendingFrom("desk", "Booking a table at Table 0: who is it for?")),
      await waitForQuestion(config, pendingFrom("desk", "Booking a table at Table 1: who is it for?")),
    ];
    // Once both calls are in flight, no host can be proven to own a question (the first may
    // have been asked while its call was the only one): it waits for people.
    expect(questions.some((question) => question.hostSession === null)).toBe(true);

    for (const stop of stops) stop.abort("the host gave up");
    expect(await Promise.all(calls)).toEqual(["cancelled", "cancelled"]);

    for (const question of questions) {
      const closed = await settled(config, question.id);
      expect(closed).toMatchObject({ state: "closed", answer: { action: "cancel" }, closedBecause: "the call was cancelled" });

      const late = await elicit(config, "answer", question.id, JSON.stringify({ name: "Ada", partySize: 2 }));
      expect(late.code).toBe(1);
      expect(late.stderr).toContain(`question ${question.id} was closed: the call was cancelled`);
      expect(late.stderr).not.toContain("first answer stands");

      const shown = await elicit(config, "show", question.id);
      expect(shown.stdout).toContain("(closed: the call was cancelled)");

      const viaRest = await rest.get(`/v1/questions/${question.id}`);
      expect(viaRest.body).toMatchObject({ state: "closed", closedBecause: "the call was cancelled" });
      const answered = await rest.answer(question.id, { action: "accept", content: { name: "Ada", partySize: 2 } });
      expect(answered.status).toBe(409);
      expect(answered.body.error.message).toContain("was closed: the call was cancelled");

      const event = await events.waitFor((frame: Frame) => frame.id === question.id && frame.state === "closed");
      expect(event.closedBecause).toBe("the call was cancelled");
    }
    const listed = await elicit(config, "list", "--all");
    for (const question of questions) expect(listed.stdout).toMatch(new RegExp(`${question.id}.*closed.*the call was cancelled`));
  }, 60_000);
});

describe("the server stops waiting for its own question", () => {
  it("its request times out: the question closes as the server stopped waiting, and a late answer says so", () =>
    withHost(async (host) => {
      const call = book(host, "quick", "Noma");
      const question = await waitForQuestion(config, pendingFrom("quick", "Booking a table at Noma: who is it for?"));
      const closed = await settled(config, question.id);
      expect(closed.state).toBe("closed");
      expect(closed.closedBecause).toMatch(/^the server stopped waiting/);
      // The desk gave up on its question: the call ends without a booking.
      expect(JSON.stringify(await call)).not.toContain("Booked");

      const late = await elicit(config, "answer", question.id, "name=Ada", "partySize=2");
      expect(late.code).toBe(1);
      expect(late.stderr).toContain(`question ${question.id} was closed: the server stopped waiting`);
      expect(late.stderr).not.toContain("first answer stands");
    }));

  it("its process ends: the question closes as the server stopped waiting", () =>
    withHost(async (host) => {
      void book(host, "doomed", "Gone");
      const question = await waitForQuestion(config, pendingFrom("doomed", "Booking a table at Gone: who is it for?"));
      const doomed = childPids(mcpx.child.pid!).filter((pid) => readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("299"));
      expect(doomed).toHaveLength(1);
      process.kill(doomed[0]!, "SIGKILL");
      const closed = await settled(config, question.id);
      expect(closed.state).toBe("closed");
      expect(closed.closedBecause).toMatch(/^the server stopped waiting/);
    }));
});

describe("a question that expired", () => {
  it("says it expired when a late answer comes, not that an answer stands", () =>
    withHost(async (host) => {
      const call = book(host, "late", "Late");
      const question = await waitForQuestion(config, pendingFrom("late", "Booking a table at Late: who is it for?"));
      const expired = await settled(config, question.id);
      expect(expired).toMatchObject({ state: "expired", closedBecause: "expired: nobody answered within 1s" });
      // The desk's own wording: "cancelled", not the action with "ed" added.
      expect(JSON.stringify(await call)).toContain("No booking made (the question was cancelled)");

      const late = await elicit(config, "answer", question.id, "name=Ada", "partySize=2");
      expect(late.code).toBe(1);
      expect(late.stderr).toContain(`question ${question.id} expired: nobody answered within 1s`);
      expect(late.stderr).not.toContain("first answer stands");
    }));
});

describe("the desk's own answers", () => {
  it('says the question was declined (not "declineed")', () =>
    withHost(async (host) => {
      const call = book(host, "desk", "No");
      const question = await waitForQuestion(config, pendingFrom("desk", "Booking a table at No: who is it for?"));
      expect((await elicit(config, "decline", question.id)).code).toBe(0);
      expect(JSON.stringify(await call)).toContain("No booking made (the question was declined)");
    }));
});

describe("the example config (README)", () => {
  it("gives desk a connection per host, and desk waits as long as its question lives", async () => {
    const example = loadConfig(join(ROOT, "examples", "mcpx.json"));
    const desk = example.servers.find((server) => server.name === "desk")!;
    expect(desk.sharing).toBe("per-host");
    const ttl = desk.elicitation.ttlSeconds ?? example.elicitation.ttlSeconds;
    const waits = desk.args[desk.args.indexOf("--wait-seconds") + 1];
    expect(Number(waits)).toBe(ttl);
  });
});

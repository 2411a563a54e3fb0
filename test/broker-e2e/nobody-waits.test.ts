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
    const view = storedQuestions(config).find((question) => question.id === id);
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

describe("two hosts' calls on a shared desk, both cancelled", () => {
  let config: TempConfig;
  let mcpx: RunningMcpx & { url: URL };
  let hosts: RecordingHost[] = [];
  let events: EventStream | undefined;

  beforeAll(async () => {
    config = brokerConfig({ desk: sharedDesk() });
    mcpx = await startMcpxHttp(config);
    hosts = [await httpHost(mcpx.url, { name: "host-A" }), await httpHost(mcpx.url, { name: "host-B" })];
  });
  afterAll(async () => {
    events?.close();
    for (const host of hosts) await host.close();
    await mcpx?.close();
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
  it("its request times out: the question closes as the server stopped waiting, and a late answer says so", async () => {
    const config = brokerConfig({ desk: sharedDesk(["--wait-seconds", "1"]) });
    const mcpx = await startMcpxHttp(config);
    const host = await httpHost(mcpx.url);
    try {
      const call = host.client.callTool({ name: "desk__book_table", arguments: { restaurant: "Noma" } }).catch((error: unknown) => error);
      const question = await waitForQuestion(config, pendingFrom("desk", "Booking a table at Noma: who is it for?"));
      const closed = await settled(config, question.id);
      expect(closed.state).toBe("closed");
      expect(closed.closedBecause).toMatch(/^the server stopped waiting/);
      // The desk tells its caller it gave up; the call ends without a booking.
      expect(JSON.stringify(await call)).not.toContain("Booked");

      const late = await elicit(config, "answer", question.id, "name=Ada", "partySize=2");
      expect(late.code).toBe(1);
      expect(late.stderr).toContain(`question ${question.id} was closed: the server stopped waiting`);
      expect(late.stderr).not.toContain("first answer stands");
    } finally {
      await host.close();
      await mcpx.close();
    }
  });

  it("its process ends: the question closes as the server stopped waiting", async () => {
    const config = brokerConfig({ desk: sharedDesk() });
    const mcpx = await startMcpxHttp(config);
    const host = await httpHost(mcpx.url);
    try {
      void host.client.callTool({ name: "desk__book_table", arguments: { restaurant: "Gone" } }).catch(() => {});
      const question = await waitForQuestion(config, pendingFrom("desk", "Booking a table at Gone: who is it for?"));
      for (const pid of childPids(mcpx.child.pid!)) process.kill(pid, "SIGKILL");
      const closed = await settled(config, question.id);
      expect(closed.state).toBe("closed");
      expect(closed.closedBecause).toMatch(/^the server stopped waiting/);
    } finally {
      await host.close();
      await mcpx.close();
    }
  });
});

describe("a question that expired", () => {
  it("says it expired when a late answer comes, not that an answer stands", async () => {
    const config = brokerConfig({ desk: sharedDesk() }, { ttlSeconds: 1 });
    const mcpx = await startMcpxHttp(config);
    const host = await httpHost(mcpx.url);
    try {
      const call = host.client.callTool({ name: "desk__book_table", arguments: { restaurant: "Late" } }).catch((error: unknown) => error);
      const question = await waitForQuestion(config, pendingFrom("desk", "Booking a table at Late: who is it for?"));
      const expired = await settled(config, question.id);
      expect(expired).toMatchObject({ state: "expired", closedBecause: "expired: nobody answered within 1s" });
      // The wording of the desk's answer: "cancelled", never "cancelled" spelt by adding "ed".
      expect(JSON.stringify(await call)).toContain("No booking made (the question was cancelled)");

      const late = await elicit(config, "answer", question.id, "name=Ada", "partySize=2");
      expect(late.code).toBe(1);
      expect(late.stderr).toContain(`question ${question.id} expired: nobody answered within 1s`);
      expect(late.stderr).not.toContain("first answer stands");
    } finally {
      await host.close();
      await mcpx.close();
    }
  });
});

describe("the desk's own answers", () => {
  it('says the question was declined (not "declineed")', async () => {
    const config = brokerConfig({ desk: sharedDesk() });
    const mcpx = await startMcpxHttp(config);
    const host = await httpHost(mcpx.url);
    try {
      const call = host.client.callTool({ name: "desk__book_table", arguments: { restaurant: "No" } }).catch((error: unknown) => error);
      const question = await waitForQuestion(config, pendingFrom("desk", "Booking a table at No: who is it for?"));
      expect((await elicit(config, "decline", question.id)).code).toBe(0);
      expect(JSON.stringify(await call)).toContain("No booking made (the question was declined)");
    } finally {
      await host.close();
      await mcpx.close();
    }
  });
});

describe("the example config (README)", () => {
  it("gives desk a connection per host, and desk waits as long as its question lives", () => {
    const config = loadConfig(join(ROOT, "examples", "mcpx.json"));
    const desk = config.servers.find((server) => server.name === "desk")!;
    expect(desk.sharing).toBe("per-host");
    const ttl = desk.elicitation.ttlSeconds ?? config.elicitation.ttlSeconds;
    const waits = desk.args[desk.args.indexOf("--wait-seconds") + 1];
    expect(Number(waits)).toBe(ttl);
  });
});

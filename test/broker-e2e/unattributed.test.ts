/**
 * Design rule 5 on a shared stdio upstream with two hosts' calls in flight: nothing proves
 * whose a question or a log message is, so the question is for people only (no host's agent
 * tools see or answer it, or its answer would reach the other host's upstream call), and the
 * log message reaches no host (it may be about the other host's work).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMcpxHttp, type RunningMcpx, type TempConfig } from "../helpers/mcpx.js";
import { askingStdio, httpHost, toolJson, type RecordingHost } from "../relay/support.js";
import { parseServers, runMcpx } from "../helpers/upstreams.js";
import { brokerConfig, elicit, pendingFrom, storedQuestions, waitForQuestion } from "./support.js";

let config: TempConfig;
let mcpx: RunningMcpx & { url: URL };
let hostA: RecordingHost;
let hostB: RecordingHost;

beforeAll(async () => {
  config = brokerConfig({ ask: askingStdio() });
  mcpx = await startMcpxHttp(config);
  // Neither declares elicitation: both are offered mcpx's agent tools.
  hostA = await httpHost(mcpx.url, { capabilities: {}, name: "host-A" });
  hostB = await httpHost(mcpx.url, { capabilities: {}, name: "host-B" });
});
afterAll(async () => {
  await hostA?.close();
  await hostB?.close();
  await mcpx?.close();
});

const textOf = (result: unknown): string => (result as { content: Array<{ text: string }> }).content[0]!.text;

describe("a question no single host can be proven to own", () => {
  it("is offered to neither host's agent tools, cannot be answered by them, and a person's answer settles it", async () => {
    const call = (host: RecordingHost, label: string) => host.client.callTool({ name: "ask__slow_ask", arguments: { label, together: 2 } }).then(toolJson);
    const calls = Promise.all([call(hostA, "A"), call(hostB, "B")]);
    const first = await waitForQuestion(config, pendingFrom("ask", "Question for A"));
    const second = await waitForQuestion(config, pendingFrom("ask", "Question for B"));
    expect(first.hostSession).toBeNull();
    expect(second.hostSession).toBeNull();

    for (const host of [hostA, hostB]) {
      expect(toolJson(await host.client.callTool({ name: "mcpx__pending_questions", arguments: {} }))).toEqual([]);
      const tried = await host.client.callTool({
        name: "mcpx__answer_question",
        arguments: { id: first.id, action: "accept", content: { name: "an agent's guess" } },
      });
      expect(tried.isError).toBe(true);
      expect(textOf(tried)).toContain(`no question with id ${first.id} is waiting for this host`);
    }
    expect((await storedQuestions(config)).find((view) => view.id === first.id)?.state).toBe("pending");

    for (const question of [first, second]) {
      const run = await elicit(config, "answer", question.id, JSON.stringify({ name: "a person" }));
      expect(run.code, run.stderr).toBe(0);
    }
    expect(await calls).toEqual([
      { action: "accept", content: { name: "a person" } },
      { action: "accept", content: { name: "a person" } },
    ]);
  });

  it("makes `mcpx servers` point at a connection per host for that server", async () => {
    const human = await runMcpx(["servers", "--config", config.file], config);
    expect(human.stdout).toContain("ask: asked 2 questions that no single host could be proven to own");
    expect(human.stdout).toContain('give it "sharing": "per-host"');
    const json = await runMcpx(["servers", "--json", "--config", config.file], config);
    expect(parseServers(json.stdout).get("ask")).toMatchObject({ sharing: "shared", unattributedQuestions: 2 });
  });
});

describe("a log message no single host can be proven to own", () => {
  it("reaches neither host while both hosts' calls are in flight", async () => {
    hostA.frames.length = 0;
    hostB.frames.length = 0;
    const stop = new AbortController();
    const waiting = hostA.client.callTool({ name: "ask__wait_for_cancel", arguments: {} }, undefined, { signal: stop.signal }).catch(() => "cancelled");
    // wait_for_cancel records that it started: from then on two calls are in flight.
    const deadline = Date.now() + 10_000;
    for (;;) {
      const events = toolJson(await hostB.client.callTool({ name: "ask__events", arguments: {} })) as Array<{ tool?: string; method?: string }>;
      if (events.some((event) => event.tool === "wait_for_cancel" && event.method === "started")) break;
      if (Date.now() > deadline) throw new Error("wait_for_cancel never started");
    }
    const logged = await hostB.client.callTool({ name: "ask__log", arguments: { levels: ["warning", "error"] } });
    expect(toolJson(logged)).toEqual({ sent: ["warning", "error"] });
    stop.abort();
    expect(await waiting).toBe("cancelled");
    for (const host of [hostA, hostB]) expect(host.frames.filter((frame) => frame.method === "notifications/message")).toEqual([]);
  });
});

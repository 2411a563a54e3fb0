/**
 * Design rule 5: a question belongs to a host's call only when mcpx can prove it. Two hosts
 * call the same shared upstream at once and the upstream asks during both calls:
 *
 * - over stdio nothing says which call a question belongs to, and two hosts' calls are in flight,
 *   so neither host is asked (guessing could hand one client's prompt to another): the question
 *   waits for people, each host is told where it is, and unanswered both get cancel;
 * - when every call in flight is one host's, the question is that host's, whichever call it is;
 * - over Streamable HTTP each question travels on its own call's stream, so each host gets
 *   exactly its own question.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMcpxHttp, type RunningMcpx } from "../helpers/mcpx.js";
import type { HttpFixture } from "../helpers/upstreams.js";
import { expectValidToClient } from "../helpers/spec-validator.js";
import { askingStdio, labelledHost, relayConfig, startAskingHttp, toolJson, type RecordingHost } from "./support.js";

let upstreamHttp: HttpFixture;
let mcpx: RunningMcpx & { url: URL };
const hosts: Record<"A" | "B", RecordingHost> = {} as never;

beforeAll(async () => {
  upstreamHttp = await startAskingHttp();
  mcpx = await startMcpxHttp(relayConfig({ ask: askingStdio(), askhttp: { url: upstreamHttp.url } }));
  hosts.A = await labelledHost(mcpx.url, "A");
  hosts.B = await labelledHost(mcpx.url, "B");
});
afterAll(async () => {
  await hosts.A?.close();
  await hosts.B?.close();
  await mcpx?.close();
  await upstreamHttp?.close();
});

/** Both hosts call `slow_ask` on `server` at once; the upstream asks only once both calls are in. */
async function concurrentCalls(server: string): Promise<Record<"A" | "B", unknown>> {
  const call = (label: "A" | "B") => hosts[label].client.callTool({ name: `${server}__slow_ask`, arguments: { label, together: 2 } }).then(toolJson);
  const [A, B] = await Promise.all([call("A"), call("B")]);
  return { A, B };
}

describe("two hosts calling one shared upstream at the same time", () => {
  it("(contrast) over stdio, the only call in flight is provably the one that asked", async () => {
    const result = await hosts.A.client.callTool({ name: "ask__slow_ask", arguments: { label: "A" } });
    expect(toolJson(result)).toEqual({ action: "accept", content: { name: "answered by A" } });
    expect(hosts.A.requests("elicitation/create")).toHaveLength(1);
    expect(hosts.B.requests()).toEqual([]);
    hosts.A.frames.length = 0;
  });

  it("over stdio, the questions cannot be attributed: no host is asked, each is told where they wait, and they expire as cancel", async () => {
    const results = await concurrentCalls("ask");
    expect(results).toEqual({ A: { action: "cancel" }, B: { action: "cancel" } });
    expect(hosts.A.requests()).toEqual([]);
    expect(hosts.B.requests()).toEqual([]);
    await mcpx.waitForLog(/no single host it belongs to can be proven/);
    for (const label of ["A", "B"] as const) {
      const told = hosts[label].frames.filter((frame) => frame.method === "notifications/message");
      // One per question: each host's call may be waiting on either of them.
      expect(told).toHaveLength(2);
      for (const frame of told) {
        expectValidToClient("2025-11-25", frame);
        const data = (frame.params as { data: { message: string; question: string; server: string } }).data;
        expect(data.server).toBe("ask");
        expect(data.message).toContain(`mcpx elicit show ${data.question}`);
        expect(data.message).toContain('"sharing": "per-host"');
      }
    }
    hosts.A.frames.length = 0;
    hosts.B.frames.length = 0;
  });

  it("over stdio, two calls of one host: the questions are that host's, and it is asked both", async () => {
    const call = () => hosts.A.client.callTool({ name: "ask__slow_ask", arguments: { label: "A", together: 2 } }).then(toolJson);
    const results = await Promise.all([call(), call()]);
    expect(results).toEqual([
      { action: "accept", content: { name: "answered by A" } },
      { action: "accept", content: { name: "answered by A" } },
    ]);
    const asked = hosts.A.requests("elicitation/create");
    expect(asked).toHaveLength(2);
    for (const frame of asked) expectValidToClient("2025-11-25", frame);
    expect(hosts.B.frames).toEqual([]);
    hosts.A.frames.length = 0;
  });

  it("over Streamable HTTP, each host gets exactly its own question and the upstream its answer", async () => {
    const results = await concurrentCalls("askhttp");
    expect(results).toEqual({
      A: { action: "accept", content: { name: "answered by A" } },
      B: { action: "accept", content: { name: "answered by B" } },
    });
    for (const label of ["A", "B"] as const) {
      const asked = hosts[label].requests("elicitation/create");
      expect(asked.map((frame) => (frame.params as { message: string }).message)).toEqual([`[askhttp] Question for ${label}`]);
      expectValidToClient("2025-11-25", asked[0]);
    }
  });
});

/**
 * Design rule 5: a question belongs to a host's call only when mcpx can prove it. Two hosts
 * call the same shared upstream at once and the upstream asks during both calls:
 *
 * - over stdio nothing says which call a question belongs to, and two calls are in flight, so
 *   neither host is asked (guessing could hand one client's prompt to another): both get cancel;
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
  const call = (label: "A" | "B") =>
    hosts[label].client.callTool({ name: `${server}__slow_ask`, arguments: { label, together: 2 } }).then(toolJson);
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

  it("over stdio, the questions cannot be attributed: no host is asked, they wait in the broker and expire as cancel", async () => {
    const results = await concurrentCalls("ask");
    expect(results).toEqual({ A: { action: "cancel" }, B: { action: "cancel" } });
    expect(hosts.A.requests()).toEqual([]);
    expect(hosts.B.requests()).toEqual([]);
    await mcpx.waitForLog(/no single call it belongs to can be proven/);
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

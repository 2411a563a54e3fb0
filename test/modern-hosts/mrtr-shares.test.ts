/**
 * Calls a 2026-07-28 host leaves waiting for its retry are its own share, not everyone's. A
 * session-less host that answers nothing (each tools/call of an asking tool answered
 * `input_required` and never retried) holds at most `limits.maxWaitingRoundsPerHost` of them;
 * a call beyond that fails at once (its question closed), and another host's question to the
 * same server is still asked. A round nobody retries lapses after `limits.inputRoundSeconds`:
 * its question closes `cancel` (the upstream hears it), its slot is free again, and its
 * requestState is refused.
 */
import { afterEach, describe, expect, it } from "vitest";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { nodeServer, startMcpxHttp, writeConfig, type RunningMcpx } from "../helpers/mcpx.js";
import { post } from "../helpers/raw-http.js";
import { expectValidToClient } from "../helpers/spec-validator.js";
import { httpHost, toolJson, type RecordingHost } from "../relay/support.js";

const V = "2026-07-28";
const FORM = { type: "object", properties: { name: { type: "string" } }, required: ["name"] };
const closers: Array<() => Promise<void>> = [];

afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close().catch(() => {});
});

async function start(limits: Record<string, number>): Promise<{ mcpx: RunningMcpx & { url: URL } }> {
  const config = writeConfig({
    mcpServers: { asking: nodeServer("asking-server.mjs", ["--stdio"]), modern: nodeServer("modern-server.mjs", ["--stdio", "--modern-only"]) },
    limits,
  });
  const mcpx = await startMcpxHttp(config);
  closers.push(() => mcpx.close());
  return { mcpx };
}

type Reply = { result?: Record<string, unknown>; error?: { code: number; message: string; data?: Record<string, unknown> } };

/** A tools/call of a session-less modern host named `client`. */
async function modernCall(mcpx: { url: URL }, client: string, id: number, params: Record<string, unknown>): Promise<Reply> {
  const meta = {
    "io.modelcontextprotocol/protocolVersion": V,
    "io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
    "io.modelcontextprotocol/clientInfo": { name: client, version: "1.0.0" },
  };
  const reply = await post(
    mcpx.url,
    { jsonrpc: "2.0", id, method: "tools/call", params: { _meta: meta, ...params } },
    { "mcp-protocol-version": V, "mcp-method": "tools/call", "mcp-name": String(params.name) },
  );
  for (const frame of reply.messages) expectValidToClient(V, frame, "tools/call");
  return reply.messages[0] as Reply;
}

const ASK_NAME = { name: "modern__ask_name", arguments: {} };
const ask = (message: string) => ({ name: "asking__ask_form", arguments: { message, schema: FORM } });

/** A legacy host that answers every form question "accept". */
async function answeringHost(url: URL): Promise<RecordingHost> {
  const host = await httpHost(url, {
    name: "other-host",
    capabilities: { elicitation: {} },
    setup: (client) => client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: { name: "other" } })),
  });
  closers.push(() => host.close());
  return host;
}

describe("a 2026-07-28 host's abandoned rounds", () => {
  it("take at most its own share (limits.maxWaitingRoundsPerHost, default 4): other hosts are still asked", async () => {
    // Room for six questions on the shared modern server, whose questions are each their call's.
    const { mcpx } = await start({ maxPendingQuestionsPerServer: 6 });
    const replies: Reply[] = [];
    for (let i = 0; i < 6; i++) replies.push(await modernCall(mcpx, "abandoner", i, ASK_NAME));
    expect(replies.slice(0, 4).map((reply) => reply.result?.resultType)).toEqual(Array(4).fill("input_required"));
    for (const refused of replies.slice(4)) {
      expect(refused.error?.code).toBe(-32603);
      expect(refused.error?.message).toContain("limits.maxWaitingRoundsPerHost");
      expect(refused.error?.data).toMatchObject({ code: "WAITING_ROUNDS", limit: 4 });
    }
    // Another modern host, on the same address, has a share of its own.
    expect((await modernCall(mcpx, "another-modern-host", 10, ASK_NAME)).result?.resultType).toBe("input_required");
    // And a legacy host is asked, not answered cancel for want of room.
    const host = await answeringHost(mcpx.url);
    const result = await host.client.callTool(ASK_NAME);
    expect((result as { content: Array<{ text: string }> }).content[0]?.text).toBe('Hello, {"action":"accept","content":{"name":"other"}} after 1 round(s)');
    expect(host.requests("elicitation/create")).toHaveLength(1);
    // The abandoner's waiting calls still work when it comes back.
    const done = await modernCall(mcpx, "abandoner", 20, {
      ...ASK_NAME,
      requestState: replies[0]!.result!.requestState,
      inputResponses: { name1: { action: "accept", content: { name: "back" } } },
    });
    expect(done.result?.resultType).toBe("complete");
  });

  it("lapse after limits.inputRoundSeconds: the question closes cancel and its slot is free again", async () => {
    const { mcpx } = await start({ maxPendingQuestionsPerServer: 1, inputRoundSeconds: 1 });
    const first = await modernCall(mcpx, "abandoner", 1, ask("left waiting"));
    expect(first.result?.resultType).toBe("input_required");
    await mcpx.waitForLog(/did not retry its call in time/, 10_000);
    // The one slot is free: another host's question is asked.
    const host = await answeringHost(mcpx.url);
    const result = await host.client.callTool(ask("after the lapse"));
    expect(toolJson(result)).toEqual({ action: "accept", content: { name: "other" } });
    // The upstream heard cancel for the lapsed question.
    const events = toolJson(await host.client.callTool({ name: "asking__events", arguments: {} })) as Array<Record<string, unknown>>;
    expect(events.filter((event) => event.tool === "ask_form").map((event) => (event.result as { action?: string } | undefined)?.action)).toEqual([
      "cancel",
      "accept",
    ]);
    // And the lapsed round's state is refused.
    const [key] = Object.keys(first.result?.inputRequests as object);
    const late = await modernCall(mcpx, "abandoner", 2, {
      ...ask("left waiting"),
      requestState: first.result?.requestState,
      inputResponses: { [key!]: { action: "accept", content: { name: "late" } } },
    });
    expect(late.error?.code).toBe(-32602);
  });
});

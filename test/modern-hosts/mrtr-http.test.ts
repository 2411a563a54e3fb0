/**
 * Questions to 2026-07-28 hosts by multi round-trip requests, the crown case: a modern host with
 * no session calls a tool of a 2025-era upstream (test/fixtures/asking-server.mjs) that sends
 * `elicitation/create` mid-call. mcpx keeps the upstream call open, answers the host's request
 * `input_required`, and the host's retry (a new POST, a new id) answers the question and gets
 * the tool's result. A requestState that was changed, or belongs to another request, is refused.
 * Every frame mcpx sends is validated against the 2026-07-28 schema.
 */
import { statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttp } from "@modelcontextprotocol/client";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as LegacyHttp } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { nodeServer, startMcpxHttp, writeConfig, type RunningMcpx } from "../helpers/mcpx.js";
import { post, postStreaming } from "../helpers/raw-http.js";
import { expectValidToClient } from "../helpers/spec-validator.js";
import { recording, type Received } from "../helpers/recording-transport.js";

const V = "2026-07-28";
let mcpx: RunningMcpx & { url: URL };
let stateDir = "";
const frames: Received[] = [];
const closers: Array<() => Promise<void>> = [];

beforeAll(async () => {
  const config = writeConfig({
    mcpServers: {
      asking: nodeServer("asking-server.mjs", ["--stdio"]),
      twice: nodeServer("twice-asking-server.mjs"),
      modern: nodeServer("modern-server.mjs", ["--stdio", "--modern-only"]),
    },
  });
  stateDir = config.env.MCPX_STATE_DIR!;
  mcpx = await startMcpxHttp(config);
});

afterEach(async () => {
  for (const close of closers.splice(0)) await close().catch(() => {});
  for (const { frame, requestMethod } of frames.splice(0)) expectValidToClient(V, frame, requestMethod);
});

afterAll(async () => {
  await mcpx?.close();
});

function textOf(result: unknown): string {
  return (result as { content: Array<{ text?: string }> }).content.map((block) => block.text ?? "").join("");
}

const FORM = { type: "object", properties: { name: { type: "string" } }, required: ["name"] };

describe("MRTR toward a modern host", () => {
  it("a 2025-era upstream's mid-call elicitation is answered by the modern host's retry (the crown case)", async () => {
    const client = new ModernClient(
      { name: "modern-host", version: "1.0.0" },
      { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: "auto" } },
    );
    const asked: Array<Record<string, unknown>> = [];
    client.setRequestHandler("elicitation/create", async (request) => {
      asked.push(request.params as Record<string, unknown>);
      return { action: "accept", content: { name: "octocat" } };
    });
    await client.connect(recording(new ModernHttp(mcpx.url), frames));
    closers.push(() => client.close());
    const result = await client.callTool({ name: "asking__ask_form", arguments: { message: "Who are you?", schema: FORM } });
    expect(JSON.parse(textOf(result))).toEqual({ action: "accept", content: { name: "octocat" } });
    expect(asked).toHaveLength(1);
    expect(asked[0]?.message).toContain("Who are you?");
    // Two POSTs: the first answered input_required, the retry complete.
    const calls = frames
      .filter((received) => received.requestMethod === "tools/call")
      .map((received) => (received.frame.result as { resultType: string }).resultType);
    expect(calls).toEqual(["input_required", "complete"]);
    const first = frames.find((received) => (received.frame.result as { resultType?: string } | undefined)?.resultType === "input_required");
    const inputRequests = (first!.frame.result as { inputRequests: Record<string, { method: string; params: Record<string, unknown> }> }).inputRequests;
    const [request] = Object.values(inputRequests);
    expect(request?.method).toBe("elicitation/create");
    expect(request?.params).not.toHaveProperty("elicitationId");
    // The key that signed the requestState is the user's alone.
    expect(statSync(join(stateDir, "request-state-key")).mode & 0o777).toBe(0o600);
  });

  it("an upstream that asks twice in one call takes two rounds, each answered by a retry", async () => {
    const client = new ModernClient({ name: "modern-host", version: "1.0.0" }, { capabilities: { elicitation: {} }, versionNegotiation: { mode: "auto" } });
    const asked: string[] = [];
    client.setRequestHandler("elicitation/create", async (request) => {
      asked.push(String((request.params as { message: string }).message));
      return { action: "accept", content: { answer: `answer ${asked.length}` } };
    });
    await client.connect(recording(new ModernHttp(mcpx.url), frames));
    closers.push(() => client.close());
    const result = await client.callTool({ name: "twice__ask_twice", arguments: {} });
    expect(JSON.parse(textOf(result))).toEqual([
      { action: "accept", content: { answer: "answer 1" } },
      { action: "accept", content: { answer: "answer 2" } },
    ]);
    expect(asked.map((message) => message.replace(/^\[twice\] /, ""))).toEqual(["first question", "second question"]);
    const calls = frames
      .filter((received) => received.requestMethod === "tools/call")
      .map((received) => (received.frame.result as { resultType: string }).resultType);
    expect(calls).toEqual(["input_required", "input_required", "complete"]);
  });
});

const envelope = (capabilities: Record<string, unknown>) => ({
  "io.modelcontextprotocol/protocolVersion": V,
  "io.modelcontextprotocol/clientCapabilities": capabilities,
});

async function rawCall(id: number, params: Record<string, unknown>) {
  const reply = await post(
    mcpx.url,
    { jsonrpc: "2.0", id, method: "tools/call", params: { _meta: envelope({ elicitation: {} }), ...params } },
    { "mcp-protocol-version": V, "mcp-method": "tools/call", "mcp-name": String(params.name) },
  );
  for (const frame of reply.messages) expectValidToClient(V, frame, "tools/call");
  return reply.messages[0] as { result?: Record<string, unknown>; error?: { code: number; message: string } };
}

describe("progress across rounds", () => {
  it("progress after a retry goes on that retry's response, under its own progress token", async () => {
    const call = { name: "twice__ask_twice", arguments: {} };
    const meta = (token: string) => ({ ...envelope({ elicitation: {} }), progressToken: token });
    const round = async (id: number, token: string, extra: Record<string, unknown> = {}) => {
      const reply = await post(
        mcpx.url,
        { jsonrpc: "2.0", id, method: "tools/call", params: { _meta: meta(token), ...call, ...extra } },
        { "mcp-protocol-version": V, "mcp-method": "tools/call", "mcp-name": call.name },
      );
      for (const frame of reply.messages) expectValidToClient(V, frame, "tools/call");
      const progress = reply.messages.filter((frame) => frame.method === "notifications/progress").map((frame) => frame.params);
      const answer = reply.messages.find((frame) => frame.id === id) as { result: Record<string, unknown> };
      return { progress, result: answer.result };
    };
    const answer = { action: "accept", content: { answer: "yes" } };
    const first = await round(31, "p1");
    const [key1] = Object.keys(first.result.inputRequests as object);
    const second = await round(32, "p2", { requestState: first.result.requestState, inputResponses: { [key1!]: answer } });
    const [key2] = Object.keys(second.result.inputRequests as object);
    const third = await round(33, "p3", { requestState: second.result.requestState, inputResponses: { [key2!]: answer } });
    expect(third.result.resultType).toBe("complete");
    expect(first.progress).toEqual([]);
    expect(second.progress).toEqual([{ progressToken: "p2", progress: 1, total: 2, message: "answered 1" }]);
    expect(third.progress).toEqual([{ progressToken: "p3", progress: 2, total: 2, message: "answered 2" }]);
  });
});

describe("roots a 2026-07-28 upstream asks for within a call (no roots in the config)", () => {
  it("are the calling modern host's: an input request of its call, answered by its retry", async () => {
    const call = { name: "modern__list_roots", arguments: {} };
    const reply = await post(
      mcpx.url,
      { jsonrpc: "2.0", id: 41, method: "tools/call", params: { _meta: envelope({ roots: {} }), ...call } },
      { "mcp-protocol-version": V, "mcp-method": "tools/call", "mcp-name": call.name },
    );
    const first = reply.messages[0] as { result: Record<string, unknown> };
    expectValidToClient(V, first, "tools/call");
    expect(first.result.inputRequests).toEqual({ q: { method: "roots/list", params: {} } });
    const roots = { roots: [{ uri: "file:///modern-host/project" }] };
    const done = await post(
      mcpx.url,
      {
        jsonrpc: "2.0",
        id: 42,
        method: "tools/call",
        params: { _meta: envelope({ roots: {} }), ...call, requestState: first.result.requestState, inputResponses: { q: roots } },
      },
      { "mcp-protocol-version": V, "mcp-method": "tools/call", "mcp-name": call.name },
    );
    expect(JSON.parse(textOf((done.messages[0] as { result: unknown }).result))).toEqual(roots);
  });

  it("are a legacy host's, asked with roots/list on its call; a host without the capability gets none asked", async () => {
    const client = new LegacyClient({ name: "legacy-host", version: "1.0.0" }, { capabilities: { roots: {} } });
    client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: [{ uri: "file:///legacy-host/project" }] }));
    await client.connect(new LegacyHttp(mcpx.url));
    closers.push(() => client.close());
    const result = await client.callTool({ name: "modern__list_roots", arguments: {} });
    expect(JSON.parse(textOf(result))).toEqual({ roots: [{ uri: "file:///legacy-host/project" }] });
    const { result: none } = await rawCall(43, { name: "modern__list_roots", arguments: {} });
    expect(JSON.parse(textOf(none))).toEqual({ roots: [] });
  });
});

describe("MRTR on both sides", () => {
  it("answers a modern host sends with its first request reach a modern upstream, which may use them at once", async () => {
    const sampled = { role: "assistant", content: { type: "text", text: "hello, unasked" }, model: "m" };
    const first = await rawCall(24, { name: "modern__sample", arguments: {}, inputResponses: { q: sampled } });
    expect(first.result).toMatchObject({ resultType: "complete" });
    expect(JSON.parse(textOf(first.result))).toEqual(sampled);
  });

  it("a modern upstream's input requests reach the modern host under the upstream's own keys, round after round", async () => {
    const call = { name: "modern__ask_name", arguments: { rounds: 2 } };
    const first = await rawCall(21, call);
    expect(first.result).toMatchObject({ resultType: "input_required" });
    expect(Object.keys(first.result?.inputRequests as object)).toEqual(["name1"]);
    const answer = { action: "accept", content: { name: "octocat" } };
    const second = await rawCall(22, { ...call, requestState: first.result?.requestState, inputResponses: { name1: answer } });
    expect(Object.keys(second.result?.inputRequests as object)).toEqual(["name2"]);
    const done = await rawCall(23, { ...call, requestState: second.result?.requestState, inputResponses: { name2: answer } });
    expect(done.result).toMatchObject({ resultType: "complete" });
    expect(textOf(done.result)).toBe('Hello, {"action":"accept","content":{"name":"octocat"}} after 2 round(s)');
  });
});

describe("requestState", () => {
  it("a changed requestState, or one used for another request, is refused; the real one still completes the call", async () => {
    const call = { name: "asking__ask_form", arguments: { message: "state?", schema: FORM } };
    const first = await rawCall(1, call);
    expect(first.result?.resultType).toBe("input_required");
    const state = first.result?.requestState as string;
    const [key] = Object.keys(first.result?.inputRequests as object);
    const inputResponses = { [key!]: { action: "accept", content: { name: "x" } } };
    const tampered = `${state.slice(0, -2)}${state.endsWith("A") ? "B" : "A"}A`;
    const refused = await rawCall(2, { ...call, requestState: tampered, inputResponses });
    expect(refused.error).toMatchObject({ code: -32602 });
    expect(refused.error?.message).toMatch(/verification/);
    const other = await rawCall(3, { ...call, arguments: { message: "another", schema: FORM }, requestState: state, inputResponses });
    expect(other.error?.message).toMatch(/another request/);
    const done = await rawCall(4, { ...call, requestState: state, inputResponses });
    expect(done.result?.resultType).toBe("complete");
    expect(JSON.parse(textOf(done.result))).toEqual({ action: "accept", content: { name: "x" } });
    // Single use: the round is over.
    const again = await rawCall(5, { ...call, requestState: state, inputResponses });
    expect(again.error).toMatchObject({ code: -32602 });
  });

  it("such a call, when its request set a log level, is told on its stream that it waits and where", async () => {
    const meta = { ...envelope({}), "io.modelcontextprotocol/logLevel": "info" };
    const { stream } = await postStreaming(
      mcpx.url,
      { jsonrpc: "2.0", id: 10, method: "tools/call", params: { _meta: meta, name: "asking__ask_form", arguments: { message: "told", schema: FORM } } },
      { "mcp-protocol-version": V, "mcp-method": "tools/call", "mcp-name": "asking__ask_form" },
    );
    try {
      const notice = await stream.waitFor((frame) => frame.method === "notifications/message");
      expectValidToClient(V, notice);
      const data = (notice.params as { data: { message: string; question: string; reason: string } }).data;
      expect(data.reason).toContain('"elicitation"');
      expect(data.message).toContain(`mcpx elicit show ${data.question}`);
    } finally {
      stream.close();
    }
  });

  it("a question the host did not declare the capability for is not sent to it: the call waits in the broker", async () => {
    const reply = await Promise.race([
      post(
        mcpx.url,
        {
          jsonrpc: "2.0",
          id: 9,
          method: "tools/call",
          params: { _meta: envelope({}), name: "asking__ask_form", arguments: { message: "undeclared", schema: FORM } },
        },
        { "mcp-protocol-version": V, "mcp-method": "tools/call", "mcp-name": "asking__ask_form" },
      ).then(() => "answered"),
      mcpx.waitForLog(/the calling host cannot take this question/).then(() => "waits"),
    ]);
    expect(reply).toBe("waits");
  });
});

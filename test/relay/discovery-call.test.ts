/**
 * `mcpx__call` is the same path as a direct `tools/call` (design rule 11): a question the
 * called tool raises reaches the calling host inline in its era's way — a 2025-06-18 host as a
 * downgraded form, a 2025-11-25 host as -32042 whose retry of the same mcpx__call finds its
 * parked call, a 2026-07-28 host as input_required whose retry is bound to the tool called —
 * and an upstream's own -32042 is resolved as for a direct call; progress and cancellation
 * travel as for a direct call. In discovery mode an upstream's list_changed reaches hosts only
 * when what they list changes (a pinned tool). Frames mcpx sends are validated.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttp } from "@modelcontextprotocol/client";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { nodeServer, RawStdioHost, startMcpxHttp, writeConfig, type RunningMcpx, type TempConfig } from "../helpers/mcpx.js";
import { post, postModernToolCall, RawHttpHost } from "../helpers/raw-http.js";
import { openBroker } from "../helpers/questions-api.js";
import { recording, type Received } from "../helpers/recording-transport.js";
import { expectValidToClient } from "../helpers/spec-validator.js";
import { askingStdio, frameToolJson, httpHost, isRequestFrame, stdioHost, toolJson, type Frame, type RecordingHost } from "./support.js";

const FORM = { type: "object", properties: { name: { type: "string" } }, required: ["name"] };
const via = (name: string, args: object) => ({ name: "mcpx__call", arguments: { name, arguments: args } });

let config: TempConfig;

beforeAll(() => {
  config = writeConfig({
    mcpServers: {
      ask: askingStdio(),
      progress: nodeServer("progress-server.mjs"),
      changing: nodeServer("changing-server.mjs"),
      rich: nodeServer("rich-server.mjs"),
      slow: askingStdio({ timeoutSeconds: 1 }),
    },
    expose: "discovery",
    pinned: ["changing__added_1"],
    elicitation: { ttlSeconds: 60 },
  });
});

describe("a 2025-06-18 host (stdio)", () => {
  let raw: RawStdioHost;
  beforeAll(async () => {
    raw = new RawStdioHost(config);
    await raw.initialize("2025-06-18", { elicitation: {} });
  });
  afterAll(async () => raw?.close());

  it("is asked the called tool's form question inline, exactly as in a direct call, and its answer reaches the tool", async () => {
    const asked: Frame[] = [];
    for (const [id, params] of [
      ["direct", { name: "ask__ask_form", arguments: { message: "Who are you?", schema: FORM } }],
      ["through", via("ask__ask_form", { message: "Who are you?", schema: FORM })],
    ] as const) {
      raw.send({ jsonrpc: "2.0", id, method: "tools/call", params });
      const question = await raw.waitFor((frame) => isRequestFrame(frame, "elicitation/create") && !asked.includes(frame));
      expectValidToClient("2025-06-18", question);
      asked.push(question);
      raw.send({ jsonrpc: "2.0", id: question.id, result: { action: "accept", content: { name: `Ada ${id}` } } });
      const answer = await raw.waitFor((frame) => frame.id === id && !("method" in frame));
      expectValidToClient("2025-06-18", answer, "tools/call");
      expect(frameToolJson(answer)).toEqual({ action: "accept", content: { name: `Ada ${id}` } });
    }
    expect(asked[1]!.params).toEqual(asked[0]!.params);
    expect((asked[1]!.params as { message: string }).message).toBe("[ask] Who are you?");
  });

  it("gets the called tool's result as a direct call gets it, structuredContent and all", async () => {
    const direct = await raw.request("rich-direct", "tools/call", { name: "rich__rich_tool", arguments: {} });
    const through = await raw.request("rich-through", "tools/call", via("rich__rich_tool", {}));
    expectValidToClient("2025-06-18", through, "tools/call");
    expect((through.result as { structuredContent: unknown }).structuredContent).toEqual({ answer: 42 });
    expect(through.result).toEqual(direct.result);
  });

  it("times the called tool out as a direct call is (-32001, naming the server)", async () => {
    const started = Date.now();
    const answer = await raw.request("slow", "tools/call", via("slow__wait_for_cancel", {}));
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expectValidToClient("2025-06-18", answer);
    expect(answer.error).toMatchObject({ code: -32001, message: expect.stringContaining('"slow"') });
  });
});

describe("an SDK 1.x host (stdio)", () => {
  let host: RecordingHost;
  beforeAll(async () => {
    host = await stdioHost(config, { capabilities: { elicitation: {} } });
  });
  afterAll(async () => {
    for (const frame of host?.frames ?? []) if (!("id" in frame && !("method" in frame))) expectValidToClient("2025-11-25", frame);
    await host?.close();
  });

  it("gets the called tool's progress under its own progress token", async () => {
    const seen = host.frames.length;
    const result = await host.client.callTool(via("progress__steps", {}), undefined, { onprogress: () => {} });
    expect(result.content).toEqual([{ type: "text", text: "all steps done" }]);
    // What mcpx sent, as recorded before the SDK reads it.
    const progress = host.frames
      .slice(seen)
      .filter((frame) => frame.method === "notifications/progress")
      .map((frame) => frame.params as Frame);
    expect(progress.map((params) => params.message)).toEqual(["step 1 of 4", "step 2 of 4", "step 3 of 4", "step 4 of 4"]);
    expect(new Set(progress.map((params) => params.progressToken)).size).toBe(1);
  });

  it("cancels the called tool by cancelling its mcpx__call", async () => {
    const stop = new AbortController();
    const pending = host.client
      .callTool(via("ask__wait_for_cancel", {}), undefined, {
        signal: stop.signal,
        onprogress: () => stop.abort("the user pressed stop"),
      })
      .catch((error: unknown) => error);
    await expect(pending).resolves.toBeInstanceOf(Error);
    await vi.waitFor(
      async () => {
        const events = toolJson(await host.client.callTool(via("ask__events", {}))) as Array<{ tool: string; aborted?: string }>;
        expect(events.some((event) => event.tool === "wait_for_cancel" && event.aborted !== undefined)).toBe(true);
      },
      { timeout: 10_000, interval: 50 },
    );
  });

  it("hears list_changed only when a pinned tool comes or goes, not for every change upstream", async () => {
    const changes = (): number => host.frames.filter((frame) => frame.method === "notifications/tools/list_changed").length;
    const search = async (query: string): Promise<string[]> => {
      const result = await host.client.callTool({ name: "mcpx__search", arguments: { query } });
      const text = (result.content as Array<{ text: string }>)[0]!.text;
      return text.startsWith("[") ? (JSON.parse(text) as Array<{ name: string }>).map((hit) => hit.name) : [];
    };
    expect((await host.client.listTools()).tools.map((tool) => tool.name)).not.toContain("changing__added_1");
    const before = changes();
    // added_1 is pinned: hosts list it once it exists.
    await host.client.callTool(via("changing__add_tool", {}));
    await host.waitFor(() => changes() === before + 1);
    expect((await host.client.listTools()).tools.map((tool) => tool.name)).toContain("changing__added_1");
    // added_2 is not: search finds it, and the host's list (and so its news) stays the same.
    await host.client.callTool(via("changing__add_tool", {}));
    await vi.waitFor(async () => expect(await search("added_2")).toContain("changing__added_2"), { timeout: 10_000, interval: 50 });
    // Frames on one pipe arrive in order: a notification sent with the rebuild came before that search's answer.
    expect(changes()).toBe(before + 1);
  });
});

describe("hosts of mcpx serve --http in discovery mode", () => {
  let mcpx: RunningMcpx & { url: URL };
  let store: ReturnType<typeof openBroker>;
  beforeAll(async () => {
    mcpx = await startMcpxHttp(config);
    store = openBroker(join(config.dir, "state"));
  });
  afterAll(async () => {
    await store?.close();
    await mcpx?.close();
  });

  it("a 2025-11-25 host on JSON-only POSTs is answered -32042 for a URL question; its retry of the same mcpx__call gets the result", async () => {
    const host = new RawHttpHost(mcpx.url);
    await host.initialize("2025-11-25", { elicitation: { form: {}, url: {} } });
    const frame = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/call", params: via("ask__ask_url", { elicitationId: "through-1" }) });
    const first = await host.send(frame(1), { accept: "application/json" });
    const [error] = first.messages;
    expectValidToClient("2025-11-25", error);
    expect(error).toMatchObject({ id: 1, error: { code: -32042, data: { elicitations: [{ mode: "url", elicitationId: "through-1" }] } } });
    const retry = host.send(frame(2), { accept: "application/json" });
    await mcpx.waitForLog("a host retried a call it was answered -32042 for");
    const question = (await store.store.questions.list(false)).find((record) => record.params.elicitationId === "through-1");
    expect(question).toBeDefined();
    await store.broker.answer(question!.id, { action: "accept" }, { by: "cli" });
    const answered = await retry;
    expectValidToClient("2025-11-25", answered.messages[0], "tools/call");
    expect(toolJson(answered.messages[0]!.result)).toEqual({ action: "accept" });
  });

  it("an upstream's -32042 is resolved inline with a url-capable host, and the tool retried once", async () => {
    const host = await httpHost(mcpx.url, {
      name: "url-host",
      capabilities: { elicitation: { form: {}, url: {} } },
      setup: (client) => client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept" })),
    });
    try {
      const pending = host.client.callTool(via("ask__needs_url", { key: "through" }));
      const asked = await host.waitFor((frame) => frame.method === "elicitation/create");
      expectValidToClient("2025-11-25", asked);
      expect(asked.params).toMatchObject({ mode: "url", elicitationId: "through-1", message: "[ask] Please connect account 1" });
      await host.client.callTool(via("ask__complete_url", { elicitationId: "through-1" }));
      expect(toolJson(await pending)).toEqual({ key: "through", calls: 2, done: true });
    } finally {
      await host.close();
    }
  });

  it("a 2026-07-28 host is answered input_required, and its retry answers the question and gets the tool's result", async () => {
    const frames: Received[] = [];
    const client = new ModernClient(
      { name: "modern-host", version: "1.0.0" },
      { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: "auto" } },
    );
    const asked: string[] = [];
    client.setRequestHandler("elicitation/create", async (request) => {
      asked.push(String((request.params as { message: string }).message));
      return { action: "accept", content: { name: "octocat" } };
    });
    await client.connect(recording(new ModernHttp(mcpx.url), frames));
    try {
      const result = await client.callTool(via("ask__ask_form", { message: "Who are you?", schema: FORM }));
      expect(toolJson(result)).toEqual({ action: "accept", content: { name: "octocat" } });
      expect(asked).toEqual(["[ask] Who are you?"]);
      const rounds = frames
        .filter((received) => received.requestMethod === "tools/call")
        .map((received) => (received.frame.result as { resultType: string }).resultType);
      expect(rounds).toEqual(["input_required", "complete"]);
    } finally {
      await client.close();
      for (const { frame, requestMethod } of frames) expectValidToClient("2026-07-28", frame, requestMethod);
    }
  });

  it("a 2026-07-28 host discovers the discovery instructions and lists the gateway tools", async () => {
    const V = "2026-07-28";
    const modern = async (method: string) => {
      const reply = await post(
        mcpx.url,
        {
          jsonrpc: "2.0",
          id: method,
          method,
          params: { _meta: { "io.modelcontextprotocol/protocolVersion": V, "io.modelcontextprotocol/clientCapabilities": {} } },
        },
        { "mcp-protocol-version": V, "mcp-method": method },
      );
      expectValidToClient(V, reply.messages[0], method);
      return reply.messages[0]!.result as Record<string, unknown>;
    };
    expect(String((await modern("server/discover")).instructions)).toContain('mcpx__search {"query"');
    const names = ((await modern("tools/list")).tools as Array<{ name: string }>).map((tool) => tool.name);
    expect(names.slice(0, 4)).toEqual(["mcpx__search", "mcpx__describe", "mcpx__call", "mcpx__servers"]);
    expect(names).not.toContain("ask__ask_form");
  });

  it("a 2026-07-28 retry's requestState is bound to the tool mcpx__call called and its arguments", async () => {
    const V = "2026-07-28";
    const send = async (id: number, params: { name: string } & Record<string, unknown>) => {
      const reply = await postModernToolCall(mcpx.url, id, params, { elicitation: {} });
      for (const frame of reply.messages) expectValidToClient(V, frame, "tools/call");
      return reply.messages[0] as { result?: Record<string, unknown>; error?: { code: number; message: string } };
    };
    const call = via("ask__ask_form", { message: "bound?", schema: FORM });
    const first = await send(1, call);
    expect(first.result?.resultType).toBe("input_required");
    const [key] = Object.keys(first.result?.inputRequests as object);
    const answer = { [key!]: { action: "accept", content: { name: "x" } } };
    const requestState = first.result?.requestState;
    const other = await send(2, { ...via("ask__ask_form", { message: "bound?", schema: FORM, extra: 1 }), requestState, inputResponses: answer });
    expect(other.error?.code).toBe(-32602);
    expect(other.error?.message).toContain("belongs to another request");
    const done = await send(3, { ...call, requestState, inputResponses: answer });
    expect(toolJson(done.result)).toEqual({ action: "accept", content: { name: "x" } });
  });
});

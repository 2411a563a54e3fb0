/**
 * mcpx as a client of a 2026-07-28 upstream (the SDK 2.x `serveStdio` / `createMcpHandler`,
 * serving the modern era alone), used by legacy SDK 1.x hosts: the catalogue, calls, resources,
 * prompts, list changes and resource updates over `subscriptions/listen`, and questions asked
 * through `input_required` answered by the host inline or from `mcpx elicit`. Every frame mcpx
 * sends the upstream is checked against the 2026-07-28 schema (and, over HTTP, its headers).
 */
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ElicitRequestSchema, ResourceUpdatedNotificationSchema, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { nodeServer, RawStdioHost, type TempConfig } from "../helpers/mcpx.js";
import { expectValidToClient, validateToServer } from "../helpers/spec-validator.js";
import { firstText, startHttpFixture, type HttpFixture } from "../helpers/upstreams.js";
import { deferred, stdioHost, type RecordingHost } from "../relay/support.js";
import { brokerConfig, elicit, elicitListAll, pendingFrom, waitForQuestion } from "../broker-e2e/support.js";

type Frame = Record<string, unknown>;
interface Received {
  method?: string;
  headers?: Record<string, string>;
  message: Frame | undefined;
}

function received(file: string): Received[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Received);
}

const NAME_FORM = { action: "accept", content: { name: "Ada" } };

/** The text of a tool result the SDK client returned. */
function text(result: unknown): string {
  const block = (result as { content?: Array<{ type: string; text?: string }> }).content?.[0];
  if (block?.type !== "text") throw new Error(`not a text result: ${JSON.stringify(result)}`);
  return block.text ?? "";
}

interface Setup {
  config: TempConfig;
  frames: string;
  http?: HttpFixture;
}

/** Where the fixture writes every frame it receives. */
const framesFile = (): string => join(mkdtempSync(join(tmpdir(), "mcpx-frames-")), "frames.jsonl");

const transports: Array<{ name: string; setup: () => Promise<Setup> }> = [
  {
    name: "stdio",
    setup: async () => {
      const frames = framesFile();
      return { config: brokerConfig({ modern: nodeServer("modern-server.mjs", ["--stdio", "--modern-only"], { env: { MODERN_FRAMES: frames } }) }), frames };
    },
  },
  {
    name: "Streamable HTTP",
    setup: async () => {
      const frames = framesFile();
      const http = await startHttpFixture("modern-server.mjs", { MODERN_FRAMES: frames }, ["--http", "--modern-only"]);
      return { config: brokerConfig({ modern: { url: http.url } }), frames, http };
    },
  },
];

describe.each(transports)("a 2026-07-28 upstream over $name, used by a 2025-11-25 host", ({ setup }) => {
  let context: Setup;
  let host: RecordingHost;
  const asked: Frame[] = [];

  beforeAll(async () => {
    context = await setup();
    host = await stdioHost(context.config, {
      capabilities: { elicitation: { form: {} } },
      setup: (client) =>
        client.setRequestHandler(ElicitRequestSchema, async (request) => {
          asked.push(request.params as Frame);
          return NAME_FORM;
        }),
    });
  });
  afterAll(async () => {
    await host?.close();
    await context?.http?.close();
  });

  it("lists its tools, prompts and resources, and serves a call, a read and a prompt", async () => {
    const tools = await host.client.listTools();
    expect(tools.tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(["modern__greet", "modern__ask_name", "modern__add_tool", "modern__touch_note"]),
    );
    expect(text(await host.client.callTool({ name: "modern__greet", arguments: { name: "Grace" } }))).toBe("Hello, Grace, from 2026");
    const resources = await host.client.listResources();
    expect(resources.resources.map((resource) => resource.uri)).toContain("note://modern");
    const read = await host.client.readResource({ uri: "note://modern" });
    expect(read.contents).toEqual([{ uri: "note://modern", mimeType: "text/plain", text: "a modern note" }]);
    const prompt = await host.client.getPrompt({ name: "modern__modern_prompt" });
    expect(prompt.messages[0]?.content).toEqual({ type: "text", text: "Say hello from 2026." });
    for (const frame of host.frames.filter((frame) => "result" in frame)) {
      // No `resultType`, no upstream serverInfo: a complete 2026 result reaches a legacy host as a plain result.
      expect(JSON.stringify(frame)).not.toContain("resultType");
      expect(JSON.stringify(frame)).not.toContain("io.modelcontextprotocol/serverInfo");
    }
  });

  it("asks the host each question of an input_required answer inline, and retries until complete", async () => {
    asked.length = 0;
    const result = await host.client.callTool({ name: "modern__ask_name", arguments: { rounds: 2 } });
    expect(text(result)).toBe(`Hello, ${JSON.stringify(NAME_FORM)} after 2 round(s)`);
    // Named after the server that asks (design rule 3), as a legacy server's question is.
    expect(asked.map((params) => params.message)).toEqual(["[modern] What is your name? (round 1)", "[modern] What is your name? (round 2)"]);
    const frame = host.frames.findLast((candidate) => "result" in candidate && JSON.stringify(candidate).includes("after 2 round"));
    expectValidToClient("2025-11-25", frame, "tools/call");
    for (const request of host.requests("elicitation/create")) expectValidToClient("2025-11-25", request);
  });

  it("hears list changes on its listen stream and tells the host", async () => {
    const changed = deferred<void>();
    host.client.setNotificationHandler(ToolListChangedNotificationSchema, async () => changed.resolve());
    await host.client.callTool({ name: "modern__add_tool", arguments: {} });
    await changed.promise;
    await expect.poll(async () => (await host.client.listTools()).tools.map((tool) => tool.name), { timeout: 10_000 }).toContain("modern__extra");
  });

  it("passes a resource update to the host that subscribed", async () => {
    const updated = deferred<string>();
    host.client.setNotificationHandler(ResourceUpdatedNotificationSchema, async (notification) => updated.resolve(notification.params.uri));
    await host.client.subscribeResource({ uri: "note://modern" });
    await host.client.callTool({ name: "modern__touch_note", arguments: {} });
    expect(await updated.promise).toBe("note://modern");
    await host.client.unsubscribeResource({ uri: "note://modern" });
  });

  it("sent the upstream only valid 2026-07-28 frames (but the one initialize that asks for a legacy lane): no session, the envelope on each request", () => {
    // A legacy host's first call asks once whether the server also serves a legacy connection of
    // its own (following the caller's era, docs/protocol.md); this --modern-only server refuses
    // that initialize, and everything else went on the 2026-07-28 connection.
    const all = received(context.frames);
    expect(all.filter((entry) => entry.message?.method === "initialize").length).toBeLessThanOrEqual(1);
    const frames = all.filter((entry) => entry.message?.method !== "initialize");
    expect(frames.length).toBeGreaterThan(5);
    const problems: string[] = [];
    for (const entry of frames) {
      if (entry.method !== undefined && entry.method !== "POST") problems.push(`an HTTP ${entry.method}`);
      const message = entry.message;
      const result = validateToServer("2026-07-28", message);
      if (!result.valid) problems.push(`${JSON.stringify(message)}:\n    ${result.errors.join("\n    ")}`);
      if (entry.headers && message && typeof message.method === "string" && "id" in message) {
        const headers = entry.headers;
        if (headers["mcp-protocol-version"] !== "2026-07-28") problems.push(`${message.method}: MCP-Protocol-Version ${headers["mcp-protocol-version"]}`);
        if (headers["mcp-method"] !== message.method) problems.push(`${message.method}: Mcp-Method ${headers["mcp-method"]}`);
        const params = message.params as Frame;
        const name = ["tools/call", "prompts/get"].includes(message.method) ? params.name : message.method === "resources/read" ? params.uri : undefined;
        if (headers["mcp-name"] !== name) problems.push(`${message.method}: Mcp-Name ${headers["mcp-name"]}, expected ${String(name)}`);
        if (headers["mcp-session-id"] !== undefined) problems.push(`${message.method}: a session id`);
      }
    }
    expect(problems).toEqual([]);
    const methods = frames.map((entry) => entry.message?.method);
    expect(methods[0]).toBe("server/discover");
    expect(methods).not.toContain("initialize");
    expect(methods).not.toContain("resources/subscribe");
    expect(methods).toContain("subscriptions/listen");
    // Each retry is a new request, and carries the requestState the server sent, byte for byte.
    const calls = frames
      .map((entry) => entry.message)
      .filter((message): message is Frame => message?.method === "tools/call" && (message.params as Frame).name === "ask_name");
    expect(new Set(calls.map((call) => call.id)).size).toBe(calls.length);
    expect(calls.map((call) => (call.params as Frame).requestState)).toEqual([undefined, "round-1:\u00e9\u2028\u{1F511}==", "round-2:\u00e9\u2028\u{1F511}=="]);
  });
});

describe("a 2026-07-28 upstream's question for a legacy host", () => {
  let config: TempConfig;
  beforeAll(() => {
    config = brokerConfig({ modern: nodeServer("modern-server.mjs", ["--stdio", "--modern-only"]) });
  });

  it("reaches a 2025-06-18 host as an ordinary elicitation/create, and its answer completes the call", async () => {
    const host = new RawStdioHost(config);
    try {
      await host.initialize("2025-06-18", { elicitation: {} });
      host.send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "modern__ask_name", arguments: {} } });
      const request = await host.waitFor((frame) => frame.method === "elicitation/create");
      expectValidToClient("2025-06-18", request);
      expect(request.params).toMatchObject({ message: expect.stringContaining("What is your name? (round 1)") });
      host.send({ jsonrpc: "2.0", id: request.id, result: { action: "accept", content: { name: "Lin" } } });
      const answer = await host.waitFor((frame) => frame.id === 2 && !("method" in frame));
      expectValidToClient("2025-06-18", answer, "tools/call");
      expect(firstText(answer)).toBe(`Hello, ${JSON.stringify({ action: "accept", content: { name: "Lin" } })} after 1 round(s)`);
    } finally {
      await host.close();
    }
  });

  it("waits in the store for a host without elicitation, and `mcpx elicit answer` completes the call", async () => {
    const host = await stdioHost(config, { capabilities: {} });
    try {
      const call = host.client.callTool({ name: "modern__ask_name", arguments: {} });
      const question = await waitForQuestion(config, pendingFrom("modern"));
      expect(question).toMatchObject({ tool: "ask_name", mode: "form" });
      const run = await elicit(config, "answer", question.id, '{"name":"Kay"}');
      expect(run.code, run.stderr).toBe(0);
      expect(text(await call)).toBe(`Hello, ${JSON.stringify({ action: "accept", content: { name: "Kay" } })} after 1 round(s)`);
      expect(host.requests()).toEqual([]);
    } finally {
      await host.close();
    }
  });

  it("is closed as a cancelled call (not as the server giving up) when the host cancels the call it waits in", async () => {
    const host = new RawStdioHost(config);
    try {
      await host.initialize("2025-11-25", {});
      host.send({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "modern__ask_name", arguments: {} } });
      const question = await waitForQuestion(config, pendingFrom("modern"));
      host.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 3, reason: "the user pressed stop" } });
      const deadline = Date.now() + 10_000;
      for (;;) {
        const view = (await elicitListAll(config)).find((candidate) => candidate.id === question.id);
        if (view?.state === "closed") {
          expect(view.closedBecause).toBe("the call was cancelled");
          break;
        }
        if (Date.now() > deadline) throw new Error(`never closed: ${JSON.stringify(view)}`);
      }
    } finally {
      await host.close();
    }
  });
});

/**
 * A question raised by a call a host's script made goes inline to the host that called
 * `mcpx__exec`, in its era's way, exactly as for a direct call (issue 15, item 4; design rule 5:
 * the run is the host's call): a 2025-06-18 host on stdio as `elicitation/create`; an SDK 1.x
 * host on Streamable HTTP on its exec request's stream, also while another call of the run is in
 * flight; a 2025-11-25 host on JSON-only POSTs as -32042 whose retry of the same mcpx__exec
 * waits for the same run; a 2026-07-28 host as `input_required`, its retry bound to the code, a
 * 2026-07-28 upstream's own input request included. Frames mcpx sends are validated.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttp } from "@modelcontextprotocol/client";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { nodeServer, RawStdioHost, startMcpxHttp, writeConfig, type RunningMcpx, type TempConfig } from "../helpers/mcpx.js";
import { openBroker } from "../helpers/questions-api.js";
import { postModernToolCall, RawHttpHost } from "../helpers/raw-http.js";
import { recording, type Received } from "../helpers/recording-transport.js";
import { expectValidToClient } from "../helpers/spec-validator.js";
import { until } from "../helpers/until.js";
import { askingStdio, httpHost, isRequestFrame } from "../relay/support.js";

const FORM = { type: "object", properties: { name: { type: "string" } }, required: ["name"] };
const exec = (code: string) => ({ name: "mcpx__exec", arguments: { code } });
const textOf = (result: unknown): string => (result as { content: Array<{ text: string }> }).content[0]!.text;

let config: TempConfig;
beforeAll(() => {
  config = writeConfig({
    mcpServers: { ask: askingStdio(), modern: nodeServer("modern-server.mjs", ["--stdio", "--modern-only"]) },
    expose: "discovery",
    elicitation: { ttlSeconds: 60 },
  });
});

describe("a 2025-06-18 host on stdio", () => {
  let raw: RawStdioHost;
  beforeAll(async () => {
    raw = new RawStdioHost(config);
    await raw.initialize("2025-06-18", { elicitation: {} });
  });
  afterAll(async () => raw?.close());

  it("is asked a script's form question inline as elicitation/create, and the script gets its answer", async () => {
    const code = `const r = await ask.ask_form({ message: "Who are you?", schema: ${JSON.stringify(FORM)} });\nconsole.log(textOf(r));`;
    raw.send({ jsonrpc: "2.0", id: "run", method: "tools/call", params: exec(code) });
    const question = await raw.waitFor((frame) => isRequestFrame(frame, "elicitation/create"));
    expectValidToClient("2025-06-18", question);
    expect(question.params).toMatchObject({ message: "[ask] Who are you?" });
    raw.send({ jsonrpc: "2.0", id: question.id, result: { action: "accept", content: { name: "Ada" } } });
    const answer = await raw.waitFor((frame) => frame.id === "run" && !("method" in frame));
    expectValidToClient("2025-06-18", answer, "tools/call");
    expect(JSON.parse(textOf(answer.result))).toEqual({ action: "accept", content: { name: "Ada" } });
  });
});

describe("hosts of mcpx serve --http", () => {
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

  it("an SDK 1.x host is asked on its exec request's stream while another call of the run is in flight; the store says it is that host's", async () => {
    const host = await httpHost(mcpx.url, {
      name: "exec-host",
      capabilities: { elicitation: { form: {} } },
      setup: (client) => client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: { name: "Grace" } })),
    });
    try {
      // Two slow_ask calls in flight together on one stdio upstream: neither question came on a call's stream.
      const code = [
        "const [a, b] = await Promise.all([ask.slow_ask({ label: 'a', together: 2 }), ask.slow_ask({ label: 'b', together: 2 })]);",
        "console.log(textOf(a)); console.log(textOf(b));",
      ].join("\n");
      const result = await host.client.callTool(exec(code));
      expect(result.isError).toBeUndefined();
      expect(
        textOf(result)
          .split("\n")
          .map((line) => JSON.parse(line).action),
      ).toEqual(["accept", "accept"]);
      const asked = host.requests("elicitation/create");
      expect(asked).toHaveLength(2);
      for (const frame of host.frames) expectValidToClient("2025-11-25", frame, "result" in frame ? "tools/call" : undefined);
      const sessionId = (host as unknown as { client: { transport?: { sessionId?: string } } }).client.transport?.sessionId;
      const questions = (await store.store.questions.list(true)).filter((record) => record.server === "ask" && record.hostSession === sessionId);
      expect(questions).toHaveLength(2);
      for (const record of questions) expect(record.answer?.by).toBe(`host:${sessionId}`);
    } finally {
      await host.close();
    }
  });

  it("a 2025-11-25 host on JSON-only POSTs is answered -32042 for a URL question of a run with two calls in flight; its retry of the same mcpx__exec gets the run's result", async () => {
    const host = new RawHttpHost(mcpx.url);
    await host.initialize("2025-11-25", { elicitation: { form: {}, url: {} } });
    // Two calls in flight together: the URL question came on no call's stream (the form waits in the store).
    const code = [
      `const [url, form] = await Promise.all([ask.ask_url({ elicitationId: "run-url-1" }), ask.ask_form({ message: "Which one?", schema: ${JSON.stringify(FORM)} })]);`,
      "console.log(textOf(url)); console.log(textOf(form));",
    ].join("\n");
    const frame = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/call", params: exec(code) });
    const first = await host.send(frame(1), { accept: "application/json" });
    const [error] = first.messages;
    expectValidToClient("2025-11-25", error);
    expect(error).toMatchObject({ id: 1, error: { code: -32042, data: { elicitations: [{ mode: "url", elicitationId: "run-url-1" }] } } });
    const retry = host.send(frame(2), { accept: "application/json" });
    await mcpx.waitForLog("a host retried an mcpx__exec it was answered -32042 for");
    // The form's call runs beside the URL's: on a loaded machine its question reaches the store later.
    const pendingOfHost = async () =>
      (await store.store.questions.list(false)).filter((record) => record.server === "ask" && record.hostSession === host.sessionId);
    await until(async () => (await pendingOfHost()).length >= 2, "both questions of the run pending", 10_000);
    const pending = await pendingOfHost();
    const url = pending.find((record) => record.params.elicitationId === "run-url-1");
    const form = pending.find((record) => record.message === "Which one?");
    expect(url).toBeDefined();
    expect(form).toBeDefined();
    await store.broker.answer(url!.id, { action: "accept" }, { by: "cli" });
    await store.broker.answer(form!.id, { action: "accept", content: { name: "this one" } }, { by: "cli" });
    const answered = await retry;
    expectValidToClient("2025-11-25", answered.messages[0], "tools/call");
    expect(
      textOf(answered.messages[0]!.result)
        .split("\n")
        .map((line) => JSON.parse(line)),
    ).toEqual([{ action: "accept" }, { action: "accept", content: { name: "this one" } }]);
  });

  it("a 2026-07-28 host is answered input_required for a question a script's call raised, of a 2025 and of a 2026-07-28 upstream, and its retry runs the script on", async () => {
    const frames: Received[] = [];
    const client = new ModernClient(
      { name: "modern-exec-host", version: "1.0.0" },
      { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: "auto" } },
    );
    const asked: string[] = [];
    client.setRequestHandler("elicitation/create", async (request) => {
      asked.push(String((request.params as { message: string }).message));
      return { action: "accept", content: { name: "octocat" } };
    });
    await client.connect(recording(new ModernHttp(mcpx.url), frames));
    try {
      const code = [
        `const form = await ask.ask_form({ message: "Who are you?", schema: ${JSON.stringify(FORM)} });`,
        "const greeting = await modern.ask_name({});",
        "console.log(textOf(form)); console.log(textOf(greeting));",
      ].join("\n");
      const result = await client.callTool(exec(code));
      expect(textOf(result).split("\n")).toEqual([
        '{"action":"accept","content":{"name":"octocat"}}',
        'Hello, {"action":"accept","content":{"name":"octocat"}} after 1 round(s)',
      ]);
      expect(asked).toEqual(["[ask] Who are you?", "[modern] What is your name? (round 1)"]);
      const rounds = frames
        .filter((received) => received.requestMethod === "tools/call")
        .map((received) => (received.frame.result as { resultType: string }).resultType);
      expect(rounds).toEqual(["input_required", "input_required", "complete"]);
    } finally {
      await client.close();
      for (const { frame, requestMethod } of frames) expectValidToClient("2026-07-28", frame, requestMethod);
    }
  });

  it("a 2026-07-28 retry's requestState is bound to the script's code", async () => {
    const V = "2026-07-28";
    const send = async (id: number, params: { name: string } & Record<string, unknown>) => {
      const reply = await postModernToolCall(mcpx.url, id, params, { elicitation: {} });
      for (const frame of reply.messages) expectValidToClient(V, frame, "tools/call");
      return reply.messages[0] as { result?: Record<string, unknown>; error?: { code: number; message: string } };
    };
    const code = `const r = await ask.ask_form({ message: "bound?", schema: ${JSON.stringify(FORM)} }); console.log(textOf(r));`;
    const first = await send(1, exec(code));
    expect(first.result?.resultType).toBe("input_required");
    const [key] = Object.keys(first.result?.inputRequests as object);
    const inputResponses = { [key!]: { action: "accept", content: { name: "x" } } };
    const requestState = first.result?.requestState;
    const other = await send(2, { ...exec(`${code} console.log("and more");`), requestState, inputResponses });
    expect(other.error?.code).toBe(-32602);
    expect(other.error?.message).toContain("belongs to another request");
    const done = await send(3, { ...exec(code), requestState, inputResponses });
    expect(JSON.parse(textOf(done.result))).toEqual({ action: "accept", content: { name: "x" } });
  });
});

describe('elicitation.mode "host"', () => {
  let mcpx: RunningMcpx & { url: URL };
  beforeAll(async () => {
    mcpx = await startMcpxHttp(
      writeConfig({ mcpServers: { ask: askingStdio(), modern: nodeServer("modern-server.mjs", ["--stdio", "--modern-only"]) }, elicitation: { mode: "host" } }),
    );
  });
  afterAll(async () => mcpx?.close());

  it.each([
    ["a 2025 upstream's form", "await ask.ask_form({})", { elicitation: { form: {} } }, {}],
    ["a 2026-07-28 upstream's sampling", "await modern.sample({})", { sampling: {} }, { elicitation: {} }],
  ])(
    "a 2026-07-28 host whose script's call raises what it did not declare (%s) gets -32021 naming it, as for a direct call",
    async (_what, code, required, declared) => {
      const V = "2026-07-28";
      const reply = await postModernToolCall(mcpx.url, 1, exec(code), declared);
      for (const frame of reply.messages) expectValidToClient(V, frame, "tools/call");
      expect(reply.status).toBe(400);
      expect(reply.messages[0]).toMatchObject({ error: { code: -32021, data: { requiredCapabilities: required } } });
    },
  );
});

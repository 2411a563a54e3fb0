/**
 * Design rule 7: -32042 (URL elicitation required) in both directions, in one run of mcpx with
 * three hosts — a 2025-11-25 SDK host that takes URL questions, a raw 2025-06-18 host, and a raw
 * 2025-11-25 url-capable host whose POSTs accept only application/json — in front of the asking
 * fixture, whose `needs_url` answers -32042 until its URLs are complete (and counts its calls).
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ElicitRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import { MCPX_BIN, startMcpxHttp, writeConfig, type RunningMcpx, type TempConfig } from "../helpers/mcpx.js";
import { RawHttpHost, type Frame } from "../helpers/raw-http.js";
import { openBroker } from "../helpers/questions-api.js";
import { expectValidToClient } from "../helpers/spec-validator.js";
import { viewOf } from "../../src/broker/view.js";
import { deliveryOf } from "../../src/broker/delivery.js";
import type { QuestionRecord } from "../../src/broker/types.js";
import { askingStdio, httpHost, toolJson, type RecordingHost } from "./support.js";

/** A question as the surfaces show it, its delivery by this machine's processes (one machine here). */
const localView = (record: QuestionRecord) => viewOf(record, Date.now(), deliveryOf(record));

const COMPLETE = "notifications/elicitation/complete";
const JSON_ONLY = { accept: "application/json" };
const run = promisify(execFile);

let config: TempConfig;
let mcpx: RunningMcpx & { url: URL };
let urlHost: RecordingHost;
let oldHost: RawHttpHost;
let jsonHost: RawHttpHost;
let store: ReturnType<typeof openBroker>;

beforeAll(async () => {
  config = writeConfig({
    mcpServers: {
      ask: askingStdio(),
      // The same fixture at 2025-06-18: there, -32042 is just an error code.
      old: askingStdio({ protocol: "2025-06-18" }),
      // Questions that expire at once.
      brief: askingStdio({ elicitation: { ttlSeconds: 1 } }),
    },
    elicitation: { ttlSeconds: 60 },
  });
  mcpx = await startMcpxHttp(config);
  urlHost = await httpHost(mcpx.url, {
    name: "url-host",
    capabilities: { elicitation: { form: {}, url: {} } },
    setup: (client) => client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept" })),
  });
  oldHost = new RawHttpHost(mcpx.url);
  await oldHost.initialize("2025-06-18", { elicitation: {} });
  jsonHost = new RawHttpHost(mcpx.url);
  await jsonHost.initialize("2025-11-25", { elicitation: { form: {}, url: {} } });
  store = openBroker(join(config.dir, "state"));
});
afterAll(async () => {
  await urlHost?.close();
  oldHost?.close();
  jsonHost?.close();
  await store?.close();
  await mcpx?.close();
});

/** The stored question for one of the upstream's elicitationIds, once it is there (bounded). */
async function questionFor(elicitationId: string): Promise<QuestionRecord> {
  return vi.waitFor(
    async () => {
      const found = (await store.store.questions.list(true)).find((record) => record.params.elicitationId === elicitationId);
      if (!found) throw new Error(`no question for ${elicitationId} yet`);
      return found;
    },
    { timeout: 10_000, interval: 25 },
  );
}

async function urlCalls(): Promise<Record<string, number>> {
  return toolJson(await urlHost.client.callTool({ name: "ask__url_calls", arguments: {} })) as Record<string, number>;
}

function call(id: number | string, name: string, args: object): Frame {
  return { jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } };
}

async function rest(path: string, body: unknown): Promise<{ status: number; body: any }> {
  const token = readFileSync(join(config.dir, "state", "api-token"), "utf8").trim();
  const response = await fetch(new URL(path, mcpx.url), {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  return { status: response.status, body: await response.json() };
}

describe("an upstream's -32042 (mcpx as the client of a 2025-11-25 upstream)", () => {
  it("is asked inline of a url-capable host; the upstream's completion retries the call exactly once", async () => {
    const pending = urlHost.client.callTool({ name: "ask__needs_url", arguments: { key: "inline" } });
    const asked = await urlHost.waitFor((frame) => frame.method === "elicitation/create");
    expectValidToClient("2025-11-25", asked);
    expect(asked.params).toMatchObject({
      mode: "url",
      elicitationId: "inline-1",
      url: "https://example.com/connect?id=inline-1",
      message: "[ask] Please connect account 1",
    });
    // The interaction at the URL finishes: the upstream says so, on no call's stream.
    await urlHost.client.callTool({ name: "ask__complete_url", arguments: { elicitationId: "inline-1" } });
    expect(toolJson(await pending)).toEqual({ key: "inline", calls: 2, done: true });

    const complete = await urlHost.waitFor((frame) => frame.method === COMPLETE);
    expect(complete.params).toEqual({ elicitationId: "inline-1" });
    expectValidToClient("2025-11-25", complete);
    expect((await urlCalls()).inline).toBe(2);
    // The store shows it: opened, consented, completed (by the upstream's notification).
    const view = localView(await questionFor("inline-1"));
    expect(view).toMatchObject({ mode: "url", audience: "person", progress: "completed", completion: { by: "server:ask" } });
  });

  it("waits in the broker for a 2025-06-18 host (no URL request, no -32042); `mcpx elicit done` retries it", async () => {
    const pending = oldHost.request(1, "tools/call", { name: "ask__needs_url", arguments: { key: "old" } });
    const question = await questionFor("old-1");
    expect(question.state).toBe("pending");
    const done = await run(process.execPath, [MCPX_BIN, "elicit", "done", question.id], { env: config.env });
    expect(done.stdout).toContain(`done recorded for question ${question.id}`);
    const answer = await pending;
    expect(toolJson(answer.result)).toEqual({ key: "old", calls: 2, done: true });
    expect(oldHost.received.some(({ frame }) => frame.method === "elicitation/create")).toBe(false);
    expect(localView((await store.broker.get(question.id))!)).toMatchObject({
      progress: "completed",
      completion: { by: "cli" },
      answer: { action: "accept", by: "cli" },
    });
  });

  it("answers a url-capable host on a JSON-only POST -32042 listing the question; REST done, then its retry gets the result", async () => {
    const first = await jsonHost.send(call(10, "ask__needs_url", { key: "json" }), JSON_ONLY);
    expect(first.contentType).toBe("application/json");
    const [error] = first.messages;
    expectValidToClient("2025-11-25", error);
    expect(error).toMatchObject({ id: 10, error: { code: -32042 } });
    expect((error!.error as { data: unknown }).data).toEqual({
      elicitations: [{ mode: "url", elicitationId: "json-1", url: "https://example.com/connect?id=json-1", message: "[ask] Please connect account 1" }],
    });
    const question = await questionFor("json-1");
    const finished = await rest(`/v1/questions/${question.id}/done`, {});
    expect(finished.status).toBe(200);
    expect(finished.body).toMatchObject({ id: question.id, progress: "completed", completion: { by: "rest" } });

    const retry = await jsonHost.send(call(11, "ask__needs_url", { key: "json" }), JSON_ONLY);
    expect(retry.contentType).toBe("application/json");
    expect(retry.messages).toHaveLength(1);
    expect(toolJson(retry.messages[0]!.result)).toEqual({ key: "json", calls: 2, done: true });
    expect((await urlCalls()).json).toBe(2);
  });

  it("passes malformed data (an entry without elicitationId) through untouched", async () => {
    const failure = await urlHost.client.callTool({ name: "ask__needs_url", arguments: { key: "bad", shape: "malformed" } }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(McpError);
    expect((failure as McpError).code).toBe(-32042);
    expect((failure as McpError).data).toEqual({
      elicitations: [{ mode: "url", url: "https://example.com/connect?id=bad-1", message: "Please connect account 1" }],
    });
    expect((await urlCalls()).bad).toBe(1);
  });

  it("passes malformed data (an entry whose url is not an absolute http(s) URL) through untouched, as a URL question with one would be refused", async () => {
    const failure = await urlHost.client
      .callTool({ name: "ask__needs_url", arguments: { key: "relative", shape: "relative-url" } })
      .catch((error: unknown) => error);
    expect((failure as McpError).code).toBe(-32042);
    expect(urlHost.requests("elicitation/create").filter((frame) => JSON.stringify(frame).includes("relative-1"))).toEqual([]);
    expect((await urlCalls()).relative).toBe(1);
  });

  it("ends the call when the retry answers -32042 again, naming the server; never a third call", async () => {
    const pending = urlHost.client.callTool({ name: "ask__needs_url", arguments: { key: "again", shape: "again" } }).catch((error: unknown) => error);
    await urlHost.waitFor((frame) => frame.method === "elicitation/create" && (frame.params as Frame).elicitationId === "again-1");
    await urlHost.client.callTool({ name: "ask__complete_url", arguments: { elicitationId: "again-1" } });
    const failure = (await pending) as McpError;
    expect(failure).toBeInstanceOf(McpError);
    expect(failure.code).toBe(-32603);
    expect(failure.message).toMatch(/"ask" answered tools\/call with -32042 .* again .* retries only once/);
    expect((await urlCalls()).again).toBe(2);
  });

  it("ends the call when a person declines, saying so and naming the server; not retried", async () => {
    const pending = oldHost.request(2, "tools/call", { name: "ask__needs_url", arguments: { key: "no" } });
    const question = await questionFor("no-1");
    expect((await rest(`/v1/questions/${question.id}/answer`, { action: "decline" })).status).toBe(200);
    const answer = await pending;
    expectValidToClient("2025-06-18", answer);
    expect(answer.error).toMatchObject({ code: -32603 });
    expect((answer.error as { message: string }).message).toMatch(
      new RegExp(`"ask" needs a URL elicitation .* declined \\(by rest\\).*mcpx elicit show ${question.id}`),
    );
    expect((await urlCalls()).no).toBe(1);
  });

  it("ends the call when the question expires", async () => {
    const answer = await oldHost.request(3, "tools/call", { name: "brief__needs_url", arguments: { key: "late" } });
    expect((answer.error as { message: string }).message).toMatch(/"brief" needs a URL elicitation .* expired/);
  });

  it("from a 2025-06-18 upstream is just an error code: relayed to a url-capable 2025-11-25 host, a plain error to a 2025-06-18 one", async () => {
    const relayed = await urlHost.client.callTool({ name: "old__needs_url", arguments: { key: "pre" } }).catch((error: unknown) => error);
    expect((relayed as McpError).code).toBe(-32042);
    const plain = await oldHost.request(4, "tools/call", { name: "old__needs_url", arguments: { key: "pre-old" } });
    expectValidToClient("2025-06-18", plain);
    expect(plain.error).toMatchObject({ code: -32603 });
    expect((plain.error as { message: string }).message).toContain('"old" needs a URL elicitation completed first');
  });
});

describe("a URL question the calling host cannot be sent inline (mcpx as the server)", () => {
  it("is -32042 to a url-capable 2025-11-25 host on a JSON-only POST, with the upstream's id; the retry waits for the answer", async () => {
    const first = await jsonHost.send(call(20, "ask__ask_url", { elicitationId: "direct-1" }), JSON_ONLY);
    const [error] = first.messages;
    expectValidToClient("2025-11-25", error);
    expect(error).toMatchObject({ id: 20, error: { code: -32042, data: { elicitations: [{ mode: "url", elicitationId: "direct-1" }] } } });
    // The retry comes first and waits; a person consents from the CLI's store.
    const retry = jsonHost.send(call(21, "ask__ask_url", { elicitationId: "direct-1" }), JSON_ONLY);
    const question = await questionFor("direct-1");
    await mcpx.waitForLog("a host retried a call it was answered -32042 for");
    await store.broker.answer(question.id, { action: "accept" }, { by: "cli" });
    const answered = await retry;
    expect(toolJson(answered.messages[0]!.result)).toEqual({ action: "accept" });
    const events = toolJson(await urlHost.client.callTool({ name: "ask__events", arguments: {} })) as Array<{ tool: string }>;
    expect(events.filter((event) => event.tool === "ask_url")).toHaveLength(1);
  });

  it("is never -32042 for a form question: the JSON-only call waits in the broker", async () => {
    const pending = jsonHost.send(call(30, "ask__ask_form", { message: "Your name?", tag: "json-form" }), JSON_ONLY);
    const question = await vi.waitFor(async () => {
      const found = (await store.store.questions.list(false)).find((record) => record.message.includes("Your name?"));
      if (!found) throw new Error("not yet");
      return found;
    });
    await store.broker.answer(question.id, { action: "accept", content: { name: "Ada" } }, { by: "cli" });
    const reply = await pending;
    expect(reply.messages[0]).not.toHaveProperty("error");
    expect(toolJson(reply.messages[0]!.result)).toEqual({ action: "accept", content: { name: "Ada" } });
  });
});

describe("a URL question finished by a person", () => {
  it("still reaches the host that was asked with its completion notification, once", async () => {
    // A host that was sent the question and leaves it open (until mcpx withdraws it).
    const asked = await httpHost(mcpx.url, {
      name: "waiting-url-host",
      capabilities: { elicitation: { url: {} } },
      setup: (client) =>
        client.setRequestHandler(
          ElicitRequestSchema,
          (_request, extra) => new Promise((resolve) => extra.signal.addEventListener("abort", () => resolve({ action: "cancel" }))),
        ),
    });
    try {
      const pending = asked.client.callTool({ name: "ask__ask_url", arguments: { elicitationId: "person-1" } });
      await asked.waitFor((frame) => frame.method === "elicitation/create");
      const question = await questionFor("person-1");
      expect((await rest(`/v1/questions/${question.id}/done`, {})).status).toBe(200);
      expect(toolJson(await pending)).toEqual({ action: "accept" });
      const complete = await asked.waitFor((frame) => frame.method === COMPLETE);
      expect(complete.params).toEqual({ elicitationId: "person-1" });
      expectValidToClient("2025-11-25", complete);
      await asked.client.ping();
      expect(asked.frames.filter((frame) => frame.method === COMPLETE)).toHaveLength(1);
      // Nobody else heard of it.
      expect(urlHost.frames.filter((frame) => JSON.stringify(frame).includes("person-1"))).toEqual([]);
    } finally {
      await asked.close();
    }
  });
});

describe("every frame mcpx sent", () => {
  it("is valid for each host's revision", async () => {
    // The SDK host's frames: requests, notifications and errors (a result needs its request's method).
    for (const frame of urlHost.frames.filter((candidate) => !("result" in candidate))) expectValidToClient("2025-11-25", frame);
    for (const { frame, requestMethod } of oldHost.received) expectValidToClient("2025-06-18", frame, requestMethod);
    for (const { frame, requestMethod } of jsonHost.received) expectValidToClient("2025-11-25", frame, requestMethod);
    expect(oldHost.received.filter(({ frame }) => (frame.error as { code?: number } | undefined)?.code === -32042)).toEqual([]);
  });
});

/**
 * The JSON-RPC utilities across mcpx, in both directions: cancellation (an upstream
 * withdrawing its question, a host cancelling its call), progress tokens mapped per host and
 * back, and ping.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RawStdioHost } from "../helpers/mcpx.js";
import { expectValidToClient } from "../helpers/spec-validator.js";
import { askingStdio, frameToolJson, isRequestFrame, relayConfig, type Frame } from "./support.js";

let raw: RawStdioHost;

beforeAll(async () => {
  raw = new RawStdioHost(relayConfig({ ask: askingStdio() }));
  await raw.initialize("2025-11-25", { elicitation: { form: {} } });
});
afterAll(async () => raw?.close());

const answerTo = (id: unknown) => (frame: Frame) => frame.id === id && !("method" in frame);

/** Wait for a frame mcpx sends from now on (earlier tests' frames do not count). */
function next(predicate: (frame: Frame) => boolean): Promise<Frame> {
  const from = raw.frames.length;
  return raw.waitFor((frame) => raw.frames.indexOf(frame) >= from && predicate(frame));
}

async function events(id: string): Promise<Array<Record<string, unknown>>> {
  return frameToolJson(await raw.request(id, "tools/call", { name: "ask__events", arguments: {} })) as Array<Record<string, unknown>>;
}

describe("cancellation", () => {
  it("an upstream that withdraws its question: the host is told, under the id mcpx used", async () => {
    const questionSent = next((frame) => isRequestFrame(frame, "elicitation/create"));
    const cancelledSent = next((frame) => frame.method === "notifications/cancelled");
    raw.send({ jsonrpc: "2.0", id: "withdrawn", method: "tools/call", params: { name: "ask__ask_then_abort", arguments: {} } });
    const question = await questionSent;
    // The upstream withdraws it only now, so it cannot be gone before it reached the host.
    expect(frameToolJson(await raw.request("withdraw", "tools/call", { name: "ask__withdraw_questions", arguments: {} }))).toEqual({ withdrawn: 1 });
    const cancelled = await cancelledSent;

    expect((cancelled.params as { requestId: unknown }).requestId).toBe(question.id);
    expectValidToClient("2025-11-25", cancelled);
    const result = frameToolJson(await raw.waitFor(answerTo("withdrawn"))) as { error?: unknown };
    expect(result.error).toBeDefined();

    // A late answer to the withdrawn question harms nothing.
    raw.send({ jsonrpc: "2.0", id: question.id, result: { action: "accept", content: { name: "late" } } });
    expect((await raw.request("after-late", "ping")).result).toEqual({});
  });

  it("a host that cancels its call while its question is pending: the question is withdrawn, the upstream gets cancel", async () => {
    const questionSent = next((frame) => isRequestFrame(frame, "elicitation/create"));
    raw.send({ jsonrpc: "2.0", id: "asking", method: "tools/call", params: { name: "ask__ask_form", arguments: { tag: "call-cancelled" } } });
    const question = await questionSent;

    const withdrawn = next((frame) => frame.method === "notifications/cancelled");
    raw.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "asking", reason: "never mind" } });
    expect(((await withdrawn).params as { requestId: unknown }).requestId).toBe(question.id);

    const seen = await events("events-after-withdrawal");
    expect(seen).toContainEqual(expect.objectContaining({ tool: "ask_form:call-cancelled", result: { action: "cancel" } }));
    expect(raw.frames.filter(answerTo("asking"))).toEqual([]);
  });

  it("a host that cancels its call: the upstream tool's signal aborts and the host gets no answer", async () => {
    const progressSent = next((frame) => frame.method === "notifications/progress");
    raw.send({
      jsonrpc: "2.0",
      id: "long",
      method: "tools/call",
      params: { name: "ask__wait_for_cancel", arguments: {}, _meta: { progressToken: "host-token" } },
    });
    // Progress proves the tool is running, and comes back under the host's own token.
    const progress = await progressSent;
    expect(progress.params).toEqual({ progressToken: "host-token", progress: 0, message: "waiting" });
    expectValidToClient("2025-11-25", progress);

    raw.send({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "long", reason: "the user pressed stop" } });
    const seen = await events("events-after-cancel");
    const started = seen.find((event) => event.tool === "wait_for_cancel" && event.method === "started");
    // mcpx gives the upstream a token of its own, mapped back per host.
    expect(started?.progressToken).toEqual(expect.any(String));
    expect(started?.progressToken).not.toBe("host-token");
    expect(seen).toContainEqual(expect.objectContaining({ tool: "wait_for_cancel", aborted: expect.any(String) }));
    expect(raw.frames.filter(answerTo("long"))).toEqual([]);
  });
});

describe("ping", () => {
  it("a host's ping is answered {}", async () => {
    const answer = await raw.request("host-ping", "ping");
    expect(answer.result).toEqual({});
    expectValidToClient("2025-11-25", answer, "ping");
  });

  it("an upstream's ping during a call is answered {} by mcpx, not passed to the host", async () => {
    const answer = await raw.request("pinging", "tools/call", { name: "ask__ping_client", arguments: {} });
    expect(frameToolJson(answer)).toEqual({});
    expect(raw.frames.filter((frame) => isRequestFrame(frame, "ping"))).toEqual([]);
  });
});

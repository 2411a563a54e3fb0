/**
 * A host that cancels a call on `serve --http`: the POST that carried the call ends promptly
 * (the cancelled request gets no answer, so nothing else would end it), and the upstream hears
 * the cancellation. Once with a POST already streaming (progress came first) and once with a
 * POST that had sent nothing yet, which ends as an empty SSE stream: a request's POST is
 * answered with an SSE stream or JSON, never 202.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMcpxHttp, type RunningMcpx } from "../helpers/mcpx.js";
import { ACCEPT_BOTH, postStreaming, RawHttpHost, sseData } from "../helpers/raw-http.js";
import { askingStdio, frameToolJson, relayConfig } from "../relay/support.js";

/** Far below the client's own patience (the helpers give up after 15 s). */
const ENDS_WITHIN_MS = 5_000;

let mcpx: RunningMcpx & { url: URL };
let host: RawHttpHost;

beforeAll(async () => {
  mcpx = await startMcpxHttp(relayConfig({ ask: askingStdio() }));
  host = new RawHttpHost(mcpx.url);
  await host.initialize("2025-11-25");
});
afterAll(async () => {
  host?.close();
  await mcpx?.close();
});

type Event = Record<string, unknown>;

async function upstreamEvents(): Promise<Event[]> {
  return frameToolJson(await host.request(`events-${Math.random()}`, "tools/call", { name: "ask__events", arguments: {} })) as Event[];
}

/** Wait (bounded) until the upstream's record holds an event matching `predicate`. */
async function upstreamSaw(predicate: (event: Event) => boolean, count = 1): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    if ((await upstreamEvents()).filter(predicate).length >= count) return;
    if (Date.now() > deadline) throw new Error(`the upstream never recorded it; it has ${JSON.stringify(await upstreamEvents())}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const started = (event: Event): boolean => event.tool === "wait_for_cancel" && event.method === "started";
const aborted = (event: Event): boolean => event.tool === "wait_for_cancel" && event.aborted !== undefined;

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms))),
  ]).finally(() => clearTimeout(timer));
}

describe("serve --http: a cancelled call ends its POST", () => {
  it("a POST already streaming (progress first) ends its SSE stream, without an answer", async () => {
    const before = (await upstreamEvents()).filter(aborted).length;
    const { stream } = await postStreaming(
      mcpx.url,
      { jsonrpc: "2.0", id: "streaming", method: "tools/call", params: { name: "ask__wait_for_cancel", arguments: {}, _meta: { progressToken: "p1" } } },
      host.headers(),
    );
    await stream.waitFor((frame) => frame.method === "notifications/progress");

    const cancel = await host.notify("notifications/cancelled", { requestId: "streaming", reason: "the user pressed stop" });
    expect(cancel.status).toBe(202);
    await stream.ended(ENDS_WITHIN_MS);

    expect(stream.messages.filter((frame) => frame.id === "streaming")).toEqual([]);
    await upstreamSaw(aborted, before + 1);
  });

  it("a POST that sent nothing yet ends as an empty SSE stream, without an answer", async () => {
    const before = { started: (await upstreamEvents()).filter(started).length, aborted: (await upstreamEvents()).filter(aborted).length };
    const reply = fetch(mcpx.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: ACCEPT_BOTH, ...host.headers() },
      body: JSON.stringify({ jsonrpc: "2.0", id: "silent", method: "tools/call", params: { name: "ask__wait_for_cancel", arguments: {} } }),
      signal: AbortSignal.timeout(30_000),
    }).then(async (response) => ({ status: response.status, type: response.headers.get("content-type") ?? "", body: await response.text() }));
    await upstreamSaw(started, before.started + 1);

    const cancel = await host.notify("notifications/cancelled", { requestId: "silent", reason: "never mind" });
    expect(cancel.status).toBe(202);
    const ended = await within(reply, ENDS_WITHIN_MS, "the POST's end");

    expect(ended.status).toBe(200);
    expect(ended.type).toContain("text/event-stream");
    expect(sseData(ended.body)).toEqual([]);
    await upstreamSaw(aborted, before.aborted + 1);
  });

  it("the session goes on working after both", async () => {
    expect((await host.request("after", "ping")).result).toEqual({});
  });
});

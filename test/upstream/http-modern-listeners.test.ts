/**
 * A 2026-07-28 HTTP request's stop also stops when the connection closes; once the request is
 * answered, that tie is undone. Otherwise every request leaves a listener on the connection's
 * long-lived signal, and memory grows with every call.
 */
import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import type { JsonRpcMessage } from "../../src/protocol/jsonrpc.js";
import { HttpInbound, type HttpLink } from "../../src/upstream/http-inbound.js";
import { ModernHttpRequests } from "../../src/upstream/http-modern.js";
import { silentLogger } from "../../src/util/log.js";

const limits = { maxMessageBytes: 1 << 20, limitName: "limits.maxMessageBytes" };

function requests(closing: AbortSignal, received: JsonRpcMessage[]): ModernHttpRequests {
  const inbound = new HttpInbound({ onmessage: (message) => received.push(message) }, limits, silentLogger, closing, () => false);
  const link: HttpLink = { url: new URL("http://127.0.0.1/mcp"), fetch, headers: (extra) => extra, closing, closed: () => false, log: silentLogger, inbound };
  return new ModernHttpRequests({ link, headers: {}, limits, toolFor: () => undefined, lost: () => {} });
}

const answer = (id: number, framing: "json" | "sse"): Response => {
  const body = JSON.stringify({ jsonrpc: "2.0", id, result: { resultType: "complete" } });
  return framing === "json"
    ? new Response(body, { headers: { "content-type": "application/json" } })
    : new Response(`event: message\ndata: ${body}\n\n`, { headers: { "content-type": "text/event-stream" } });
};

describe("a modern HTTP request's stop", () => {
  it.each(["json", "sse"] as const)("leaves nothing on the connection's signal once answered (%s)", async (framing) => {
    const closing = new AbortController().signal;
    const received: JsonRpcMessage[] = [];
    const modern = requests(closing, received);
    for (let id = 1; id <= 50; id++) {
      const stop = modern.stopperFor(id);
      await modern.response({ jsonrpc: "2.0", id, method: "tools/list" }, answer(id, framing), stop);
    }
    await expect.poll(() => received.length).toBe(50);
    await expect.poll(() => getEventListeners(closing, "abort").length).toBe(0);
  });

  it("still stops an open request when the connection closes", () => {
    const closer = new AbortController();
    const modern = requests(closer.signal, []);
    const stop = modern.stopperFor(1);
    closer.abort();
    expect(stop.signal.aborted).toBe(true);
  });
});

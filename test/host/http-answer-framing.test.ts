// How a POST's answers are framed, by what the host's Accept allows (src/host/http-session-channel.ts):
// a host that accepts text/event-stream gets an SSE stream even for a lone answer, as the SDK's
// server sends by default (the conformance scenario server-sse-multiple-streams reads the first
// event of each); a host that accepts only application/json gets the answers as one JSON body and
// nothing before them. Real loopback HTTP: a node:http server whose POSTs become Exchanges of one
// HttpSessionChannel, read by plain fetch (test/helpers/raw-http.ts), independent of mcpx's HTTP host.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Exchange, HttpSessionChannel } from "../../src/host/http-session-channel.js";
import type { JsonRpcMessage } from "../../src/protocol/jsonrpc.js";
import { silentLogger } from "../../src/util/log.js";
import { ACCEPT_BOTH, post } from "../helpers/raw-http.js";

let server: Server;
let url: URL;
let channel: HttpSessionChannel;
/** Each request the channel hands on, in order, so a test can answer it. */
const received: JsonRpcMessage[] = [];
let onReceived: (() => void) | undefined;

beforeAll(async () => {
  channel = new HttpSessionChannel(silentLogger);
  channel.onmessage = (message) => {
    received.push(message);
    onReceived?.();
  };
  server = createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
    request.on("end", () => {
      const value = JSON.parse(body) as JsonRpcMessage | JsonRpcMessage[];
      // The framing under test, as the HTTP host derives it from Accept.
      const accept = request.headers.accept;
      const framing = { json: accept !== "text/event-stream", sse: accept !== "application/json" };
      channel.receive(Array.isArray(value) ? value : [value], new Exchange(response, { "mcp-session-id": "s1" }, framing));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
});

afterAll(async () => {
  await channel.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** Wait (bounded) until the channel has handed on `count` messages in all. */
function receivedCount(count: number): Promise<void> {
  return new Promise((resolve, reject) => {
    if (received.length >= count) return resolve();
    const timer = setTimeout(() => reject(new Error(`only ${received.length} of ${count} messages arrived`)), 5_000);
    onReceived = () => {
      if (received.length < count) return;
      clearTimeout(timer);
      onReceived = undefined;
      resolve();
    };
  });
}

const request = (id: number) => ({ jsonrpc: "2.0" as const, id, method: "tools/list", params: {} });
const answer = (id: number) => ({ jsonrpc: "2.0" as const, id, result: { tools: [] } });
const progress = { jsonrpc: "2.0" as const, method: "notifications/progress", params: { progressToken: "p", progress: 1 } };

describe("a POST's answer framing", () => {
  it("a host that accepts both gets a lone answer as an SSE stream with one event", async () => {
    const before = received.length;
    const reply = post(url, request(1), { accept: ACCEPT_BOTH });
    await receivedCount(before + 1);
    await channel.send(answer(1));
    const { status, contentType, messages, headers } = await reply;
    expect(status).toBe(200);
    expect(contentType).toContain("text/event-stream");
    expect(headers.get("mcp-session-id")).toBe("s1");
    expect(messages).toEqual([answer(1)]);
  });

  it("a host that accepts only SSE gets the same", async () => {
    const before = received.length;
    const reply = post(url, request(2), { accept: "text/event-stream" });
    await receivedCount(before + 1);
    await channel.send(answer(2));
    expect((await reply).contentType).toContain("text/event-stream");
    expect((await reply).messages).toEqual([answer(2)]);
  });

  it("a host that accepts both gets what precedes the answer on the same stream, in order", async () => {
    const before = received.length;
    const reply = post(url, request(3), { accept: ACCEPT_BOTH });
    await receivedCount(before + 1);
    await channel.send(progress, { relatedRequestId: 3 });
    await channel.send(answer(3));
    expect((await reply).messages).toEqual([progress, answer(3)]);
  });

  it("a host that accepts only JSON gets the answer as a JSON object, and nothing that came before it", async () => {
    const before = received.length;
    const reply = post(url, request(4), { accept: "application/json" });
    await receivedCount(before + 1);
    await channel.send(progress, { relatedRequestId: 4 });
    await channel.send(answer(4));
    const { status, contentType, body } = await reply;
    expect(status).toBe(200);
    expect(contentType).toContain("application/json");
    expect(JSON.parse(body)).toEqual(answer(4));
  });

  it("a host that accepts only JSON gets a batch's answers as one array, in the order they came", async () => {
    const before = received.length;
    const reply = post(url, [request(5), request(6)], { accept: "application/json" });
    await receivedCount(before + 2);
    await channel.send(answer(6));
    await channel.send(answer(5));
    const { contentType, body } = await reply;
    expect(contentType).toContain("application/json");
    expect(JSON.parse(body)).toEqual([answer(6), answer(5)]);
  });

  it("a host that accepts only JSON whose every request is cancelled gets 202 and no body", async () => {
    const before = received.length;
    const reply = post(url, request(7), { accept: "application/json" });
    await receivedCount(before + 1);
    channel.unanswered(7);
    const { status, body } = await reply;
    expect(status).toBe(202);
    expect(body).toBe("");
  });
});

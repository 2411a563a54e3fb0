/**
 * `serve --http` against slow and mismatched clients.
 *
 * Slow: request headers and bodies that trickle in are cut off after `http.headersTimeoutSeconds`
 * and `http.bodyTimeoutSeconds` (1 s each here), with 408, on /mcp and on /v1 alike, while a
 * call whose answer takes longer than both keeps its stream. Driven with raw sockets.
 *
 * Mismatched: the Streamable HTTP media-type rules (the same text in 2025-03-26, 2025-06-18
 * and 2025-11-25). A POST must accept both application/json and text/event-stream (406
 * otherwise; a host that takes only text/event-stream gets every answer as SSE) and send
 * Content-Type application/json (415); a GET must accept text/event-stream (406). No Accept at
 * all means anything is acceptable (RFC 9110), and wildcards and q=0 count.
 */
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMcpxHttp, type RunningMcpx } from "../helpers/mcpx.js";
import { ACCEPT_BOTH, postStreaming, rawRequest, RawHttpHost, sseData } from "../helpers/raw-http.js";
import { askingStdio, relayConfig } from "../relay/support.js";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const TIMEOUT_S = 1;
/** The cut must come near the timeout: well before Node's own 60 s / 300 s. */
const CUT_WITHIN_MS = 4_000;

let mcpx: RunningMcpx & { url: URL };
let mcpxEnv: NodeJS.ProcessEnv;

beforeAll(async () => {
  const config = relayConfig({ ask: askingStdio() });
  const doc = JSON.parse(readFileSync(config.file, "utf8")) as Record<string, unknown>;
  writeFileSync(config.file, JSON.stringify({ ...doc, http: { headersTimeoutSeconds: TIMEOUT_S, bodyTimeoutSeconds: TIMEOUT_S } }));
  mcpxEnv = config.env;
  mcpx = await startMcpxHttp(config);
});
afterAll(async () => {
  await mcpx?.close();
});

/**
 * Open a raw connection, write `head`, then one `drip` every 200 ms; resolves when the server
 * closes the connection, with what it answered and how long it took (bounded).
 */
function trickle(head: string, drip: string): Promise<{ answer: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect(Number(mcpx.url.port), mcpx.url.hostname);
    let answer = "";
    const dripping = setInterval(() => {
      if (drip) socket.write(drip);
    }, 200);
    const giveUp = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server kept the connection for ${CUT_WITHIN_MS * 2} ms; it answered ${JSON.stringify(answer)}`));
    }, CUT_WITHIN_MS * 2);
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (answer += chunk));
    socket.on("error", () => {});
    socket.on("close", () => {
      clearInterval(dripping);
      clearTimeout(giveUp);
      resolve({ answer, ms: Date.now() - started });
    });
    socket.write(head);
  });
}

const hostLine = (): string => `Host: ${mcpx.url.host}\r\n`;

describe("serve --http: slow clients are cut off", () => {
  it("headers that trickle in get 408 and the connection closed, within the headers timeout", async () => {
    const { answer, ms } = await trickle(`POST /mcp HTTP/1.1\r\n${hostLine()}`, "X-Slow: a\r\n");
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(ms).toBeLessThan(CUT_WITHIN_MS);
  });

  it("a connection that sends nothing is closed within the headers timeout", async () => {
    const { ms } = await trickle("", "");
    expect(ms).toBeLessThan(CUT_WITHIN_MS);
  });

  it("a /mcp body that trickles in gets 408 and the connection closed, within the body timeout", async () => {
    const head = `POST /mcp HTTP/1.1\r\n${hostLine()}Content-Type: application/json\r\nAccept: ${ACCEPT_BOTH}\r\nContent-Length: 10000\r\n\r\n{`;
    const { answer, ms } = await trickle(head, " ");
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(ms).toBeLessThan(CUT_WITHIN_MS);
  });

  it("a /v1 body that trickles in is cut off the same way", async () => {
    const token = readFileSync(join(String(mcpxEnv.MCPX_STATE_DIR), "api-token"), "utf8").trim();
    const auth = `Authorization: Bearer ${token}\r\n`;
    const head = `POST /v1/questions/x/answer HTTP/1.1\r\n${hostLine()}${auth}Content-Type: application/json\r\nContent-Length: 10000\r\n\r\n{`;
    const { answer, ms } = await trickle(head, " ");
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(ms).toBeLessThan(CUT_WITHIN_MS);
  });

  it("a call whose answer takes longer than both timeouts keeps its stream", async () => {
    const host = new RawHttpHost(mcpx.url);
    await host.initialize("2025-11-25");
    const { stream } = await postStreaming(
      mcpx.url,
      { jsonrpc: "2.0", id: "long", method: "tools/call", params: { name: "ask__wait_for_cancel", arguments: {}, _meta: { progressToken: "t" } } },
      host.headers(),
    );
    await stream.waitFor((frame) => frame.method === "notifications/progress");
    // Nothing to wait on here: the point is that nothing happens for longer than both timeouts.
    await new Promise((resolve) => setTimeout(resolve, (TIMEOUT_S * 2 + 1) * 1000));
    expect(stream.closed).toBe(false);
    await host.notify("notifications/cancelled", { requestId: "long" });
    await stream.ended(CUT_WITHIN_MS);
    host.close();
  });
});

describe("serve --http: the Accept and Content-Type rules", () => {
  const initialize = {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } },
  };
  const body = JSON.stringify(initialize);
  const post = (headers: Record<string, string>) => rawRequest(mcpx.url, "POST", { host: mcpx.url.host, ...headers }, body);

  it.each([
    ["only application/json", "application/json"],
    ["text/plain", "text/plain"],
    ["text/event-stream refused with q=0", "application/json, text/event-stream;q=0"],
  ])("a POST that accepts %s gets 406 with a JSON-RPC error", async (_name, accept) => {
    const reply = await post({ "content-type": "application/json", accept });
    expect(reply.status).toBe(406);
    const error = (JSON.parse(reply.body) as { error: { code: number; message: string } }).error;
    expect(error.message).toContain("text/event-stream");
  });

  it.each([
    ["both", ACCEPT_BOTH],
    ["anything (*/*)", "*/*"],
    ["wildcards by type", "application/*, text/*"],
  ])("a POST that accepts %s is served", async (_name, accept) => {
    const reply = await post({ "content-type": "application/json", accept });
    expect(reply.status).toBe(200);
  });

  it("a POST with no Accept at all is served (anything is acceptable)", async () => {
    const reply = await post({ "content-type": "application/json" });
    expect(reply.status).toBe(200);
  });

  it("a POST that accepts only text/event-stream gets its answer as SSE", async () => {
    const reply = await fetch(mcpx.url, { method: "POST", headers: { "content-type": "application/json", accept: "text/event-stream" }, body });
    expect(reply.status).toBe(200);
    expect(reply.headers.get("content-type")).toContain("text/event-stream");
    const [answer] = sseData(await reply.text()).map((data) => JSON.parse(data) as { id: unknown; result?: unknown });
    expect(answer?.id).toBe(1);
    expect(answer?.result).toBeDefined();
  });

  it.each([
    ["text/plain", { "content-type": "text/plain" }],
    ["a form", { "content-type": "application/x-www-form-urlencoded" }],
    ["none", {}],
  ])("a POST whose Content-Type is %s gets 415", async (_name, contentType) => {
    const reply = await post({ accept: ACCEPT_BOTH, ...contentType });
    expect(reply.status).toBe(415);
    expect((JSON.parse(reply.body) as { error: { message: string } }).error.message).toContain("application/json");
  });

  it("a POST with Content-Type application/json and parameters is served", async () => {
    const reply = await post({ accept: ACCEPT_BOTH, "content-type": "Application/JSON; charset=utf-8" });
    expect(reply.status).toBe(200);
  });

  it("a GET must accept text/event-stream (406), wildcards count", async () => {
    const host = new RawHttpHost(mcpx.url);
    await host.initialize("2025-11-25");
    expect(((await host.openStream({ accept: "application/json" })) as Response).status).toBe(406);
    expect(((await host.openStream({ accept: "text/event-stream;q=0" })) as Response).status).toBe(406);
    const stream = await host.openStream({ accept: "*/*" });
    expect(stream).not.toBeInstanceOf(Response);
    host.close();
  });
});

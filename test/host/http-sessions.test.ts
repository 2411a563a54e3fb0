/**
 * `mcpx serve --http` as a Streamable HTTP server, driven with raw `fetch`: sessions, the GET
 * stream, SSE and JSON answers, concurrency within a session, and DNS-rebinding protection.
 * Every message mcpx sends is checked against the 2025-11-25 schema.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { nodeServer, startMcpxHttp, writeConfig, type RunningMcpx } from "../helpers/mcpx.js";
import { EventStream, post, postStreaming, rawRequest, RawHttpHost, type Frame } from "../helpers/raw-http.js";
import { expectValidToClient } from "../helpers/spec-validator.js";

const EXTRA_ORIGIN = "https://app.example.com";

let mcpx: RunningMcpx & { url: URL };
const hosts: RawHttpHost[] = [];

function newHost(): RawHttpHost {
  const host = new RawHttpHost(mcpx.url);
  hosts.push(host);
  return host;
}

async function initialized(): Promise<RawHttpHost> {
  const host = newHost();
  await host.initialize("2025-11-25");
  return host;
}

beforeAll(async () => {
  const config = writeConfig({
    mcpServers: { changing: nodeServer("changing-server.mjs"), gate: nodeServer("gate-server.mjs") },
    http: { allowedOrigins: [EXTRA_ORIGIN] },
  });
  mcpx = await startMcpxHttp(config);
});

afterEach(() => {
  // Whatever a test saw, all of it must be valid for the revision the host negotiated.
  for (const host of hosts.splice(0)) {
    host.close();
    for (const { frame, requestMethod } of host.received) expectValidToClient("2025-11-25", frame, requestMethod);
  }
});

afterAll(async () => {
  await mcpx?.close();
});

describe("mcpx serve --http: sessions", () => {
  it("binds 127.0.0.1 by default and serves /mcp", () => {
    expect(mcpx.url.hostname).toBe("127.0.0.1");
    expect(mcpx.url.pathname).toBe("/mcp");
  });

  it("mints an Mcp-Session-Id at initialize, and the session then answers requests", async () => {
    const host = newHost();
    const init = await host.initialize("2025-11-25");
    expect(init.reply.status).toBe(200);
    expect(host.sessionId).toMatch(/^[\x21-\x7e]+$/); // visible ASCII only, as the spec requires
    expect((init.result as { protocolVersion: string }).protocolVersion).toBe("2025-11-25");
    const ping = await host.request(2, "ping");
    expect(ping.result).toEqual({});
    expect(ping.reply.headers.get("mcp-session-id")).toBe(host.sessionId);
  });

  it("gives each initialize its own session", async () => {
    const [a, b] = [await initialized(), await initialized()];
    expect(a.sessionId).not.toBe(b.sessionId);
  });

  it("answers 400 to a request without a session id", async () => {
    const reply = await post(mcpx.url, { jsonrpc: "2.0", id: 1, method: "tools/list" });
    expect(reply.status).toBe(400);
    expect((reply.messages[0]?.error as { code: number }).code).toBe(-32600);
  });

  it("answers 404 to an unknown session id", async () => {
    const reply = await post(mcpx.url, { jsonrpc: "2.0", id: 1, method: "ping" }, { "mcp-session-id": "no-such-session" });
    expect(reply.status).toBe(404);
  });

  it("ends a session on DELETE: 200, then 404 for everything in it", async () => {
    const host = await initialized();
    expect((await host.delete()).status).toBe(200);
    expect((await host.send({ jsonrpc: "2.0", id: 5, method: "ping" })).status).toBe(404);
    expect(((await host.openStream()) as Response).status).toBe(404);
    expect((await host.delete()).status).toBe(404);
  });

  it("ends the GET stream of a session that is deleted", async () => {
    const host = await initialized();
    const stream = await host.openStream();
    expect(stream).toBeInstanceOf(EventStream);
    expect((await host.delete()).status).toBe(200);
    await (stream as EventStream).ended();
  });

  it("refuses a bad MCP-Protocol-Version with 400 and accepts the negotiated one", async () => {
    const host = await initialized();
    const bad = await host.send({ jsonrpc: "2.0", id: 3, method: "ping" }, { "mcp-protocol-version": "1999-01-01" });
    expect(bad.status).toBe(400);
    const good = await host.send({ jsonrpc: "2.0", id: 4, method: "ping" }, { "mcp-protocol-version": "2025-11-25" });
    expect(good.status).toBe(200);
  });

  it("answers 202 with no body to a POST of only notifications", async () => {
    const host = await initialized();
    const reply = await host.notify("notifications/roots/list_changed");
    expect(reply.status).toBe(202);
    expect(reply.body).toBe("");
  });

  it("answers 405 to other HTTP methods", async () => {
    const response = await fetch(mcpx.url, { method: "PUT", body: "{}" });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toContain("POST");
  });
});

describe("mcpx serve --http: the GET stream", () => {
  it("opens as text/event-stream, allows one at a time (409), and can be reopened", async () => {
    const host = await initialized();
    const first = await host.openStream();
    expect(first).toBeInstanceOf(EventStream);
    expect((first as EventStream).response.headers.get("content-type")).toContain("text/event-stream");
    const second = (await host.openStream()) as Response;
    expect(second.status).toBe(409);

    (first as EventStream).close();
    await (first as EventStream).done;
    // mcpx notices the closed connection asynchronously; a new GET succeeds once it has.
    const reopened = await retryUntil(
      () => host.openStream(),
      (value) => value instanceof EventStream,
    );
    expect(reopened).toBeInstanceOf(EventStream);
  });

  it("needs Accept: text/event-stream (406)", async () => {
    const host = await initialized();
    const response = (await host.openStream({ accept: "application/json" })) as Response;
    expect(response.status).toBe(406);
  });

  it("carries a tools/list_changed to the host when an upstream's tools change", async () => {
    const host = await initialized();
    const stream = (await host.openStream()) as EventStream;
    const before = await host.request(2, "tools/list");

    const call = await host.request(3, "tools/call", { name: "changing__add_tool", arguments: {} });
    const added = /(added_\d+)/.exec(JSON.stringify(call.result))?.[1];
    expect(added).toBeDefined();
    expect(toolNames(before)).not.toContain(`changing__${added}`);
    await stream.waitFor((frame) => frame.method === "notifications/tools/list_changed");

    // By the time the host hears of the change, the new list is the one it gets.
    const after = await host.request(4, "tools/list");
    expect(toolNames(after)).toContain(`changing__${added}`);
  });
});

describe("mcpx serve --http: answers and concurrency", () => {
  it("answers a lone request with plain JSON, and one preceded by progress as SSE", async () => {
    const host = await initialized();
    const plain = await host.request(2, "tools/list");
    expect(plain.reply.contentType).toContain("application/json");

    const { stream } = await postStreaming(
      mcpx.url,
      { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "gate__wait", arguments: {}, _meta: { progressToken: "p1" } } },
      host.headers(),
    );
    await stream.waitFor((frame) => frame.method === "notifications/progress");
    await host.request(4, "tools/call", { name: "gate__open", arguments: {} });
    const answer = await stream.waitFor((frame) => frame.id === 3);
    expect(JSON.stringify(answer.result)).toContain("gate opened");
    await stream.ended();
    for (const frame of stream.messages) expectValidToClient("2025-11-25", frame, "tools/call");
    expect(stream.messages.find((frame) => frame.method === "notifications/progress")?.params).toMatchObject({ progressToken: "p1" });
  });

  it("answers several requests in flight on one session at once", async () => {
    const host = await initialized();
    // `wait` only finishes if the requests sent after it are served while it is in flight.
    const { stream } = await postStreaming(
      mcpx.url,
      { jsonrpc: "2.0", id: 10, method: "tools/call", params: { name: "gate__wait", arguments: {}, _meta: { progressToken: 10 } } },
      host.headers(),
    );
    await stream.waitFor((frame) => frame.method === "notifications/progress");
    const others = await Promise.all([
      host.request(11, "tools/list"),
      host.request(12, "ping"),
      host.request(13, "tools/call", { name: "gate__open", arguments: {} }),
    ]);
    for (const answer of others) {
      expect(answer.reply.status).toBe(200);
      expect(answer.error).toBeUndefined();
    }
    const waited = await stream.waitFor((frame) => frame.id === 10);
    expect(JSON.stringify(waited.result)).toContain("gate opened");
  });

  it("refuses a request whose id is still in flight, and still answers the first", async () => {
    const host = await initialized();
    const { stream } = await postStreaming(
      mcpx.url,
      { jsonrpc: "2.0", id: "dup", method: "tools/call", params: { name: "gate__wait", arguments: {}, _meta: { progressToken: "d" } } },
      host.headers(),
    );
    await stream.waitFor((frame) => frame.method === "notifications/progress");
    const duplicate = await host.send({ jsonrpc: "2.0", id: "dup", method: "ping" });
    expect((duplicate.messages[0]?.error as { code: number }).code).toBe(-32600);
    await host.request("opener", "tools/call", { name: "gate__open", arguments: {} });
    const answer = await stream.waitFor((frame) => frame.id === "dup" && !("method" in frame));
    expect(JSON.stringify(answer.result)).toContain("gate opened");
  });

  it("answers three concurrent requests on one session", async () => {
    const host = await initialized();
    const answers = await Promise.all([
      host.request(21, "tools/list"),
      host.request(22, "tools/call", { name: "changing__add_tool", arguments: {} }),
      host.request(23, "ping"),
    ]);
    for (const answer of answers) {
      expect(answer.reply.status).toBeGreaterThanOrEqual(200);
      expect(answer.reply.status).toBeLessThan(300);
      expect(answer.result).toBeDefined();
    }
  });
});

describe("mcpx serve --http: Host and Origin checks", () => {
  const message = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: initParams() });
  const headers = (extra: Record<string, string>): Record<string, string> => ({
    "content-type": "application/json",
    accept: "application/json, text/event-stream",
    ...extra,
  });

  it("refuses a Host header that does not name mcpx with 403", async () => {
    const reply = await rawRequest(mcpx.url, "POST", headers({ host: "evil.example.com" }), message);
    expect(reply.status).toBe(403);
    const rebound = await rawRequest(mcpx.url, "POST", headers({ host: `evil.example.com:${mcpx.url.port}` }), message);
    expect(rebound.status).toBe(403);
  });

  it("accepts localhost and 127.0.0.1 as the Host", async () => {
    for (const name of ["localhost", "127.0.0.1"]) {
      const reply = await rawRequest(mcpx.url, "POST", headers({ host: `${name}:${mcpx.url.port}` }), message);
      expect(reply.status).toBe(200);
    }
  });

  it("refuses a foreign Origin with 403, on every method", async () => {
    const host = await initialized();
    const evil = { origin: "https://evil.example.com" };
    // Sandboxed frames and file:// pages send the origin "null".
    expect((await post(mcpx.url, message, { origin: "null" })).status).toBe(403);
    expect((await post(mcpx.url, message, evil)).status).toBe(403);
    expect((await host.send({ jsonrpc: "2.0", id: 2, method: "ping" }, evil)).status).toBe(403);
    expect(((await host.openStream(evil)) as Response).status).toBe(403);
    const deleted = await fetch(mcpx.url, { method: "DELETE", headers: host.headers(evil) });
    expect(deleted.status).toBe(403);
    // The refused DELETE did not end the session.
    expect((await host.request(3, "ping")).reply.status).toBe(200);
  });

  it("accepts mcpx's own origin and one the config allows", async () => {
    for (const origin of [`http://127.0.0.1:${mcpx.url.port}`, `http://localhost:${mcpx.url.port}`, EXTRA_ORIGIN]) {
      const reply = await post(mcpx.url, message, { origin });
      expect(reply.status, origin).toBe(200);
    }
  });
});

function initParams(): object {
  return { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "guard-test", version: "1.0.0" } };
}

function toolNames(answer: Frame): string[] {
  return ((answer.result as { tools: Array<{ name: string }> }).tools ?? []).map((tool) => tool.name);
}

/** Call `attempt` until `done` says so, at most 50 times: for state the server updates asynchronously. */
async function retryUntil<T>(attempt: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  let value = await attempt();
  for (let tries = 1; !done(value) && tries < 50; tries++) {
    await new Promise((resolve) => setImmediate(resolve));
    value = await attempt();
  }
  return value;
}

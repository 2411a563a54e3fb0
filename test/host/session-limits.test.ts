/**
 * Bounds on HTTP host sessions: `limits.maxSessions` (503 beyond it) and
 * `limits.sessionIdleSeconds` (an idle session is ended; one waiting on a call is not idle).
 * Real `mcpx serve --http`, raw HTTP hosts.
 */
import { afterEach, describe, expect, it } from "vitest";
import { nodeServer, startMcpxHttp, writeConfig, type RunningMcpx } from "../helpers/mcpx.js";
import { postStreaming, RawHttpHost } from "../helpers/raw-http.js";
import { firstText, logRecords } from "../helpers/upstreams.js";

let mcpx: (RunningMcpx & { url: URL }) | undefined;
afterEach(async () => {
  await mcpx?.close();
  mcpx = undefined;
});

describe("limits.maxSessions", () => {
  it("refuses the session after the limit with 503, a JSON-RPC error and Retry-After, and takes one again once a session ends", async () => {
    mcpx = await startMcpxHttp(writeConfig({ mcpServers: {}, limits: { maxSessions: 2 } }));
    const first = new RawHttpHost(mcpx.url);
    const second = new RawHttpHost(mcpx.url);
    await first.initialize();
    await second.initialize();

    const third = new RawHttpHost(mcpx.url);
    const refused = await third.send({
      jsonrpc: "2.0",
      id: "init",
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "third", version: "1" } },
    });
    expect(refused.status).toBe(503);
    expect(refused.headers.get("mcp-session-id")).toBeNull();
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(refused.contentType).toContain("application/json");
    expect(refused.messages).toEqual([
      {
        jsonrpc: "2.0",
        id: "init",
        error: {
          code: -32000,
          message: "mcpx is serving its limit of 2 host sessions (limits.maxSessions); retry later, or end an unused session (DELETE /mcp)",
          data: { code: "SESSION_LIMIT", limit: 2 },
        },
      },
    ]);
    // The sessions already there are untouched.
    expect((await first.request(2, "ping")).result).toEqual({});

    expect((await second.delete()).status).toBe(200);
    const init = await third.initialize();
    expect(init.reply.status).toBe(200);
    expect(third.sessionId).toBeDefined();
    expect((await third.request(2, "ping")).result).toEqual({});
    expect(logRecords(mcpx.stderr()).filter((record) => record.msg.startsWith("refusing new host sessions"))).toHaveLength(1);
  });
});

describe("limits.sessionIdleSeconds", () => {
  it("ends a session idle that long; a session waiting on a call is not idle", async () => {
    mcpx = await startMcpxHttp(writeConfig({ mcpServers: { gate: nodeServer("gate-server.mjs") }, limits: { sessionIdleSeconds: 1 } }));
    const busy = new RawHttpHost(mcpx.url);
    await busy.initialize();
    // A call that runs until the gate opens: its POST stays open well past the idle timeout.
    const call = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "gate__wait", arguments: {}, _meta: { progressToken: "p" } } };
    const waiting = await postStreaming(mcpx.url, call, busy.headers());

    const idle = new RawHttpHost(mcpx.url);
    await idle.initialize();
    await mcpx.waitForLog(new RegExp(`"msg":"ended an idle host session","session":"${idle.sessionId}"`), 5_000);
    const gone = await idle.send({ jsonrpc: "2.0", id: 2, method: "ping" });
    expect(gone.status).toBe(404);

    // `busy` was quiet for longer than `idle`, but its call was in flight: it lives on.
    expect(firstText(await busy.request(3, "tools/call", { name: "gate__open", arguments: {} }))).toBeTruthy();
    const answer = await waiting.stream.waitFor((frame) => frame.id === 2);
    expect(firstText(answer)).toBe("gate opened");
    expect(mcpx.stderr()).not.toContain(`"msg":"ended an idle host session","session":"${busy.sessionId}"`);
    expect((await busy.request(4, "ping")).result).toEqual({});
  });
});

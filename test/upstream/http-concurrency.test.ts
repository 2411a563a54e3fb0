/**
 * Many calls in flight at once on one Streamable HTTP upstream connection, of either era: each
 * listens for the connection closing and lets go when done, so Node has nothing to warn about on
 * mcpx's stderr (its log is JSON lines; a stray warning line would break that).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { startMcpxHttp, writeConfig, type RunningMcpx } from "../helpers/mcpx.js";
import { startHttpFixture, type HttpFixture } from "../helpers/upstreams.js";
import { startAskingHttp } from "../relay/support.js";

const CONCURRENT = 40;
let legacy: HttpFixture;
let modern: HttpFixture;
let mcpx: RunningMcpx & { url: URL };

beforeAll(async () => {
  [legacy, modern] = await Promise.all([startAskingHttp(), startHttpFixture("modern-server.mjs", {}, ["--http", "--modern-only"])]);
  mcpx = await startMcpxHttp(writeConfig({ mcpServers: { old: { url: legacy.url }, new: { url: modern.url } } }));
});

afterAll(async () => {
  await mcpx?.close();
  await Promise.all([legacy?.close(), modern?.close()]);
});

describe("concurrent calls on one HTTP upstream connection", () => {
  it.each([
    ["legacy", "old__log", { levels: [] }],
    ["2026-07-28", "new__greet", { name: "Ada" }],
  ])(`%s: ${CONCURRENT} at once, and no listener warning from mcpx`, async (_era, name, args) => {
    const clients = await Promise.all(
      Array.from({ length: 4 }, async () => {
        const client = new Client({ name: "host", version: "1.0.0" });
        await client.connect(new StreamableHTTPClientTransport(mcpx.url));
        return client;
      }),
    );
    try {
      const calls = Array.from({ length: CONCURRENT }, (_, i) => clients[i % clients.length]!.callTool({ name, arguments: args }));
      const results = await Promise.all(calls);
      expect(results.every((result) => !result.isError)).toBe(true);
      expect(mcpx.stderr()).not.toContain("MaxListenersExceededWarning");
    } finally {
      await Promise.all(clients.map((client) => client.close()));
    }
  });
});

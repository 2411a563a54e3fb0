import { afterEach, describe, expect, it } from "vitest";
import { nodeServer, RawStdioHost, startMcpxHttp, writeConfig, type RunningMcpx } from "../helpers/mcpx.js";
import { ACCEPT_BOTH, RawHttpHost } from "../helpers/raw-http.js";
import { firstText, recordPath, waitForRecord } from "../helpers/upstreams.js";

function faultyConfig(extra: object = {}) {
  const config = writeConfig({ mcpServers: { faulty: nodeServer("faulty-server.mjs", [], extra) } });
  const record = recordPath(config);
  config.env.FAULTY_RECORD = record;
  return { config, record };
}

describe("an upstream that never answers", () => {
  let host: RawStdioHost | undefined;
  afterEach(async () => host?.close());

  it("times out after the server's timeoutSeconds with -32001, and the upstream is told to cancel", async () => {
    const { config, record } = faultyConfig({ timeoutSeconds: 1 });
    host = new RawStdioHost(config);
    await host.initialize();
    const started = Date.now();
    const answer = await host.request(1, "tools/call", { name: "faulty__hang", arguments: {} });
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(900);
    expect(elapsed).toBeLessThan(3_000);
    const error = answer.error as { code: number; message: string };
    expect(error.code).toBe(-32001);
    expect(error.message).toContain('"faulty"');

    const call = await waitForRecord(record, (event) => event.event === "call" && event.tool === "hang");
    await waitForRecord(record, (event) => event.event === "cancelled" && event.requestId === call.requestId);
    // The connection is still good for the next call.
    const pid = await host.request(2, "tools/call", { name: "faulty__pid", arguments: {} });
    expect(firstText(pid)).toBe(String(call.pid));
  });
});

describe("a host that goes away in the middle of a call", () => {
  let mcpx: (RunningMcpx & { url: URL }) | undefined;
  let host: RawStdioHost | undefined;
  afterEach(async () => {
    await host?.close();
    await mcpx?.close();
  });

  it("over stdio: closing stdin cancels the upstream call", async () => {
    const { config, record } = faultyConfig();
    host = new RawStdioHost(config);
    await host.initialize();
    host.send({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "faulty__hang", arguments: {} } });
    const call = await waitForRecord(record, (event) => event.event === "call" && event.tool === "hang");
    host.running.child.stdin.end();
    await waitForRecord(record, (event) => event.event === "cancelled" && event.requestId === call.requestId);
  });

  it("over HTTP: an aborted POST cancels the upstream call; other sessions carry on", async () => {
    const { config, record } = faultyConfig();
    mcpx = await startMcpxHttp(config);
    const leaving = new RawHttpHost(mcpx.url);
    const staying = new RawHttpHost(mcpx.url);
    await leaving.initialize();
    await staying.initialize();

    const aborter = new AbortController();
    const pending = fetch(mcpx.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: ACCEPT_BOTH, ...leaving.headers() },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "faulty__hang", arguments: {} } }),
      signal: aborter.signal,
    }).then(async (response) => response.text());
    const call = await waitForRecord(record, (event) => event.event === "call" && event.tool === "hang");
    aborter.abort();
    await expect(pending).rejects.toThrow();
    await waitForRecord(record, (event) => event.event === "cancelled" && event.requestId === call.requestId);

    const answer = await staying.request(2, "tools/call", { name: "faulty__pid", arguments: {} });
    expect(firstText(answer)).toBe(String(call.pid));
    expect(mcpx.child.exitCode).toBeNull();
  });
});

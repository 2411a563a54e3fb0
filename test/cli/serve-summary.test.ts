/**
 * `mcpx serve` tells the person which upstreams are up once startup settles (stdio and HTTP),
 * and a port already in use suggests --port.
 */
import { createServer } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { nodeServer, RawStdioHost, startMcpxHttp, writeConfig, type RunningMcpx } from "../helpers/mcpx.js";
import { runMcpx } from "../helpers/upstreams.js";
import { startupRaceConfig } from "../helpers/startup-race.js";

const SUMMARY = /^mcpx: \d+ of \d+ servers? up.*$/m;
const NPM_404 = ["-e", "console.error('npm error 404 Not Found - GET https://registry.npmjs.org/nope'); process.exit(1)"];

const servers = {
  gate: nodeServer("gate-server.mjs"),
  faulty: nodeServer("faulty-server.mjs"),
  files: { command: process.execPath, args: NPM_404 },
  off: { ...nodeServer("gate-server.mjs"), disabled: true },
};

function summaryOf(stderr: string): string {
  return SUMMARY.exec(stderr)?.[0] ?? "";
}

describe("the startup summary", () => {
  let running: RunningMcpx | undefined;
  let host: RawStdioHost | undefined;
  afterEach(async () => {
    await running?.close();
    await host?.close();
    running = host = undefined;
  });

  it("over stdio: which are up with their tool counts, which are down and why", async () => {
    host = new RawStdioHost(writeConfig({ mcpServers: servers }));
    await host.running.waitForLog(SUMMARY);
    const summary = summaryOf(host.running.stderr());
    expect(summary).toMatch(/^mcpx: 2 of 3 servers up: gate \(\d+ tools?\), faulty \(5 tools\); down: files \(.*exited with code 1: npm error 404 Not Found/);
    expect(summary).toContain("; disabled: off");
    expect(summary).toContain("mcpx servers shows more");
  });

  it("waits for a server that is mid-restart when the others are up: down with why, never `still starting`", async () => {
    host = new RawStdioHost(startupRaceConfig());
    await host.running.waitForLog(SUMMARY);
    const summary = summaryOf(host.running.stderr());
    expect(summary).not.toContain("still starting");
    expect(summary).toMatch(/^mcpx: 1 of 2 servers up: slow \(\d+ tools?\); down: broken \(.*exited with code 1: npm error 404 Not Found/);
  });

  it("over HTTP, after the lines that say where it serves", async () => {
    running = await startMcpxHttp(writeConfig({ mcpServers: { gate: servers.gate } }));
    await running.waitForLog(SUMMARY);
    const log = running.stderr();
    expect(summaryOf(log)).toMatch(/^mcpx: 1 of 1 server up: gate \(\d+ tools?\)$/);
    expect(log.indexOf("serving MCP at")).toBeLessThan(log.indexOf("server up"));
  });

  it("a port in use says so and suggests --port", async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      const config = writeConfig({ mcpServers: {} });
      const run = await runMcpx(["serve", "--http", "--port", String(port), "--config", config.file], config);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`127.0.0.1:${port}: it is already in use`);
      expect(run.stderr).toContain("--port");
      expect(run.stderr).not.toMatch(/^\s+at /m);
    } finally {
      taken.close();
    }
  });
});

/**
 * One teardown contract: ending a host session always stops what belongs to it, whatever fails
 * on the way. A host subscribed to a resource on a `per-host` server ends its session: its own
 * upstream process stops with it (it must not outlive the session), and nothing is left
 * rejected or unhandled. Every long-lived object's close() is idempotent and never throws.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { Broker } from "../../src/broker/broker.js";
import { SqliteStore } from "../../src/broker/sqlite/sqlite-store.js";
import { configFromObject } from "../../src/config/load.js";
import { DEFAULTS_FILE } from "../../src/config/validate.js";
import { Gateway } from "../../src/host/gateway.js";
import { HttpHost } from "../../src/host/http-host.js";
import { silentLogger } from "../../src/util/log.js";
import { nodeServer, startMcpxHttp, writeConfig, type RunningMcpx } from "../helpers/mcpx.js";
import { RawHttpHost } from "../helpers/raw-http.js";
import { isAlive } from "../helpers/upstreams.js";
import { childPids } from "../broker-e2e/support.js";

let mcpx: RunningMcpx & { url: URL };

beforeAll(async () => {
  mcpx = await startMcpxHttp(writeConfig({ mcpServers: { changing: nodeServer("changing-server.mjs", [], { sharing: "per-host" }) } }));
});
afterAll(async () => mcpx?.close());

async function until(check: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

it("a session subscribed on a per-host server ends with its own upstream process stopped", async () => {
  const parent = mcpx.child.pid!;
  await mcpx.waitForLog(/upstream ready/);
  const shared = childPids(parent);
  const host = new RawHttpHost(mcpx.url);
  await host.initialize();
  expect((await host.request(1, "resources/subscribe", { uri: "memo://a" })).result).toEqual({});
  const own = childPids(parent).filter((pid) => !shared.includes(pid));
  expect(own).toHaveLength(1);

  expect((await host.delete()).status).toBe(200);
  await until(() => !isAlive(own[0]!), "the host's own upstream process to stop");
  expect(shared.every(isAlive)).toBe(true);
  expect(mcpx.stderr()).not.toMatch(/unhandled|HTTP handler failed/i);
  host.close();
});

it("every long-lived object's close is idempotent and never throws, in any order", async () => {
  const store = SqliteStore.open(mkdtempSync(join(tmpdir(), "mcpx-teardown-")));
  const broker = new Broker(store, silentLogger);
  await broker.start();
  const gateway = new Gateway(configFromObject({ mcpServers: { changing: nodeServer("changing-server.mjs") } }, DEFAULTS_FILE, {}), silentLogger, { broker });
  await gateway.start();
  const http = new HttpHost(gateway, { host: "127.0.0.1", port: 0, allowedOrigins: [], allowedHosts: [] });
  await http.listen();
  // The store goes first, as a careless shutdown might do it: nothing after it may throw.
  await store.close();
  await store.close();
  await broker.stop();
  await broker.stop();
  await http.close();
  await http.close();
  await gateway.stop();
  await gateway.stop();
  expect(gateway.upstreams.every((upstream) => upstream.state === "stopped")).toBe(true);
});

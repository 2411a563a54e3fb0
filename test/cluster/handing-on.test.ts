/**
 * Two instances in one process, each with its own gateway and upstream, and hosts whose
 * requests alternate between them as a round-robin balancer would send them: an SDK 1.x
 * host's legacy session lives on the instance it initialized on, and every later request
 * that reaches the other one is handed on to it (calls, the GET stream, DELETE); a 2026-07-28
 * host's retry reaching the other instance continues the call the first one holds. When the
 * holder is gone, the host gets what it can act on (404, "call again"), never a hang; and a hop
 * nobody signed is refused.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttp } from "@modelcontextprotocol/client";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as LegacyHttp } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Broker } from "../../src/broker/broker.js";
import { SqliteStore } from "../../src/broker/sqlite/sqlite-store.js";
import { HOP_HEADER, signHop } from "../../src/cluster/hop.js";
import { ClusterRouting } from "../../src/cluster/routing.js";
import { configFromObject } from "../../src/config/load.js";
import { DEFAULTS_FILE } from "../../src/config/validate.js";
import { Gateway } from "../../src/host/gateway.js";
import { HttpHost } from "../../src/host/http-host.js";
import { silentLogger } from "../../src/util/log.js";
import { nodeServer } from "../helpers/mcpx.js";
import { post } from "../helpers/raw-http.js";

const SECRET = "the-test-cluster-secret-0123456789abcdef";
const V = "2026-07-28";

interface Instance {
  name: string;
  gateway: Gateway;
  http: HttpHost;
  url: URL;
  /** Requests this instance's HTTP host received (its own, and those handed on to it). */
  seen: number;
}

const instances = new Map<string, Instance>();
/** The shared store cannot be reached: the directory throws. */
let storeAway = false;
const stores = new Map<string, () => Promise<void>>();
const closers: Array<() => Promise<unknown>> = [];
const savedStateDir = process.env.MCPX_STATE_DIR;

async function start(name: string): Promise<Instance> {
  const config = configFromObject({ mcpServers: { asking: nodeServer("asking-server.mjs", ["--stdio"]) } }, DEFAULTS_FILE, {});
  const directory = {
    addressOf: async (instance: string) => {
      if (storeAway) throw new Error("the store is away");
      return instances.get(instance)?.url;
    },
  };
  // Questions reach the calling host through the broker, as in `mcpx serve`; each instance has its own, on one store.
  const store = SqliteStore.open(process.env.MCPX_STATE_DIR!);
  const broker = new Broker(store, silentLogger);
  await broker.start();
  const gateway = new Gateway(config, silentLogger, { broker, cluster: new ClusterRouting(name, SECRET, directory) });
  await gateway.start();
  stores.set(name, async () => {
    await broker.stop();
    await store.close();
  });
  const http = new HttpHost(gateway, { host: "127.0.0.1", port: 0, allowedOrigins: [], allowedHosts: [] });
  const mcp = await http.listen();
  const instance: Instance = { name, gateway, http, url: new URL(mcp.origin), seen: 0 };
  instances.set(name, instance);
  return instance;
}

async function stop(instance: Instance): Promise<void> {
  instances.delete(instance.name);
  await instance.http.close();
  await instance.gateway.stop();
  await stores.get(instance.name)?.();
}

/** A fetch that sends each request to the next instance in turn, as a balancer with no stickiness does. */
function roundRobin(order: Instance[]): typeof fetch {
  let next = 0;
  return (input, init) => {
    const target = order[next++ % order.length]!;
    target.seen++;
    const url = new URL(String(input instanceof Request ? input.url : input));
    return fetch(new URL(url.pathname + url.search, target.url), init);
  };
}

let a: Instance;
let b: Instance;

beforeAll(async () => {
  process.env.MCPX_STATE_DIR = mkdtempSync(join(tmpdir(), "mcpx-cluster-"));
  [a, b] = await Promise.all([start("a"), start("b")]);
});

afterEach(async () => {
  for (const close of closers.splice(0)) await close().catch(() => {});
});

afterAll(async () => {
  for (const instance of [...instances.values()]) await stop(instance);
  process.env.MCPX_STATE_DIR = savedStateDir;
});

const FORM = { type: "object", properties: { name: { type: "string" } }, required: ["name"] };
const textOf = (result: unknown): string => (result as { content: Array<{ text?: string }> }).content.map((block) => block.text ?? "").join("");

describe("a legacy session on another instance", () => {
  it("is served wherever its requests land: calls, a question on the GET stream or the POST, and DELETE", async () => {
    const client = new LegacyClient({ name: "legacy-host", version: "1.0.0" }, { capabilities: { elicitation: {} } });
    client.setRequestHandler((await import("@modelcontextprotocol/sdk/types.js")).ElicitRequestSchema, async () => ({
      action: "accept",
      content: { name: "octocat" },
    }));
    const transport = new LegacyHttp(new URL("/mcp", a.url), { fetch: roundRobin([a, b]) });
    await client.connect(transport);
    // initialize went to a, so the session is a's; its id says so.
    expect(transport.sessionId).toMatch(/^a\./);
    const before = { a: a.seen, b: b.seen };
    const tools = await client.listTools();
    expect(tools.tools.map((tool) => tool.name)).toContain("asking__ask_form");
    const result = await client.callTool({ name: "asking__ask_form", arguments: { message: "Who are you?", schema: FORM } });
    expect(JSON.parse(textOf(result))).toEqual({ action: "accept", content: { name: "octocat" } });
    // Both instances took requests of this session.
    expect(a.seen).toBeGreaterThan(before.a);
    expect(b.seen).toBeGreaterThan(before.b);
    expect(a.http.sessionCount).toBe(1);
    expect(b.http.sessionCount).toBe(0);
    await transport.terminateSession();
    expect(a.http.sessionCount).toBe(0);
    await client.close();
  });

  it("is 'not found' when the instance that held it is gone, so the host starts a new one", async () => {
    const c = await start("c");
    const opened = await post(new URL("/mcp", c.url), {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    });
    const session = opened.headers.get("mcp-session-id")!;
    expect(session).toMatch(/^c\./);
    await stop(c);
    const reply = await post(new URL("/mcp", b.url), { jsonrpc: "2.0", id: 2, method: "tools/list" }, { "mcp-session-id": session });
    expect(reply.status).toBe(404);
    expect(reply.body).toContain("the mcpx instance that held it is gone; initialize a new one");
  });
});

describe("a 2026-07-28 host's retry on another instance", () => {
  it("continues the upstream call the first instance holds", async () => {
    const client = new ModernClient(
      { name: "modern-host", version: "1.0.0" },
      { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: "auto" } },
    );
    client.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: { name: "hubot" } }));
    await client.connect(new ModernHttp(new URL("/mcp", a.url), { fetch: roundRobin([a, b]) }));
    closers.push(() => client.close());
    const result = await client.callTool({ name: "asking__ask_form", arguments: { message: "Who?", schema: FORM } });
    expect(JSON.parse(textOf(result))).toEqual({ action: "accept", content: { name: "hubot" } });
  });

  it("is told to call again when the instance that held the call is gone", async () => {
    const c = await start("c");
    const headers = { "mcp-protocol-version": V, "mcp-method": "tools/call", "mcp-name": "asking__ask_form" };
    const params = {
      _meta: { "io.modelcontextprotocol/protocolVersion": V, "io.modelcontextprotocol/clientCapabilities": { elicitation: {} } },
      name: "asking__ask_form",
      arguments: { message: "Who?", schema: FORM },
    };
    const first = (await post(new URL("/mcp", c.url), { jsonrpc: "2.0", id: 1, method: "tools/call", params }, headers)).messages[0] as {
      result: { resultType: string; requestState: string; inputRequests: Record<string, unknown> };
    };
    expect(first.result.resultType).toBe("input_required");
    await stop(c);
    const [key] = Object.keys(first.result.inputRequests);
    const retry = { ...params, requestState: first.result.requestState, inputResponses: { [key!]: { action: "accept", content: { name: "x" } } } };
    const started = Date.now();
    const reply = await post(new URL("/mcp", b.url), { jsonrpc: "2.0", id: 2, method: "tools/call", params: retry }, headers);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(reply.messages[0]).toMatchObject({
      id: 2,
      error: { code: -32602, message: expect.stringContaining("the mcpx instance that held it is gone; call again") },
    });
  });
});

describe("a store that is away", () => {
  it("hands on to an address looked up before, however long ago; an instance never looked up gets 503, to retry", async () => {
    const opened = await post(new URL("/mcp", a.url), {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    });
    const session = opened.headers.get("mcp-session-id")!;
    const list = { jsonrpc: "2.0", id: 2, method: "tools/list" };
    const headers = { "mcp-session-id": session, "mcp-protocol-version": "2025-06-18" };
    expect((await post(new URL("/mcp", b.url), list, headers)).status).toBe(200); // b looks a up
    const c = await start("c");
    try {
      const held = await post(new URL("/mcp", c.url), {
        jsonrpc: "2.0",
        id: 3,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
      });
      const onC = held.headers.get("mcp-session-id")!;
      storeAway = true;
      await new Promise((resolve) => setTimeout(resolve, 2_100)); // past the time a looked-up address is kept
      expect((await post(new URL("/mcp", b.url), list, headers)).status).toBe(200);
      const refused = await post(new URL("/mcp", b.url), list, { ...headers, "mcp-session-id": onC });
      expect(refused.status).toBe(503);
      expect(refused.headers.get("retry-after")).toBe("2");
      expect(refused.body).toContain("mcpx cannot reach its shared store to find the instance that holds");
    } finally {
      storeAway = false;
      await stop(c);
    }
  });
});

describe("hops", () => {
  it("a hop nobody signed with the cluster's secret is refused, and so is one to another instance", async () => {
    const body = { jsonrpc: "2.0", id: 1, method: "ping" };
    const forged = await post(new URL("/mcp", b.url), body, {
      [HOP_HEADER]: signHop("not-the-secret-at-all-0123456789abcdef", "a", "b", { method: "POST", path: "/mcp" }),
    });
    expect(forged.status).toBe(403);
    expect(forged.body).toContain("cluster hop failed verification");
    const misdirected = await post(new URL("/mcp", b.url), body, { [HOP_HEADER]: signHop(SECRET, "a", "c", { method: "POST", path: "/mcp" }) });
    expect(misdirected.status).toBe(403);
  });
});

/**
 * One `mcpx serve --http`, two eras at once: a 2026-07-28 host (the 2.x SDK client with
 * `versionNegotiation: {mode: "auto"}`, no session) and a 2025-11-25 host (the 1.x SDK client,
 * a session) list and call the same tools side by side; the modern host discovers, listens
 * for list changes, and answers a legacy upstream's mid-call elicitation by MRTR retries.
 * Every frame mcpx sends is validated against the schema of the host's revision.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttp } from "@modelcontextprotocol/client";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as LegacyHttp } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { nodeServer, startMcpxHttp, writeConfig, type RunningMcpx } from "../helpers/mcpx.js";
import { post } from "../helpers/raw-http.js";
import { expectValidToClient } from "../helpers/spec-validator.js";
import { recording, type Received } from "../helpers/recording-transport.js";

let mcpx: RunningMcpx & { url: URL };
const modernFrames: Received[] = [];
const legacyFrames: Received[] = [];
const closers: Array<() => Promise<void>> = [];

beforeAll(async () => {
  const config = writeConfig({
    mcpServers: {
      changing: nodeServer("changing-server.mjs"),
      asking: nodeServer("asking-server.mjs", ["--stdio"]),
      modern: nodeServer("modern-server.mjs", ["--stdio", "--modern-only"]),
    },
  });
  mcpx = await startMcpxHttp(config);
});

afterEach(async () => {
  for (const close of closers.splice(0)) await close().catch(() => {});
  for (const { frame, requestMethod } of modernFrames.splice(0)) expectValidToClient("2026-07-28", frame, requestMethod);
  for (const { frame, requestMethod } of legacyFrames.splice(0)) expectValidToClient("2025-11-25", frame, requestMethod);
});

afterAll(async () => {
  await mcpx?.close();
});

async function modernHost(capabilities: Record<string, unknown> = {}): Promise<ModernClient> {
  const client = new ModernClient({ name: "modern-host", version: "1.0.0" }, { capabilities, versionNegotiation: { mode: "auto" } });
  await client.connect(recording(new ModernHttp(mcpx.url), modernFrames));
  closers.push(() => client.close());
  return client;
}

async function legacyHost(): Promise<LegacyClient> {
  const client = new LegacyClient({ name: "legacy-host", version: "1.0.0" }, { capabilities: {} });
  await client.connect(recording(new LegacyHttp(mcpx.url), legacyFrames));
  closers.push(() => client.close());
  return client;
}

function textOf(result: unknown): string {
  const content = (result as { content: Array<{ type: string; text?: string }> }).content;
  return content.map((block) => block.text ?? "").join("");
}

describe("mcpx serve --http: a 2026-07-28 host beside a 2025-11-25 host", () => {
  it("both list and call the same tools at the same time, each in its own era", async () => {
    const [modern, legacy] = await Promise.all([modernHost(), legacyHost()]);
    expect(modern.getProtocolEra()).toBe("modern");
    const [modernTools, legacyTools] = await Promise.all([modern.listTools(), legacy.listTools()]);
    expect(modernTools.tools.map((tool) => tool.name)).toEqual(legacyTools.tools.map((tool) => tool.name));
    expect(modernTools.tools.map((tool) => tool.name)).toContain("changing__subscriptions");
    const [a, b] = await Promise.all([
      modern.callTool({ name: "changing__subscriptions", arguments: {} }),
      legacy.callTool({ name: "changing__subscriptions", arguments: {} }),
    ]);
    expect(textOf(a)).toBe(textOf(b));
    // The modern host's results carry resultType; the legacy one's do not.
    const modernCall = modernFrames.find((received) => received.requestMethod === "tools/call");
    expect((modernCall!.frame.result as { resultType?: string }).resultType).toBe("complete");
    const legacyCall = legacyFrames.find((received) => received.requestMethod === "tools/call");
    expect(legacyCall?.frame.result).not.toHaveProperty("resultType");
  });
});

const V = "2026-07-28";
const envelope = (capabilities: Record<string, unknown> = {}) => ({
  "io.modelcontextprotocol/protocolVersion": V,
  "io.modelcontextprotocol/clientCapabilities": capabilities,
  "io.modelcontextprotocol/clientInfo": { name: "raw", version: "1" },
});

/** A raw modern request, with the headers 2026-07-28 requires unless `headers` overrides them. */
async function modernPost(method: string, params: Record<string, unknown>, headers: Record<string, string> = {}, id: number | string = 1) {
  const name = typeof params.name === "string" ? params.name : typeof params.uri === "string" ? params.uri : undefined;
  const all: Record<string, string> = { "mcp-protocol-version": V, "mcp-method": method, ...(name ? { "mcp-name": name } : {}), ...headers };
  for (const [key, value] of Object.entries(all)) if (value === "") delete all[key];
  const reply = await post(mcpx.url, { jsonrpc: "2.0", id, method, params: { _meta: envelope(), ...params } }, all);
  for (const frame of reply.messages) expectValidToClient(V, frame, method);
  return reply;
}

describe("2026-07-28 requests on /mcp, raw", () => {
  it("server/discover answers the versions, capabilities and server info, and mints no session", async () => {
    const reply = await modernPost("server/discover", {});
    expect(reply.status).toBe(200);
    expect(reply.headers.get("mcp-session-id")).toBeNull();
    const result = reply.messages[0]?.result as Record<string, unknown>;
    expect(result.supportedVersions).toEqual(expect.arrayContaining(["2026-07-28", "2025-11-25", "2025-06-18"]));
    expect(result.capabilities).toMatchObject({ tools: { listChanged: true } });
    expect(result._meta).toMatchObject({ "io.modelcontextprotocol/serverInfo": { name: "mcpx" } });
  });

  it("refuses header and envelope faults with the 2026 codes and statuses", async () => {
    const cases: Array<[string, () => ReturnType<typeof modernPost>, number, number]> = [
      ["no MCP-Protocol-Version", () => modernPost("tools/list", {}, { "mcp-protocol-version": "" }), 400, -32020],
      [
        "header and body differ",
        () => modernPost("tools/list", { _meta: { ...envelope(), "io.modelcontextprotocol/protocolVersion": "2099-01-01" } }),
        400,
        -32020,
      ],
      ["no Mcp-Method", () => modernPost("tools/list", {}, { "mcp-method": "" }), 400, -32020],
      ["Mcp-Method differs", () => modernPost("tools/list", {}, { "mcp-method": "prompts/list" }), 400, -32020],
      [
        "Mcp-Name differs",
        () => modernPost("tools/call", { name: "changing__subscriptions", arguments: {} }, { "mcp-name": "changing__add_tool" }),
        400,
        -32020,
      ],
      ["no clientCapabilities", () => modernPost("tools/list", { _meta: { "io.modelcontextprotocol/protocolVersion": V } }), 400, -32602],
    ];
    for (const [what, send, status, code] of cases) {
      const reply = await send();
      expect({ what, status: reply.status, code: (reply.messages[0]?.error as { code?: number })?.code }).toEqual({ what, status, code });
    }
  });

  it("an unsupported version gets -32022 with the supported list", async () => {
    const reply = await post(
      mcpx.url,
      { jsonrpc: "2.0", id: 1, method: "tools/list", params: { _meta: { ...envelope(), "io.modelcontextprotocol/protocolVersion": "2099-01-01" } } },
      { "mcp-protocol-version": "2099-01-01", "mcp-method": "tools/list" },
    );
    expect(reply.status).toBe(400);
    const error = reply.messages[0]?.error as { code: number; data: { supported: string[]; requested: string } };
    expect(error.code).toBe(-32022);
    expect(error.data).toEqual({ supported: ["2026-07-28"], requested: "2099-01-01" });
    expectValidToClient(V, reply.messages[0]);
  });

  it("Mcp-Param headers must mirror the x-mcp-header arguments (-32020, 400), plain or in a sentinel that decodes", async () => {
    const call = { name: "modern__forecast", arguments: { region: "Nord West" } };
    const sentinel = `=?base64?${Buffer.from("Nord West").toString("base64")}?=`;
    for (const region of ["Nord West", sentinel]) {
      const reply = await modernPost("tools/call", call, { "mcp-param-region": region });
      expect({ region, status: reply.status, text: textOf(reply.messages[0]?.result) }).toEqual({ region, status: 200, text: "Sunny in Nord West" });
    }
    for (const region of ["", "Sued", "=?base64?Tm9yZCBXZXN?=", "=?base64?Tm9y!!ZCBXZXN0?="]) {
      const reply = await modernPost("tools/call", call, { "mcp-param-region": region });
      expect({ region, status: reply.status, code: (reply.messages[0]?.error as { code?: number })?.code }).toEqual({ region, status: 400, code: -32020 });
    }
  });

  it("a Mcp-Name in the base64 sentinel form is understood", async () => {
    const name = Buffer.from("changing__subscriptions").toString("base64");
    const reply = await modernPost("tools/call", { name: "changing__subscriptions", arguments: {} }, { "mcp-name": `=?base64?${name}?=` });
    expect(reply.status).toBe(200);
    expect(reply.messages[0]?.result).toMatchObject({ resultType: "complete" });
  });

  it("methods 2026-07-28 removed are unknown methods (404, -32601)", async () => {
    // An initialize that carries the modern envelope is a modern request: it opens no session.
    for (const method of ["initialize", "ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe"]) {
      const reply = await modernPost(method, method === "logging/setLevel" ? { level: "info" } : method.startsWith("resources/") ? { uri: "memo://a" } : {});
      expect(reply.headers.get("mcp-session-id")).toBeNull();
      expect({ method, status: reply.status, code: (reply.messages[0]?.error as { code?: number })?.code }).toEqual({ method, status: 404, code: -32601 });
    }
  });

  it("a resource nobody has is -32602 with its uri (2026-07-28 retired -32002)", async () => {
    const uri = "memo://nobody-has-this";
    const reply = await modernPost("resources/read", { uri }, { "mcp-name": uri });
    expect(reply.messages[0]?.error).toMatchObject({ code: -32602, data: { uri } });
    expectValidToClient(V, reply.messages[0], "resources/read");
  });

  it("a legacy request without a session is still told to initialize (400)", async () => {
    const reply = await post(mcpx.url, { jsonrpc: "2.0", id: 1, method: "tools/list" }, { "mcp-protocol-version": "2025-11-25" });
    expect(reply.status).toBe(400);
    expect(JSON.stringify(reply.messages[0])).toContain("Mcp-Session-Id");
  });
});

describe("subscriptions/listen", () => {
  it("a modern host listening for tool list changes hears one when an upstream's list changes", async () => {
    const modern = await modernHost();
    let heard = 0;
    const changed = new Promise<void>((resolve) => {
      modern.setNotificationHandler("notifications/tools/list_changed", () => {
        heard++;
        resolve();
      });
    });
    const subscription = await modern.listen({ toolsListChanged: true });
    expect(subscription.honoredFilter).toEqual({ toolsListChanged: true });
    await modern.callTool({ name: "changing__add_tool", arguments: {} });
    await within(changed, 10_000, "no tools/list_changed on the listen stream");
    expect(heard).toBeGreaterThan(0);
    await subscription.close();
    const listen = modernFrames.filter((received) => {
      const meta = (received.frame.params as { _meta?: Record<string, unknown> } | undefined)?._meta;
      return meta?.["io.modelcontextprotocol/subscriptionId"] !== undefined;
    });
    expect(listen.map((received) => received.frame.method)).toEqual(
      expect.arrayContaining(["notifications/subscriptions/acknowledged", "notifications/tools/list_changed"]),
    );
  });
});

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([promise, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(what)), ms))]);
}

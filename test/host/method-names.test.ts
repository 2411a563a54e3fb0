/**
 * JSON-RPC method names that are also names on every JavaScript object (`toString`,
 * `__proto__`, `constructor`, …) are unknown methods like any other, whichever side sends them:
 * a host over stdio or HTTP gets -32601 in a frame valid for its revision, and an upstream
 * sending them to mcpx as requests gets -32601 and as notifications is ignored.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeServer, RawStdioHost, startMcpxHttp, writeConfig, type RunningMcpx, type TempConfig } from "../helpers/mcpx.js";
import { RawHttpHost } from "../helpers/raw-http.js";
import { expectValidToClient } from "../helpers/spec-validator.js";
import { firstText } from "../helpers/upstreams.js";

const NAMES = [
  "toString",
  "__proto__",
  "constructor",
  "hasOwnProperty",
  "valueOf",
  "isPrototypeOf",
  "propertyIsEnumerable",
  "toLocaleString",
  "__defineGetter__",
  "__lookupGetter__",
];

let config: TempConfig;

beforeAll(() => {
  config = writeConfig({ mcpServers: { up: nodeServer("restarting-server.mjs") } });
});

describe("object-prototype method names from a host over stdio", () => {
  let host: RawStdioHost;
  beforeAll(async () => {
    host = new RawStdioHost(config);
    await host.initialize("2025-11-25");
  });
  afterAll(async () => host?.close());

  it.each(NAMES)("request %s: -32601, a valid frame", async (method) => {
    const answer = await host.request(`req-${method}`, method, {});
    expect((answer.error as { code: number }).code).toBe(-32601);
    expectValidToClient("2025-11-25", answer);
  });

  it("the same names as notifications are ignored, and the host is still served", async () => {
    for (const method of NAMES) host.send({ jsonrpc: "2.0", method, params: {} });
    expect((await host.request("after", "ping")).result).toEqual({});
    expect(host.running.stderr()).not.toMatch(/TypeError|"level":"error"/);
  });
});

describe("object-prototype method names from a host over HTTP", () => {
  let mcpx: RunningMcpx & { url: URL };
  let host: RawHttpHost;
  beforeAll(async () => {
    mcpx = await startMcpxHttp(config);
    host = new RawHttpHost(mcpx.url);
    await host.initialize("2025-11-25");
  });
  afterAll(async () => {
    host?.close();
    await mcpx?.close();
  });

  it.each(NAMES)("request %s: -32601, a valid frame", async (method) => {
    const answer = await host.request(`req-${method}`, method, {});
    expect(answer.reply.status).toBe(200);
    expect((answer.error as { code: number }).code).toBe(-32601);
    expectValidToClient("2025-11-25", answer.reply.messages[0]);
  });

  it("the same names as notifications are accepted and ignored", async () => {
    for (const method of NAMES) expect((await host.notify(method, {})).status).toBe(202);
    expect((await host.request("after", "ping")).result).toEqual({});
  });
});

describe("object-prototype method names from an upstream", () => {
  let host: RawStdioHost;
  beforeAll(async () => {
    host = new RawStdioHost(config);
    await host.initialize("2025-11-25");
  });
  afterAll(async () => host?.close());

  it.each(NAMES)("request %s to mcpx: -32601", async (method) => {
    const answer = await host.request(`ask-${method}`, "tools/call", { name: "up__ask", arguments: { method } });
    expect(JSON.parse(firstText(answer))).toMatchObject({ code: -32601 });
  });

  it("the same names as notifications to mcpx are ignored, and the upstream is still served", async () => {
    for (const method of NAMES) {
      const told = await host.request(`tell-${method}`, "tools/call", { name: "up__tell", arguments: { method } });
      expect(firstText(told)).toBe("told");
    }
    const hello = await host.request("hello", "tools/call", { name: "up__hello", arguments: {} });
    expect(firstText(hello)).toBe("hello from hello");
    expect(host.running.stderr()).not.toMatch(/TypeError|"level":"error"|could not refresh/);
    expect(host.running.child.exitCode).toBeNull();
  });
});

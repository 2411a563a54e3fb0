/**
 * What mcpx does as the client of a 2026-07-28 HTTP upstream where the spec gives the client a
 * duty: a -32022 on `server/discover` that names a revision mcpx speaks is answered by asking
 * again in it (once); a tool whose input schema declares `x-mcp-header` wrongly is left out of
 * the catalogue and never called (SEP-2243), while the server's other tools stay.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { writeConfig } from "../helpers/mcpx.js";
import { parseServers, runMcpx } from "../helpers/upstreams.js";

interface Received {
  method: string;
  version: unknown;
  params: Record<string, unknown>;
}

const VERSION = "2026-07-28";
const schema = (properties: object): object => ({ type: "object", properties });

const TOOLS = [
  { name: "good", inputSchema: schema({ region: { type: "string", "x-mcp-header": "Region" } }) },
  { name: "empty_name", inputSchema: schema({ value: { type: "string", "x-mcp-header": "" } }) },
  { name: "on_number", inputSchema: schema({ score: { type: "number", "x-mcp-header": "Score" } }) },
  { name: "twice", inputSchema: schema({ a: { type: "string", "x-mcp-header": "Zone" }, b: { type: "string", "x-mcp-header": "zone" } }) },
];

/** A scripted 2026-07-28 server on 127.0.0.1 that records every request; `refuseFirst` answers the first with 400 -32022. */
async function modernServer(options: { refuseFirst?: boolean } = {}): Promise<{ url: string; received: Received[]; server: Server }> {
  const received: Received[] = [];
  const server = createServer((request: IncomingMessage, response) => {
    let body = "";
    request.setEncoding("utf8").on("data", (chunk: string) => {
      body += chunk;
    });
    request.on("end", () => {
      const message = JSON.parse(body) as { id: number; method: string; params?: Record<string, unknown> };
      const params = message.params ?? {};
      const meta = (params._meta ?? {}) as Record<string, unknown>;
      received.push({ method: message.method, version: meta["io.modelcontextprotocol/protocolVersion"], params });
      const reply = (status: number, payload: object): void => {
        response.writeHead(status, { "content-type": "application/json" });
        response.end(JSON.stringify({ jsonrpc: "2.0", id: message.id, ...payload }));
      };
      if (options.refuseFirst && received.length === 1) {
        reply(400, { error: { code: -32022, message: "Unsupported protocol version", data: { supported: [VERSION], requested: "x" } } });
        return;
      }
      const complete = { resultType: "complete", ttlMs: 0, cacheScope: "private" };
      if (message.method === "server/discover") {
        reply(200, {
          result: {
            ...complete,
            supportedVersions: [VERSION],
            capabilities: { tools: {} },
            _meta: { "io.modelcontextprotocol/serverInfo": { name: "scripted", version: "1" } },
          },
        });
      } else if (message.method === "tools/list") {
        reply(200, { result: { ...complete, tools: TOOLS } });
      } else if (message.method === "tools/call") {
        reply(200, { result: { resultType: "complete", content: [{ type: "text", text: `called ${String(params.name)}` }] } });
      } else {
        reply(404, { error: { code: -32601, message: "Method not found" } });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, received, server };
}

let running: Server | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => (running ? running.close(() => resolve()) : resolve()));
  running = undefined;
});

describe("a 2026-07-28 HTTP upstream", () => {
  it("that refuses the first server/discover with -32022 naming 2026-07-28 is asked again in it, and is ready", async () => {
    const upstream = await modernServer({ refuseFirst: true });
    running = upstream.server;
    const config = writeConfig({ mcpServers: { modern: { url: upstream.url } } });
    const run = await runMcpx(["servers", "--json", "--config", config.file], config);
    expect(parseServers(run.stdout).get("modern"), run.stderr).toMatchObject({ state: "ready", revision: VERSION });
    expect(upstream.received.slice(0, 2).map(({ method, version }) => [method, version])).toEqual([
      ["server/discover", VERSION],
      ["server/discover", VERSION],
    ]);
  });

  it("keeps its well-declared tools and leaves out those that declare x-mcp-header wrongly; a call naming one never reaches it", async () => {
    const upstream = await modernServer();
    running = upstream.server;
    const config = writeConfig({ mcpServers: { modern: { url: upstream.url } } });
    const listed = await runMcpx(["tools", "modern", "--json", "--config", config.file], config);
    expect(listed.code, listed.stderr).toBe(0);
    const names = (JSON.parse(listed.stdout) as Array<{ name: string }>).map((tool) => tool.name);
    expect(names).toEqual(["modern__good"]);

    const good = await runMcpx(["call", "modern.good", '{"region":"eu"}', "--config", config.file], config);
    expect(good.code, good.stderr).toBe(0);
    for (const tool of ["empty_name", "on_number", "twice"]) {
      const refused = await runMcpx(["call", `modern.${tool}`, "{}", "--config", config.file], config);
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toContain("declares x-mcp-header wrongly");
    }
    expect(upstream.received.filter((request) => request.method === "tools/call").map((request) => request.params.name)).toEqual(["good"]);
  });
});

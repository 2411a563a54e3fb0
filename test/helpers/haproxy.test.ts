/**
 * The HAProxy helper the cluster tests stand on: requests through it alternate between the
 * backends (round robin, no stickiness, even on one kept-alive client connection), and once a
 * backend is gone its requests go to the one left.
 */
import { Agent, createServer, get, type Server } from "node:http";
import type { Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { Haproxy, type HaproxyOptions, haproxyInstalled } from "./haproxy.js";

/** A tiny HTTP server that answers its own name, and gives a session header to a request without one. */
async function namedServer(name: string): Promise<{ server: Server; port: number }> {
  const server = createServer((request, response) => {
    if (!request.headers["mcp-session-id"]) response.setHeader("Mcp-Session-Id", `${name}-${Math.random()}`);
    response.end(name);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  return { server, port: address.port };
}

describe.skipIf(!haproxyInstalled)("haproxy in front of two backends", () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function setUp(options: HaproxyOptions = {}): Promise<{ proxy: Haproxy; backends: Server[] }> {
    const backends = [await namedServer("a"), await namedServer("b")];
    for (const { server } of backends) cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const proxy = await Haproxy.start(
      backends.map((backend) => backend.port),
      { checkIntervalMs: 100, ...options },
    );
    cleanups.push(() => proxy.stop());
    return { proxy, backends: backends.map((backend) => backend.server) };
  }

  it("sends requests to the backends in turn, even on one kept-alive connection", async () => {
    const { proxy } = await setUp();
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    cleanups.push(async () => agent.destroy());
    const names: string[] = [];
    const sockets = new Set<Socket>();
    for (let i = 0; i < 6; i += 1) {
      names.push(
        await new Promise<string>((resolve, reject) => {
          get(proxy.url, { agent }, (response) => {
            sockets.add(response.socket);
            let body = "";
            response.on("data", (chunk: Buffer) => (body += chunk.toString()));
            response.on("end", () => resolve(body));
          }).on("error", reject);
        }),
      );
    }
    expect(sockets.size).toBe(1);
    expect(new Set(names)).toEqual(new Set(["a", "b"]));
    for (let i = 1; i < names.length; i += 1) expect(names[i], names.join(",")).not.toBe(names[i - 1]);
  });

  it("with stickiness on Mcp-Session-Id, sends a session's requests to the backend that gave it", async () => {
    const { proxy } = await setUp({ stickOnHeader: "Mcp-Session-Id" });
    const sessions: Array<{ id: string; owner: string }> = [];
    for (let i = 0; i < 4; i += 1) {
      const response = await fetch(proxy.url);
      sessions.push({ id: response.headers.get("mcp-session-id")!, owner: await response.text() });
    }
    expect(new Set(sessions.map((session) => session.owner))).toEqual(new Set(["a", "b"]));
    for (const session of sessions) {
      for (let i = 0; i < 3; i += 1) {
        const response = await fetch(proxy.url, { headers: { "Mcp-Session-Id": session.id } });
        expect(await response.text()).toBe(session.owner);
      }
    }
  });

  it("sends every request to the backend left once the other is gone", async () => {
    const { proxy, backends } = await setUp();
    backends[0]!.closeAllConnections();
    await new Promise<void>((resolve) => backends[0]!.close(() => resolve()));
    const names: string[] = [];
    for (let i = 0; i < 4; i += 1) names.push(await (await fetch(proxy.url)).text());
    expect(names).toEqual(["b", "b", "b", "b"]);
  });
});

/**
 * One instance handing a host's request on to another (src/cluster/): the hop's proof, the
 * body and headers carried, an SSE answer streamed through as it is written, a host that hangs
 * up cutting the hop, and an instance that is gone reported before anything is written.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { forward } from "../../src/cluster/forward.js";
import { HOLDER_GONE } from "../../src/cluster/holder-gone.js";
import { HOP_HEADER, PEER_HEADER, signHop, verifyHop } from "../../src/cluster/hop.js";

const SECRET = "a-cluster-secret-of-at-least-32-characters";
const servers: Server[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

async function listen(handler: (request: IncomingMessage, response: ServerResponse) => void): Promise<URL> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
}

/** A front instance "a" that hands every request on to "b" at `target`. */
async function front(target: URL, body?: Buffer): Promise<{ url: URL; outcomes: string[] }> {
  const outcomes: string[] = [];
  const url = await listen((request, response) => {
    void forward(request, response, { instance: "b", address: target }, { self: "a", secret: SECRET, peer: "192.0.2.7" }, body).then((outcome) => {
      outcomes.push(outcome);
      if (outcome === "unreachable") response.writeHead(404).end("gone");
    });
  });
  return { url, outcomes };
}

function send(
  url: URL,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: IncomingMessage["headers"]; text: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(url, { method: options.method ?? "GET", headers: options.headers }, (incoming) => {
      let text = "";
      incoming.setEncoding("utf8").on("data", (chunk: string) => (text += chunk));
      incoming.on("end", () => resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, text }));
    });
    outgoing.on("error", reject);
    outgoing.end(options.body);
  });
}

describe("a hop between instances", () => {
  it("is good only for the instance, method and path it was signed for, and only for a while", () => {
    const now = 1_700_000_000_000;
    const hop = signHop(SECRET, "a", "b", { method: "POST", path: "/mcp" }, now);
    expect(verifyHop(SECRET, "b", hop, { method: "POST", path: "/mcp" }, now + 1_000)).toEqual({ from: "a" });
    expect(verifyHop(SECRET, "c", hop, { method: "POST", path: "/mcp" }, now)).toEqual({ refused: "cluster hop failed verification" });
    expect(verifyHop(SECRET, "b", hop, { method: "DELETE", path: "/mcp" }, now)).toHaveProperty("refused");
    expect(verifyHop(SECRET, "b", hop, { method: "POST", path: "/mcp/other" }, now)).toHaveProperty("refused");
    expect(verifyHop(`${SECRET}!`, "b", hop, { method: "POST", path: "/mcp" }, now)).toHaveProperty("refused");
    expect(verifyHop(SECRET, "b", hop, { method: "POST", path: "/mcp" }, now + 31_000)).toEqual({
      refused: "cluster hop too old (or the clocks differ by more than 30 s)",
    });
    expect(verifyHop(SECRET, "b", `${hop}x`, { method: "POST", path: "/mcp" }, now)).toHaveProperty("refused");
    expect(verifyHop(SECRET, "b", "v1.a.b", { method: "POST", path: "/mcp" }, now)).toEqual({ refused: "malformed cluster hop" });
  });
});

describe("forward", () => {
  it("carries the method, path, headers and body, with the hop's proof and the host's address, and the answer back", async () => {
    const seen: Array<{ method?: string; url?: string; headers: IncomingMessage["headers"]; body: string }> = [];
    const target = await listen((request, response) => {
      let body = "";
      request.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
      request.on("end", () => {
        seen.push({ method: request.method, url: request.url, headers: request.headers, body });
        response.writeHead(201, { "content-type": "application/json", "mcp-session-id": "b.123" }).end('{"ok":true}');
      });
    });
    const { url } = await front(target);
    const answer = await send(new URL("/mcp?x=1", url), {
      method: "POST",
      headers: { authorization: "Bearer host-token", "content-type": "application/json", "mcp-session-id": "b.123", [PEER_HEADER]: "10.9.9.9" },
      body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
    });
    expect(answer).toMatchObject({ status: 201, text: '{"ok":true}' });
    expect(answer.headers["mcp-session-id"]).toBe("b.123");
    const [got] = seen;
    expect(got).toMatchObject({ method: "POST", url: "/mcp?x=1", body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
    expect(got!.headers.authorization).toBe("Bearer host-token");
    // The host cannot choose the address recorded for it: the front instance says what it saw.
    expect(got!.headers[PEER_HEADER]).toBe("192.0.2.7");
    expect(verifyHop(SECRET, "b", String(got!.headers[HOP_HEADER]), { method: "POST", path: "/mcp?x=1" })).toEqual({ from: "a" });
  });

  it("sends a body already read in place of the request's", async () => {
    let received = "";
    const target = await listen((request, response) => {
      request.setEncoding("utf8").on("data", (chunk: string) => (received += chunk));
      request.on("end", () => response.end("ok"));
    });
    const { url } = await front(target, Buffer.from('{"read":"before"}'));
    await send(url, { method: "POST", headers: { "content-type": "application/json" }, body: "" });
    expect(received).toBe('{"read":"before"}');
  });

  it("streams an SSE answer through as it is written", async () => {
    let release!: () => void;
    const second = new Promise<void>((resolve) => (release = resolve));
    const target = await listen((_request, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write("data: first\n\n");
      void second.then(() => response.end("data: second\n\n"));
    });
    const { url } = await front(target);
    const firstEvent = await new Promise<string>((resolve, reject) => {
      httpRequest(url, (incoming) => {
        incoming.setEncoding("utf8").once("data", (chunk: string) => resolve(chunk));
      })
        .on("error", reject)
        .end();
    });
    // The first event arrived while the target still held the stream open.
    expect(firstEvent).toBe("data: first\n\n");
    release();
  });

  it("cuts the hop when the host hangs up", async () => {
    let targetClosed!: () => void;
    const closed = new Promise<void>((resolve) => (targetClosed = resolve));
    const target = await listen((request, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write("data: waiting\n\n");
      request.socket.once("close", targetClosed);
    });
    const { url } = await front(target);
    await new Promise<void>((resolve) => {
      const outgoing = httpRequest(url, (incoming) => {
        incoming.once("data", () => {
          outgoing.destroy();
          resolve();
        });
      });
      outgoing.on("error", () => {});
      outgoing.end();
    });
    await closed;
  });

  it("says an instance that is gone is unreachable, before writing anything", async () => {
    const gone = await listen((_request, response) => response.end());
    const server = servers.pop()!;
    await new Promise((resolve) => server.close(resolve));
    const { url, outcomes } = await front(gone);
    const answer = await send(url);
    expect(answer).toMatchObject({ status: 404, text: "gone" });
    expect(outcomes).toEqual(["unreachable"]);
  });

  it("answers each request with an error on the SSE stream when the other instance dies mid-answer", async () => {
    const target = await listen((_request, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write('event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{}}\n\n', () => response.socket?.destroy());
    });
    const { url } = await front(target);
    const body = JSON.stringify([
      { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "slow" } },
      { jsonrpc: "2.0", method: "notifications/initialized" },
    ]);
    const answer = await send(url, { method: "POST", headers: { "content-type": "application/json" }, body });
    expect(answer.status).toBe(200);
    expect(answer.text).toContain("notifications/progress");
    const events = answer.text
      .split("\n")
      .filter((line) => line.startsWith("data: "))
      .map((line) => JSON.parse(line.slice(6)) as { id?: number });
    expect(events.filter((event) => event.id !== undefined)).toEqual([{ jsonrpc: "2.0", id: 7, error: { code: -32603, message: HOLDER_GONE } }]);
  });
});

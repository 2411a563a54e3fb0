/**
 * SEP-1699 toward hosts: a POST's SSE stream opens with the priming event (an id and empty data)
 * and a `retry` field, as the 2025-11-25 spec recommends for resumability; older revisions do
 * not get it (their clients may read empty data as a broken message). mcpx keeps no events, so a
 * GET resuming with Last-Event-ID is answered 405, which the SDK clients take as nothing to
 * resume. SDK 1.x and 2.x clients still call through it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client as Sdk2Client, StreamableHTTPClientTransport as Sdk2Transport } from "@modelcontextprotocol/client";
import { nodeServer, type RunningMcpx, startMcpxHttp, writeConfig } from "../helpers/mcpx.js";
import { RawHttpHost } from "../helpers/raw-http.js";
import { httpHost } from "../relay/support.js";

/** The SSE events of a body, each as its fields. */
function events(body: string): Array<Record<string, string>> {
  return body
    .split(/\n\n/)
    .filter((block) => block.trim() !== "")
    .map((block) => Object.fromEntries(block.split("\n").map((line) => [line.slice(0, line.indexOf(":")), line.slice(line.indexOf(":") + 1).trimStart()])));
}

describe("mcpx serve --http: priming the SSE stream of a POST", () => {
  let mcpx: RunningMcpx & { url: URL };

  beforeAll(async () => {
    mcpx = await startMcpxHttp(writeConfig({ mcpServers: { changing: nodeServer("changing-server.mjs") } }));
  });
  afterAll(async () => {
    await mcpx?.close();
  });

  it("a 2025-11-25 host's stream opens with an id, a retry and empty data, then the answer; ids differ per stream", async () => {
    const host = new RawHttpHost(mcpx.url);
    await host.initialize("2025-11-25");
    const first = await host.request(2, "tools/list");
    const second = await host.request(3, "tools/list");
    const [priming, answer] = events(first.reply.body);
    expect(priming).toEqual({ id: expect.stringMatching(/\S/), retry: "1000", data: "" });
    expect(JSON.parse(answer?.data ?? "{}")).toMatchObject({ id: 2, result: { tools: expect.any(Array) } });
    expect(events(second.reply.body)[0]?.id).not.toBe(priming?.id);
  });

  it("a 2025-06-18 host's stream has no priming event", async () => {
    const host = new RawHttpHost(mcpx.url);
    await host.initialize("2025-06-18");
    const reply = await host.request(2, "tools/list");
    expect(events(reply.reply.body).map((event) => Object.keys(event).sort())).toEqual([["data", "event"]]);
  });

  it("a GET resuming with Last-Event-ID is 405: there is nothing kept to replay", async () => {
    const host = new RawHttpHost(mcpx.url);
    await host.initialize("2025-11-25");
    const primed = await host.request(2, "tools/list");
    const id = events(primed.reply.body)[0]?.id ?? "";
    const resumed = await fetch(mcpx.url, { headers: { ...host.headers(), accept: "text/event-stream", "last-event-id": id } });
    expect(resumed.status).toBe(405);
    await resumed.body?.cancel();
  });

  it("SDK 1.x and 2.x hosts call through primed streams, answers and errors alike", async () => {
    const sdk1 = await httpHost(mcpx.url);
    const sdk2 = new Sdk2Client({ name: "sdk2-host", version: "1.0.0" });
    await sdk2.connect(new Sdk2Transport(mcpx.url));
    expect(sdk2.getProtocolEra()).toBe("legacy");
    try {
      for (const client of [sdk1.client, sdk2]) {
        expect((await client.listTools()).tools.length).toBeGreaterThan(0);
        await expect(client.callTool({ name: "no_such_tool", arguments: {} })).rejects.toThrow(/unknown tool/);
        expect((await client.listTools()).tools.length).toBeGreaterThan(0);
      }
    } finally {
      await sdk1.close();
      await sdk2.close();
    }
  });
});

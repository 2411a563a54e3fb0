/**
 * A serving gateway in discovery mode builds mcpx__search's index (WordNet: seconds on the 527
 * LiveMCPTool tools) on a worker thread: while it builds, the gateway keeps answering every
 * host promptly; its results are those of an index built synchronously; a catalogue that
 * changes during a build is the one searched. mcpx serve over stdio, an SDK 1.x host, the 70
 * catalogue servers and one upstream whose tools change; every frame mcpx sends is validated.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { discoveryName, type ToolRecord } from "../../src/discovery/records.js";
import { buildIndex } from "../../src/discovery/search-build.js";
import { search, type SearchHit } from "../../src/discovery/search.js";
import { startCatalogueServers, type CatalogueServers } from "../helpers/catalogue-servers.js";
import { nodeServer, RawStdioHost, stdioServeParams, writeConfig, type TempConfig } from "../helpers/mcpx.js";
import { recording, type Received } from "../helpers/recording-transport.js";
import { expectValidToClient } from "../helpers/spec-validator.js";
import { liveMcpTools, TOOL_SEARCH_DATA } from "../helpers/tool-search-data.js";
import { textOf } from "../helpers/upstreams.js";

/**
 * What "promptly" means for a ping or a call while the index builds. A synchronous build stalls
 * them 2–6 s; on the worker the slowest ping measured 60–180 ms on 2 cores at load 9 (median
 * 1 ms): the bound leaves room for a busier machine, and none for a stall.
 */
const PROMPT_MS = 500;

describe.skipIf(!TOOL_SEARCH_DATA)("mcpx__search's index, built off the serving gateway's event loop", () => {
  let catalogues: CatalogueServers;
  let config: TempConfig;
  let client: Client;
  const frames: Received[] = [];

  beforeAll(async () => {
    catalogues = await startCatalogueServers();
    config = writeConfig({ mcpServers: { ...catalogues.entries(), changing: nodeServer("changing-server.mjs") }, expose: "discovery" });
    client = new Client({ name: "searching-host", version: "1.0.0" }, { capabilities: {} });
    await client.connect(recording(new StdioClientTransport({ ...stdioServeParams(config), stderr: "ignore" }), frames));
  }, 60_000);

  afterAll(async () => {
    await client?.close();
    await catalogues?.stop();
    for (const { frame, requestMethod } of frames) expectValidToClient("2025-11-25", frame, requestMethod);
  });

  const call = (name: string, args: object) => client.callTool({ name, arguments: args as Record<string, unknown> });
  const searchFor = async (query: string, limit = 10) => {
    const result = await call("mcpx__search", { query, limit });
    expect(result.isError, textOf(result)).toBeFalsy();
    return JSON.parse(textOf(result)) as SearchHit[];
  };

  /** Until mcpx has read the changed catalogue (the upstream's list_changed), asking mcpx__servers (bounded). */
  const untilListed = async (name: string) => {
    const deadline = Date.now() + 10_000;
    while (!textOf(await call("mcpx__servers", { server: "changing" })).includes(`"${name}"`)) {
      if (Date.now() > deadline) throw new Error(`mcpx did not list ${name} within 10 s`);
    }
  };

  it("answers pings and calls promptly while the first search waits for its index", async () => {
    let searched = false;
    const searching = searchFor("forecast for tomorrow in a town").finally(() => {
      searched = true;
    });
    const pings: number[] = [];
    while (!searched) {
      const start = performance.now();
      await client.ping();
      pings.push(performance.now() - start);
      // Paced, not back to back: a ping storm would compete with the build for the two cores.
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const start = performance.now();
    const called = await call("mcpx__call", { name: "calculator__calculate", arguments: { expression: "1+1" } });
    const callMs = performance.now() - start;
    expect(textOf(called)).toContain("calculate");
    // Before, the first ping waited for the whole build; now many are answered while the search waits.
    expect(Math.max(...pings)).toBeLessThan(PROMPT_MS);
    expect(pings.length).toBeGreaterThan(5);
    expect(callMs).toBeLessThan(PROMPT_MS);
    expect((await searching).length).toBeGreaterThan(0);
  }, 60_000);

  it("finds what an index built synchronously finds, in the same order with the same scores", async () => {
    const tools: ToolRecord[] = [];
    const serverDescriptions: Record<string, string> = {};
    for (const [server, original] of catalogues.original) {
      const own = liveMcpTools().filter((tool) => tool.server === original);
      serverDescriptions[server] = `The ${original} server (${own.length} tools).`;
      for (const tool of own) {
        tools.push({
          server,
          tool: tool.tool,
          name: discoveryName(server, tool.tool),
          description: tool.description,
          inputSchema: tool.inputSchema ?? { type: "object", properties: {} },
        });
      }
    }
    const empty = { type: "object", properties: {} };
    for (const [tool, description, inputSchema] of [
      ["add_tool", "Adds a tool and announces it", empty],
      ["touch", "Announces an update of a resource", { type: "object", properties: { uri: { type: "string" } }, required: ["uri"] }],
      ["subscriptions", "The resource URIs subscribed to", empty],
    ] as const) {
      tools.push({ server: "changing", tool, name: discoveryName("changing", tool), description, inputSchema });
    }
    serverDescriptions.changing = "";
    const index = buildIndex({ tools, serverDescriptions });
    for (const query of ["forecast for tomorrow in a town", "get_weather_by_city", "send an email", "translate text", "train tickets", "subscriptions"]) {
      expect(await searchFor(query), query).toEqual(search(index, query, 10));
    }
  }, 60_000);

  it("searches the catalogue as it is after a change made while its index was building", async () => {
    // The index of the tools as they were is stale now: the next search builds one anew.
    expect(textOf(await call("mcpx__call", { name: "changing__add_tool", arguments: {} }))).toBe("added_1");
    await untilListed("changing__added_1");
    const searching = searchFor("changing__added_2", 3);
    // This change lands while that build runs: the search must not answer from the build it made stale.
    expect(textOf(await call("mcpx__call", { name: "changing__add_tool", arguments: {} }))).toBe("added_2");
    const hits = await searching;
    expect(hits[0]?.name).toBe("changing__added_2");
  }, 60_000);

  it("ends the build with the gateway: a host that hangs up mid-build sees mcpx exit at once", async () => {
    const host = new RawStdioHost(config);
    await host.initialize();
    host.send({ jsonrpc: "2.0", id: "search", method: "tools/call", params: { name: "mcpx__search", arguments: { query: "weather" } } });
    // Answered after the search was dispatched (stdin is read in order): its build is under way.
    await host.request("ping", "ping");
    expect(host.frames.some((frame) => frame.id === "search")).toBe(false);
    const exited = new Promise<number | null>((resolve) => host.running.child.once("exit", (code) => resolve(code)));
    const start = performance.now();
    host.running.child.stdin.end();
    expect(await exited).toBe(0);
    // The build takes seconds; the gateway gives it up rather than wait for it.
    expect(performance.now() - start).toBeLessThan(1_500);
    await host.close();
  }, 60_000);
});

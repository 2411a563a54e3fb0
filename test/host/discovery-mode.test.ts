/**
 * Discovery for hosts (`"expose": "discovery"`, docs/discovery.md): with the 70 LiveMCPTool
 * servers behind mcpx (their real catalogues, 527 tools), a host's tools/list holds the gateway
 * tools and the pinned ones, under 1,500 tokens; the host finds a tool with mcpx__search, reads
 * its types with mcpx__describe and calls it with mcpx__call, among all 70 servers. SDK 1.x
 * over stdio and SDK 2.x over Streamable HTTP; every frame mcpx sends is validated.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { Client as Client2, StreamableHTTPClientTransport as Http2 } from "@modelcontextprotocol/client";
import { countTokens } from "../../src/discovery/tokens.js";
import { startCatalogueServers, type CatalogueServers } from "../helpers/catalogue-servers.js";
import { startMcpxHttp, stdioServeParams, writeConfig, type RunningMcpx, type TempConfig } from "../helpers/mcpx.js";
import { recording, type Received } from "../helpers/recording-transport.js";
import { expectValidToClient } from "../helpers/spec-validator.js";
import { TOOL_SEARCH_DATA } from "../helpers/tool-search-data.js";
import { textOf } from "../helpers/upstreams.js";

const GATEWAY = ["mcpx__search", "mcpx__describe", "mcpx__call", "mcpx__servers", "mcpx__exec"];
const PINNED = ["calculator__calculate", "wikipedia__get_summary"];
/** mcpx's question tools, listed to a host that cannot be asked questions itself (as in every mode). */
const QUESTION_TOOLS = ["mcpx__pending_questions", "mcpx__answer_question"];

describe.skipIf(!TOOL_SEARCH_DATA)("a host of mcpx in discovery mode, with the 70 LiveMCPTool servers", () => {
  let catalogues: CatalogueServers;
  let config: TempConfig;
  let client: Client;
  const frames: Received[] = [];

  beforeAll(async () => {
    catalogues = await startCatalogueServers();
    // One server hides a tool: it must be unknown to search and call alike.
    const entries = catalogues.entries();
    entries.wikipedia = { ...entries.wikipedia, tools: { deny: ["get_links"] } };
    config = writeConfig({ mcpServers: entries, expose: "discovery", pinned: PINNED });
    client = new Client({ name: "discovery-host", version: "1.0.0" }, { capabilities: {} });
    await client.connect(recording(new StdioClientTransport({ ...stdioServeParams(config), stderr: "ignore" }), frames));
  }, 60_000);

  afterAll(async () => {
    await client?.close();
    await catalogues?.stop();
    for (const { frame, requestMethod } of frames) expectValidToClient("2025-11-25", frame, requestMethod);
  });

  const call = (name: string, args: object) => client.callTool({ name, arguments: args as Record<string, unknown> });

  it("lists the gateway tools, the pinned tools and the question tools only, under 1,500 tokens, the servers named", async () => {
    const { tools, nextCursor } = await client.listTools();
    expect(nextCursor).toBeUndefined();
    expect(tools.map((tool) => tool.name)).toEqual([...GATEWAY, ...PINNED, ...QUESTION_TOOLS]);
    const tokens = countTokens(JSON.stringify(tools));
    expect(tokens).toBeLessThan(1500);
    const search = tools.find((tool) => tool.name === "mcpx__search")!;
    for (const server of ["weather", "wikipedia", "12306-mcp", "youtube-transcript"]) expect(search.description).toContain(server);
  });

  it("says in its instructions how to find and call tools", () => {
    const instructions = client.getInstructions() ?? "";
    expect(instructions).toContain('mcpx__search {"query"');
    expect(instructions).toContain("mcpx__call");
    // One line per server while they fit (about 600 tokens), then how many more.
    expect(instructions).toContain("- 12306-mcp: The 12306-mcp server (8 tools).");
    expect(instructions).toMatch(/\n- and \d+ more: see mcpx__servers$/);
    expect(countTokens(instructions)).toBeLessThan(1000);
    expect(instructions).toContain(`Listed directly as well: ${PINNED.join(", ")}.`);
  });

  it("finds a tool by what it does and by its exact name, and calls it with its arguments", async () => {
    const found = JSON.parse(textOf(await call("mcpx__search", { query: "weather for a city by name", limit: 5 }))) as Array<Record<string, unknown>>;
    expect(found.slice(0, 3).map((hit) => hit.name)).toContain("weather__get_weather_by_city");
    expect(found[0]).toEqual({
      name: expect.any(String),
      server: expect.any(String),
      tool: expect.any(String),
      description: expect.any(String),
      score: expect.any(Number),
    });

    const exact = JSON.parse(textOf(await call("mcpx__search", { query: "get_weather_by_city" }))) as Array<{ name: string }>;
    expect(exact[0]?.name).toBe("weather__get_weather_by_city");

    const called = await call("mcpx__call", { name: "weather__get_weather_by_city", arguments: { city: "Lyon", country_code: "FR" } });
    expect(called.isError).toBeFalsy();
    expect(JSON.parse(textOf(called))).toEqual({ tool: "get_weather_by_city", arguments: { city: "Lyon", country_code: "FR" } });
  });

  it("describes named tools as TypeScript, or as their JSON Schemas", async () => {
    const ts = await call("mcpx__describe", { names: ["weather__get_weather_by_city"] });
    expect(ts.isError).toBeFalsy();
    expect(textOf(ts)).toContain("get_weather_by_city");
    expect(textOf(ts)).toContain("city");
    const schemas = JSON.parse(textOf(await call("mcpx__describe", { names: ["weather__get_weather_by_city", "calculator__calculate"], format: "schema" })));
    expect(schemas.map((tool: { name: string }) => tool.name)).toEqual(["weather__get_weather_by_city", "calculator__calculate"]);
    expect(schemas[0].inputSchema.properties.city).toEqual({ title: "City", type: "string" });
  });

  it("answers an unknown name with the nearest names, as a tool error the model can read", async () => {
    const wrong = await call("mcpx__call", { name: "weather__get_wether_by_city", arguments: { city: "Lyon" } });
    expect(wrong.isError).toBe(true);
    expect(textOf(wrong)).toMatch(/no tool named "weather__get_wether_by_city".*the nearest are "weather__get_weather_by_city"/);
    const described = await call("mcpx__describe", { names: ["calculatr__calculate"] });
    expect(described.isError).toBe(true);
    expect(textOf(described)).toContain('"calculator__calculate"');
  });

  it("knows nothing of a tool the config hides, by any path", async () => {
    const hits = JSON.parse(textOf(await call("mcpx__search", { query: "get_links wikipedia", limit: 50 }))) as Array<{ name: string }>;
    expect(hits.map((hit) => hit.name)).not.toContain("wikipedia__get_links");
    const refused = await call("mcpx__call", { name: "wikipedia__get_links", arguments: { title: "Lyon" } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('no tool named "wikipedia__get_links"');
    expect((await call("mcpx__describe", { names: ["wikipedia__get_links"] })).isError).toBe(true);
  });

  it("calls a pinned tool under its listed name, and through mcpx__call", async () => {
    expect(JSON.parse(textOf(await call("calculator__calculate", { expression: "6*7" })))).toEqual({ tool: "calculate", arguments: { expression: "6*7" } });
    const through = await call("mcpx__call", { name: "calculator__calculate", arguments: { expression: "1+1" } });
    expect(JSON.parse(textOf(through))).toEqual({ tool: "calculate", arguments: { expression: "1+1" } });
  });

  it("still routes a direct call of an unlisted tool by its name", async () => {
    expect(JSON.parse(textOf(await call("wikipedia__get_article", { title: "Lyon" })))).toEqual({ tool: "get_article", arguments: { title: "Lyon" } });
  });

  it("lists every server with its state and tool count, and one server's tools", async () => {
    const servers = JSON.parse(textOf(await call("mcpx__servers", {}))) as Array<{ server: string; state: string; tools: number }>;
    expect(servers).toHaveLength(70);
    expect(servers.find((entry) => entry.server === "wikipedia")).toMatchObject({ state: "ready", tools: 8 });
    const one = JSON.parse(textOf(await call("mcpx__servers", { server: "weather" })));
    expect(one).toMatchObject({
      server: "weather",
      state: "ready",
      instructions: expect.stringContaining("weather"),
      tools: ["weather__get_weather", "weather__get_weather_by_city"],
    });
  });

  it("says what to send when the gateway tools get wrong arguments", async () => {
    expect(textOf(await call("mcpx__search", {}))).toContain('give "query"');
    expect(textOf(await call("mcpx__call", { name: "calculator__calculate", arguments: "6*7" }))).toContain('"arguments" must be an object');
    expect(textOf(await call("mcpx__describe", { names: ["calculator__calculate"], format: "yaml" }))).toContain('"format" is "typescript" or "schema"');
  });
});

describe.skipIf(!TOOL_SEARCH_DATA)("serve --expose discovery, for an SDK 2.x host over Streamable HTTP", () => {
  let catalogues: CatalogueServers;
  let mcpx: RunningMcpx & { url: URL };
  const frames: Received[] = [];

  beforeAll(async () => {
    catalogues = await startCatalogueServers();
    // The file says "all": the command line wins.
    mcpx = await startMcpxHttp(writeConfig({ mcpServers: catalogues.entries(), expose: "all" }), ["--expose", "discovery"]);
  }, 60_000);

  afterAll(async () => {
    await mcpx?.close();
    await catalogues?.stop();
    for (const { frame, requestMethod } of frames) expectValidToClient("2025-11-25", frame, requestMethod);
  });

  it("finds and calls the right tool among the 70 servers", async () => {
    const client = new Client2({ name: "discovery-host-2x", version: "1.0.0" }, { capabilities: { elicitation: { form: {} } } });
    await client.connect(recording(new Http2(mcpx.url), frames));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(GATEWAY);
      const hits = JSON.parse(textOf(await client.callTool({ name: "mcpx__search", arguments: { query: "search_wikipedia" } }))) as Array<{ name: string }>;
      expect(hits[0]?.name).toBe("wikipedia__search_wikipedia");
      const result = await client.callTool({ name: "mcpx__call", arguments: { name: hits[0]!.name, arguments: { query: "Lyon", limit: 3 } } });
      expect(JSON.parse(textOf(result))).toEqual({ tool: "search_wikipedia", arguments: { query: "Lyon", limit: 3 } });
    } finally {
      await client.close();
    }
  });
});

describe.skipIf(!TOOL_SEARCH_DATA)('"expose": "all" (the default)', () => {
  it("lists every tool of the 70 servers, as before", async () => {
    const catalogues = await startCatalogueServers();
    const client = new Client({ name: "all-host", version: "1.0.0" }, { capabilities: { elicitation: {} } });
    try {
      await client.connect(new StdioClientTransport({ ...stdioServeParams(writeConfig({ mcpServers: catalogues.entries() })), stderr: "ignore" }));
      const names: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor ? { cursor } : {});
        names.push(...page.tools.map((tool) => tool.name));
        cursor = page.nextCursor;
      } while (cursor);
      expect(names).toHaveLength(528);
      expect(names).toContain("weather__get_weather_by_city");
      // mcpx's own beside them: only mcpx__exec (this host takes questions itself).
      expect(names.filter((name) => name.startsWith("mcpx__"))).toEqual(["mcpx__exec"]);
    } finally {
      await client.close();
      await catalogues.stop();
    }
  }, 60_000);
});

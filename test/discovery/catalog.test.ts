/**
 * `catalog`: every server, then as many signatures as fit the budget, counted with the real
 * tokenizer (never over), spread round-robin over the servers and favouring the bias.
 */
import { describe, expect, it } from "vitest";
import { type CatalogInput, catalog, catalogInput } from "../../src/discovery/catalog-budget.js";
import { discoveryName, type ServerRecord } from "../../src/discovery/records.js";
import { buildIndex } from "../../src/discovery/search-build.js";
import { countTokens } from "../../src/discovery/tokens.js";
import { liveMcpTools, TOOL_SEARCH_DATA } from "../helpers/tool-search-data.js";

/** Servers alike in shape, so a fair spread is exact: `count` servers of `tools` tools each. */
function uniform(count: number, tools: number): ServerRecord[] {
  return Array.from({ length: count }, (_, s) => {
    const server = `server${String(s).padStart(2, "0")}`;
    return {
      server,
      description: `Serves things of kind ${s}. More text that is not shown.`,
      tools: Array.from({ length: tools }, (_, t) => ({
        server,
        tool: `tool${t}`,
        name: discoveryName(server, `tool${t}`),
        description: `Does thing ${t} with widgets.`,
        inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
      })),
    };
  });
}

function liveServers(): ServerRecord[] {
  const servers = new Map<string, ServerRecord>();
  for (const row of liveMcpTools()) {
    let server = servers.get(row.server);
    if (!server) servers.set(row.server, (server = { server: row.server, description: `The ${row.server} server (real catalogue).`, tools: [] }));
    server.tools.push({ ...row, name: discoveryName(row.server, row.tool) });
  }
  return [...servers.values()];
}

/** The signatures shown, by server, and each server line's "+N more". */
function parse(text: string, input: CatalogInput): { shown: Map<string, string[]>; more: Map<string, number>; listed: string[] } {
  const lines = text.trimEnd().split("\n").slice(1);
  const shown = new Map<string, string[]>();
  const more = new Map<string, number>();
  const listed: string[] = [];
  for (const line of lines) {
    const tool = input.tools.find((candidate) => candidate.signature === line);
    if (tool) {
      shown.set(tool.server, [...(shown.get(tool.server) ?? []), tool.name]);
      continue;
    }
    const server = input.servers.find((candidate) => line.startsWith(`${candidate.server} (`));
    if (server) {
      listed.push(server.server);
      more.set(server.server, Number(/, \+(\d+) more\)/.exec(line)?.[1] ?? 0));
    }
  }
  return { shown, more, listed };
}

const BUDGETS = [0, 20, 60, 150, 400, 1000, 4000, 16000, 1_000_000];

describe("catalog", () => {
  it("never goes over the budget, counted by the real tokenizer, and lists every server when their lines fit", () => {
    const input = catalogInput(uniform(12, 9), countTokens);
    const full = input.headerTokens + input.servers.reduce((sum, server) => sum + server.tokens, 0);
    for (const budget of [...BUDGETS, full, full + 1, full + 7]) {
      for (const bias of [undefined, "widgets 3", "nothing matches this"]) {
        const text = catalog(input, budget, bias);
        expect(countTokens(text), `budget ${budget}, bias ${bias}`).toBeLessThanOrEqual(budget);
        if (budget >= full) expect(parse(text, input).listed).toHaveLength(12);
      }
    }
    expect(catalog(input, 0)).toBe("");
  });

  it("refuses a budget that is not a count of tokens, saying what it wants", () => {
    const input = catalogInput(uniform(2, 2), countTokens);
    for (const budget of [Number.NaN, -1, 1.5, Number.POSITIVE_INFINITY]) expect(() => catalog(input, budget)).toThrow(/whole number of tokens/);
  });

  it("spreads the signatures round-robin: no server gets a second before every server has one", () => {
    const input = catalogInput(uniform(10, 6), countTokens);
    const base = input.headerTokens + input.servers.reduce((sum, server) => sum + server.tokens, 0);
    const perTool = input.tools[0]!.tokens;
    for (const fits of [3, 10, 15, 37]) {
      const { shown, more } = parse(catalog(input, base + fits * perTool), input);
      const counts = input.servers.map((server) => shown.get(server.server)?.length ?? 0);
      expect(counts.reduce((a, b) => a + b, 0)).toBe(fits);
      expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
      for (const server of input.servers) expect(more.get(server.server)).toBe(6 - (shown.get(server.server)?.length ?? 0));
    }
  });

  it("favours the tools the bias matches, by word or through a search index", () => {
    const servers = uniform(6, 5);
    servers[4]!.tools[3]!.description = "Forecasts the weather for a city.";
    servers[2]!.tools[4]!.description = "Reads the weather radar.";
    servers[0]!.tools[2]!.description = "Works for anyone, with the cast of forty.";
    const input = catalogInput(servers, countTokens);
    const base = input.headerTokens + input.servers.reduce((sum, server) => sum + server.tokens, 0);
    const budget = base + 3 * input.tools[0]!.tokens;
    const names = (text: string): string[] => [...parse(text, input).shown.values()].flat();
    expect(names(catalog(input, budget))).toEqual(["server00__tool0", "server01__tool0", "server02__tool0"]);
    const biased = names(catalog(input, budget, "weather forecast"));
    expect(biased).toContain("server04__tool3");
    expect(biased).toContain("server02__tool4");
    expect(biased).not.toContain("server00__tool2");
    expect(names(catalog(input, budget, "forecasting"))).toContain("server04__tool3");
    const indexed = names(catalog(input, budget, "weather", buildIndex({ tools: servers.flatMap((server) => server.tools) })));
    expect(indexed).toEqual(expect.arrayContaining(["server04__tool3", "server02__tool4"]));
  });

  it("falls back to server names alone, then to as many servers as fit and where the rest are", () => {
    const input = catalogInput(uniform(30, 2), countTokens);
    const short = input.headerTokens + input.servers.reduce((sum, server) => sum + server.shortTokens, 0);
    const namesOnly = catalog(input, short);
    expect(countTokens(namesOnly)).toBeLessThanOrEqual(short);
    expect(parse(namesOnly, input).listed).toHaveLength(30);
    expect(namesOnly).not.toContain("Serves things");
    const some = catalog(input, Math.floor(short / 2));
    expect(some).toMatch(/^\+\d+ more servers: mcpx ls$/m);
    expect(countTokens(some)).toBeLessThanOrEqual(Math.floor(short / 2));
  });

  it("keeps its input as JSON, so the cache can store it", () => {
    const input = catalogInput(uniform(3, 3), countTokens);
    const copy = JSON.parse(JSON.stringify(input)) as CatalogInput;
    expect(catalog(copy, 300, "thing")).toBe(catalog(input, 300, "thing"));
  });

  it.skipIf(!TOOL_SEARCH_DATA)(
    "holds on the 70 LiveMCPTool servers: within every budget, every server listed, the bias favoured",
    () => {
      const servers = liveServers();
      const input = catalogInput(servers, countTokens);
      for (const budget of [...BUDGETS, 1500, 2500]) {
        for (const bias of [undefined, "git commit branch", "weather forecast", "日本語 chart"]) {
          const text = catalog(input, budget, bias);
          expect(countTokens(text), `budget ${budget}, bias ${bias}`).toBeLessThanOrEqual(budget);
          if (budget >= 4000) expect(parse(text, input).listed).toHaveLength(70);
        }
      }
      const plain = parse(catalog(input, 4000), input).shown;
      const biased = parse(catalog(input, 4000, "git commit branch diff"), input).shown;
      expect(biased.get("git")?.length ?? 0).toBeGreaterThan(plain.get("git")?.length ?? 0);
      expect(biased.get("git")).toContain("git__git_commit");
      // Round-robin: at 4000 tokens, most servers get a signature before any gets a third.
      expect(plain.size).toBeGreaterThanOrEqual(60);
    },
    30_000,
  );
});

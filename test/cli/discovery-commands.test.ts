/**
 * The discovery commands with the 70 LiveMCPTool servers (527 real tools) configured: a server
 * never read is read once, with a line on stderr (not with --cached); after that every command
 * answers from the schema cache with the servers stopped; filters (globs) hide tools from every
 * reader; a failed refresh keeps the good entries.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CatalogResult } from "../../src/cli/catalog.js";
import type { LsEntry } from "../../src/cli/ls.js";
import type { SearchEntry } from "../../src/cli/search.js";
import type { ToolEntry } from "../../src/cli/tools.js";
import type { CatalogInput } from "../../src/discovery/catalog-budget.js";
import { countTokens } from "../../src/discovery/tokens.js";
import { type CatalogueServers, configName, startCatalogueServers } from "../helpers/catalogue-servers.js";
import { writeConfig, type TempConfig } from "../helpers/mcpx.js";
import { TOOL_SEARCH_DATA } from "../helpers/tool-search-data.js";
import { runMcpx } from "../helpers/upstreams.js";

const MEMORY = configName("basic-memory");
/** basic-memory's 19 tools less these 7: delete_note, edit_note, move_note, read_note, view_note, write_note, delete_project. */
const FILTER = { deny: ["*_note", "delete_*"] };
const TOTAL = 527 - 7;

describe.skipIf(!TOOL_SEARCH_DATA)("discovery commands over the 70 LiveMCPTool servers", () => {
  let servers: CatalogueServers;
  let config: TempConfig;
  let entries: Record<string, object>;
  const mcpx = (...args: string[]) => runMcpx([...args, "--config", config.file], config);

  beforeAll(async () => {
    servers = await startCatalogueServers();
    entries = servers.entries();
    entries[MEMORY] = { ...entries[MEMORY], tools: FILTER };
    config = writeConfig({ mcpServers: entries });
  });
  afterAll(async () => {
    await servers?.stop();
  });

  it("--cached answers without starting anything: every server never read", async () => {
    const run = await mcpx("ls", "--json", "--cached");
    expect(run.code, run.stderr).toBe(0);
    const entries = JSON.parse(run.stdout) as LsEntry[];
    expect(entries).toHaveLength(70);
    expect(entries.every((entry) => entry.state === "never read" && entry.tools === 0 && entry.readAt === null)).toBe(true);
    expect(run.stderr).not.toContain("never read;");
  });

  it("ls reads each server never read once, saying so on stderr, then lists them", async () => {
    const run = await mcpx("ls", "--json");
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr.match(/was never read; reading its catalogue once now/g)).toHaveLength(70);
    const entries = JSON.parse(run.stdout) as LsEntry[];
    expect(entries.reduce((sum, entry) => sum + entry.tools, 0)).toBe(TOTAL);
    expect(entries.find((entry) => entry.server === MEMORY)).toMatchObject({
      tools: 12,
      state: "cached",
      description: "The basic-memory server (19 tools).",
      readAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    const again = await mcpx("ls");
    expect(again.stderr).toBe("");
    expect(again.stdout).toMatch(new RegExp(`^${MEMORY}\\s+12\\s+read \\d+ s ago\\s+The basic-memory server`, "m"));
  });

  describe("with every server stopped", () => {
    beforeAll(async () => {
      await mcpx("ls", "--cached"); // read above; nothing left to read
      await servers.stop();
    });

    it("search answers in the documented JSON, an exact tool name first", async () => {
      const run = await mcpx("search", `${MEMORY}__search_notes`, "--json", "--limit", "3");
      expect(run.code, run.stderr).toBe(0);
      const hits = JSON.parse(run.stdout) as SearchEntry[];
      expect(hits.length).toBeGreaterThan(0);
      expect(hits.length).toBeLessThanOrEqual(3);
      expect(Object.keys(hits[0]!).sort()).toEqual(["description", "name", "readAt", "score", "server", "tool"]);
      expect(hits[0]).toMatchObject({ name: `${MEMORY}__search_notes`, server: MEMORY, tool: "search_notes" });
    });

    it("search never finds a denied tool", async () => {
      const run = await mcpx("search", "write", "note", "--json", "--limit", "50");
      expect(run.code, run.stderr).toBe(0);
      const names = (JSON.parse(run.stdout) as SearchEntry[]).map((hit) => hit.name);
      expect(names.filter((name) => name.startsWith(`${MEMORY}__`) && /_note$|__delete_/.test(name))).toEqual([]);
    });

    it("types declares a server's tools, or one tool; a denied tool is unknown", async () => {
      const all = await mcpx("types", MEMORY);
      expect(all.code, all.stderr).toBe(0);
      // One interface per server, one method per tool (discovery/typescript.ts).
      expect(all.stdout).toMatch(/\bsearch_notes\(args/);
      expect(all.stdout).not.toMatch(/\bwrite_note\(/);
      const one = await mcpx("types", `${MEMORY}.search_notes`, "--json");
      expect(JSON.parse(one.stdout)).toMatchObject({ tools: [`${MEMORY}__search_notes`], servers: [{ server: MEMORY }] });
      const denied = await mcpx("types", `${MEMORY}__write_note`);
      expect(denied.code).toBe(2);
      expect(denied.stderr).toContain(`has no tool "write_note"`);
    });

    it("catalog prints every server and stays within the budget by the real tokenizer", async () => {
      for (const budget of [1000, 2500, 6000]) {
        const run = await mcpx("catalog", "--budget", String(budget));
        expect(run.code, run.stderr).toBe(0);
        expect(countTokens(run.stdout), `budget ${budget}`).toBeLessThanOrEqual(budget);
        const lines = run.stdout.split("\n");
        for (const server of servers.urls.keys())
          expect(
            lines.some((line) => line.startsWith(`${server} (`)),
            `${server}'s line at budget ${budget}`,
          ).toBe(true);
        const json = JSON.parse((await mcpx("catalog", "--budget", String(budget), "--json")).stdout) as CatalogResult;
        expect(json.text).toBe(run.stdout);
        expect(json.tokens).toBeGreaterThanOrEqual(countTokens(json.text));
        expect(json.tokens).toBeLessThanOrEqual(budget);
        expect(json.servers).toHaveLength(70);
        expect(json.servers.every((server) => server.listed && server.readAt !== null)).toBe(true);
        expect(json.shown.length).toBeGreaterThan(0);
        expect(json.shown.length + json.omitted).toBe(TOTAL);
        for (const name of json.shown) expect(json.text).toContain(`${name}(`);
      }
    });

    it("catalog --bias moves the tools search ranks first for those words to the front", async () => {
      const bias = "weather forecast";
      const top = (JSON.parse((await mcpx("search", bias, "--json", "--limit", "3")).stdout) as SearchEntry[]).map((hit) => hit.name);
      expect(top).toHaveLength(3);
      const plain = JSON.parse((await mcpx("catalog", "--budget", "1200", "--json")).stdout) as CatalogResult;
      expect(top.filter((name) => plain.shown.includes(name))).toEqual([]);
      const biased = JSON.parse((await mcpx("catalog", "--budget", "1200", "--bias", bias, "--json")).stdout) as CatalogResult;
      expect(biased.tokens).toBeLessThanOrEqual(1200);
      expect(top.every((name) => biased.shown.includes(name))).toBe(true);
    });

    it("catalog builds its counted input once and every later catalog reads it as stored", async () => {
      const dir = join(config.env.MCPX_STATE_DIR!, "discovery", "catalogs");
      const [file] = readdirSync(dir).filter((name) => name.endsWith(".json"));
      expect(file).toBeDefined();
      const path = join(dir, file!);
      expect(statSync(path).mode & 0o777).toBe(0o600);
      const before = { mtime: statSync(path).mtimeMs, text: readFileSync(path, "utf8") };
      for (const args of [
        ["--budget", "700"],
        ["--budget", "3000", "--bias", "notes"],
        ["--budget", "5000", "--json"],
      ]) {
        const run = await mcpx("catalog", ...args);
        expect(run.code, run.stderr).toBe(0);
      }
      expect(statSync(path).mtimeMs).toBe(before.mtime);
      expect(readFileSync(path, "utf8")).toBe(before.text);
      // What is stored is every line the catalog may print, counted.
      const stored = JSON.parse(before.text) as { input: CatalogInput };
      expect(stored.input.servers).toHaveLength(70);
      expect(stored.input.tools).toHaveLength(TOTAL);
      expect(stored.input.tools.every((tool) => tool.tokens === countTokens(`${tool.signature}\n`))).toBe(true);
    });

    it("tools lists the cached tools hosts see, the denied ones left out; servers reports them cached", async () => {
      const run = await mcpx("tools", "--json");
      expect(run.code, run.stderr).toBe(0);
      const tools = JSON.parse(run.stdout) as ToolEntry[];
      expect(tools).toHaveLength(TOTAL);
      expect(tools.some((tool) => tool.name === `${MEMORY}__write_note`)).toBe(false);
      const report = await mcpx("servers", "--json");
      expect(report.code, report.stderr).toBe(0);
      const reports = JSON.parse(report.stdout) as Array<{ name: string; state: string; tools: number; dropped: Array<{ name: string; reason: string }> }>;
      expect(reports.every((entry) => entry.state === "cached")).toBe(true);
      const memory = reports.find((entry) => entry.name === MEMORY)!;
      expect(memory.tools).toBe(19); // what the server lists; the 7 the config hides are reported as such
      expect(memory.dropped.map((item) => item.name).sort()).toEqual([
        "delete_note",
        "delete_project",
        "edit_note",
        "move_note",
        "read_note",
        "view_note",
        "write_note",
      ]);
      expect(memory.dropped.every((item) => item.reason === "hidden")).toBe(true);
    });

    it("mcpx call refuses a tool a glob denies, before starting anything", async () => {
      const run = await mcpx("call", `${MEMORY}__write_note`);
      expect(run.code).toBe(2);
    });

    it("a refresh that fails keeps every good entry, and ls says the last read failed", async () => {
      const refresh = await mcpx("refresh", MEMORY);
      expect(refresh.code).toBe(1);
      expect(refresh.stdout).toContain(`${MEMORY}: read failed, its last good read is kept`);
      const run = await mcpx("ls", "--json");
      const entry = (JSON.parse(run.stdout) as LsEntry[]).find((candidate) => candidate.server === MEMORY);
      expect(entry).toMatchObject({ tools: 12, state: "last read failed", reason: expect.any(String) });
      const text = await mcpx("ls");
      expect(text.stdout).toMatch(new RegExp(`^${MEMORY}\\s+12\\s+last read failed \\(data read \\d+ s ago\\)`, "m"));
    });

    it("a filter that changes makes the next catalog count its input again, the hidden tools gone", async () => {
      const dir = join(config.env.MCPX_STATE_DIR!, "discovery", "catalogs");
      const path = join(dir, readdirSync(dir).find((name) => name.endsWith(".json"))!);
      const builtAt = (JSON.parse(readFileSync(path, "utf8")) as { builtAt: string }).builtAt;
      writeFileSync(
        config.file,
        JSON.stringify({ mcpServers: { ...entries, [MEMORY]: { ...entries[MEMORY], tools: { deny: [...FILTER.deny, "search_*"] } } } }),
      );
      const run = await mcpx("catalog", "--budget", "100000", "--json");
      expect(run.code, run.stderr).toBe(0);
      const result = JSON.parse(run.stdout) as CatalogResult;
      expect(result.omitted).toBe(0);
      expect(result.shown).toContain(`${MEMORY}__recent_activity`);
      expect(result.shown.filter((name) => name.startsWith(`${MEMORY}__search_`))).toEqual([]);
      expect(result.shown.length).toBeLessThan(TOTAL);
      expect((JSON.parse(readFileSync(path, "utf8")) as { builtAt: string }).builtAt).not.toBe(builtAt);
    });
  });
});

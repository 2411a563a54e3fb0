/**
 * The schema cache is written whenever mcpx reads a catalogue: `mcpx serve` writes a server's
 * entry once it is up, and again after its list_changed; files are private (0600 in 0700).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/index.js";
import type { CatalogResult } from "../../src/cli/catalog.js";
import { readDiscovery } from "../../src/discovery/cache-read.js";
import type { CatalogInput } from "../../src/discovery/catalog-budget.js";
import { countTokens } from "../../src/discovery/tokens.js";
import { fixture, nodeServer, RawStdioHost, writeConfig, type TempConfig } from "../helpers/mcpx.js";
import { runMcpx } from "../helpers/upstreams.js";
import { until } from "../helpers/until.js";

/** The environment that makes an mcpx run record every module it resolves (test/fixtures/import-recorder.mjs). */
function recordImports(name: string): NodeJS.ProcessEnv {
  return { NODE_OPTIONS: `--import ${pathToFileURL(fixture("import-recorder.mjs")).href}`, MCPX_TEST_IMPORTS: join(config.dir, `imports-${name}.txt`) };
}
function imported(name: string): string[] {
  const file = join(config.dir, `imports-${name}.txt`);
  return existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean) : [];
}
const isTokenizer = (url: string): boolean => url.includes("/gpt-tokenizer/") || url.endsWith("/discovery/tokens.js");
let config: TempConfig;

describe("mcpx serve writes the schema cache", () => {
  let host: RawStdioHost;
  const state = (): string => config.env.MCPX_STATE_DIR!;
  const toolNames = (): string[] => readDiscovery(loadConfig(config.file), state()).servers[0]!.tools.map((tool) => tool.tool);

  beforeAll(async () => {
    config = writeConfig({ mcpServers: { changing: nodeServer("changing-server.mjs") } });
    host = new RawStdioHost(config);
    await host.initialize();
  });
  afterAll(async () => {
    await host?.close();
  });

  it("once the server is up, with its tools, prompts and resources", async () => {
    await until(() => toolNames().length === 3, "the entry with the server's 3 tools");
    const [server] = readDiscovery(loadConfig(config.file), state(), { schemas: true }).servers;
    expect(server).toMatchObject({ state: "cached", server: "changing" });
    expect(server!.entry?.read?.resources.map((resource) => resource.uri)).toEqual(["memo://a", "memo://b", "memo://c"]);
    expect(server!.entry?.read?.revision).toBe("2025-11-25");
    // Signatures are made as it is written; no token counts: those are the catalog input's, made by `catalog` (the tokenizer stays out of serve).
    expect(server!.tools[0]).toMatchObject({ name: "changing__add_tool", signature: expect.any(String) });
    expect(JSON.stringify(server!.entry)).not.toMatch(/Tokens/);
  });

  it("again after the server's list_changed", async () => {
    const before = readDiscovery(loadConfig(config.file), state()).servers[0]!.readAt!;
    await host.request(10, "tools/call", { name: "changing__add_tool", arguments: {} });
    await until(() => toolNames().includes("added_1"), "the entry with the added tool");
    expect(readDiscovery(loadConfig(config.file), state()).servers[0]!.readAt! >= before).toBe(true);
  });

  it("mcpx catalog counts its lines once, beside the entries, and later ones read them as stored", async () => {
    const catalogs = join(state(), "discovery", "catalogs");
    expect(existsSync(catalogs)).toBe(false);
    const first = await runMcpx(["catalog", "--budget", "1000", "--json", "--config", config.file], config, recordImports("first"));
    expect(first.code, first.stderr).toBe(0);
    expect(imported("first").some(isTokenizer), "the first catalog counts, with the tokenizer").toBe(true);
    const result = JSON.parse(first.stdout) as CatalogResult;
    expect(result.tokens).toBeGreaterThanOrEqual(countTokens(result.text));
    expect(result.shown).toEqual(toolNames().map((tool) => `changing__${tool}`));
    const [file] = readdirSync(catalogs);
    const path = join(catalogs, file!);
    const stored = JSON.parse(readFileSync(path, "utf8")) as { input: CatalogInput };
    expect(stored.input.servers).toMatchObject([{ server: "changing", toolCount: toolNames().length }]);
    expect(stored.input.servers[0]!.tokens).toBeGreaterThan(0);
    expect(stored.input.tools.map((tool) => tool.name)).toEqual(result.shown);
    expect(stored.input.tools.every((tool) => tool.tokens === countTokens(`${tool.signature}\n`))).toBe(true);
    const mtime = statSync(path).mtimeMs;
    const again = await runMcpx(["catalog", "--budget", "50", "--config", config.file], config, recordImports("again"));
    expect(again.code, again.stderr).toBe(0);
    expect(imported("again").length).toBeGreaterThan(0);
    expect(imported("again").filter(isTokenizer), "a later catalog reads the counts as stored").toEqual([]);
    expect(statSync(path).mtimeMs).toBe(mtime);
    const tooSmall = await runMcpx(["catalog", "--budget", "5", "--config", config.file], config);
    expect(tooSmall.code).toBe(2);
    expect(tooSmall.stderr).toContain("a budget of 5 tokens does not hold even the catalog's first line");
  });

  it("in files only the user may read", () => {
    const dir = join(state(), "discovery", "entries");
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    for (const name of readdirSync(dir)) expect(statSync(join(dir, name)).mode & 0o777).toBe(0o600);
  });
});

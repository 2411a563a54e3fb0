/**
 * The schema cache is written whenever mcpx reads a catalogue: `mcpx serve` writes a server's
 * entry once it is up, and again after its list_changed; files are private (0600 in 0700).
 */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/index.js";
import { readDiscovery } from "../../src/discovery/cache-read.js";
import { nodeServer, RawStdioHost, writeConfig, type TempConfig } from "../helpers/mcpx.js";
import { runMcpx } from "../helpers/upstreams.js";
import { until } from "../helpers/until.js";

describe("mcpx serve writes the schema cache", () => {
  let config: TempConfig;
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
    // Signatures are made as it is written; token counts are left to the first `catalog` (the tokenizer stays out of serve).
    expect(server!.tools[0]).toMatchObject({ name: "changing__add_tool", signature: expect.any(String), signatureTokens: null });
  });

  it("again after the server's list_changed", async () => {
    const before = readDiscovery(loadConfig(config.file), state()).servers[0]!.readAt!;
    await host.request(10, "tools/call", { name: "changing__add_tool", arguments: {} });
    await until(() => toolNames().includes("added_1"), "the entry with the added tool");
    expect(readDiscovery(loadConfig(config.file), state()).servers[0]!.readAt! >= before).toBe(true);
  });

  it("mcpx catalog counts the tokens serve left out, once, and keeps them", async () => {
    const first = await runMcpx(["catalog", "--budget", "1000", "--json", "--config", config.file], config);
    expect(first.code, first.stderr).toBe(0);
    expect((JSON.parse(first.stdout) as { tokens: number }).tokens).toBeGreaterThan(0);
    const [server] = readDiscovery(loadConfig(config.file), state(), { schemas: true }).servers;
    expect(server!.descriptionTokens).toBeGreaterThan(0);
    expect(server!.tools.every((tool) => typeof tool.signatureTokens === "number" && tool.signatureTokens > 0)).toBe(true);
  });

  it("in files only the user may read", () => {
    const dir = join(state(), "discovery", "entries");
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    for (const name of readdirSync(dir)) expect(statSync(join(dir, name)).mode & 0o777).toBe(0o600);
  });
});

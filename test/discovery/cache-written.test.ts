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
    expect(server!.tools[0]).toMatchObject({ name: "changing__add_tool", signature: expect.any(String), signatureTokens: expect.any(Number) });
  });

  it("again after the server's list_changed", async () => {
    const before = readDiscovery(loadConfig(config.file), state()).servers[0]!.readAt!;
    await host.request(10, "tools/call", { name: "changing__add_tool", arguments: {} });
    await until(() => toolNames().includes("added_1"), "the entry with the added tool");
    expect(readDiscovery(loadConfig(config.file), state()).servers[0]!.readAt! >= before).toBe(true);
  });

  it("in files only the user may read", () => {
    const dir = join(state(), "discovery", "entries");
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    for (const name of readdirSync(dir)) expect(statSync(join(dir, name)).mode & 0o777).toBe(0o600);
  });
});

/**
 * The config's summary of the schema cache is two lines, servers then tools, so that `ls` and
 * `search` (which need no tool) never parse the tools: they are parsed when a reader first asks.
 * A file cut short is never read as fewer tools.
 */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { configFromObject } from "../../src/config/index.js";
import type { Config } from "../../src/config/types.js";
import { readDiscovery } from "../../src/discovery/cache-read.js";
import type { CatalogueSnapshot } from "../../src/discovery/cache-snapshot.js";
import { CacheWriter } from "../../src/discovery/cache-writer.js";
import { silentLogger } from "../../src/util/log.js";

const config: Config = configFromObject(
  { mcpServers: { demo: { command: "node", args: ["server.js"] }, other: { command: "node", args: ["other.js"] } } },
  join(tmpdir(), "mcpx-summary-test.json"),
);
const snapshot = (...tools: string[]): CatalogueSnapshot => ({
  revision: "2025-11-25",
  transport: "stdio",
  serverInfo: { name: "demo", version: "1.0.0" },
  catalog: {
    tools: tools.map((name) => ({ name, description: `Does ${name}`, inputSchema: { type: "object" } })),
    prompts: [],
    resources: [],
    resourceTemplates: [],
  },
});

/** A state dir whose cache holds both servers, and the summary file the first reader made. */
async function summarised(): Promise<{ dir: string; file: string }> {
  const dir = mkdtempSync(join(tmpdir(), "mcpx-summary-"));
  const writer = new CacheWriter(dir, silentLogger);
  writer.read(config.servers[0]!, snapshot("alpha", "beta"));
  writer.read(config.servers[1]!, snapshot("gamma"));
  await writer.flush();
  expect(readDiscovery(config, dir).schemas).toBe(true);
  const folder = join(dir, "discovery", "summaries");
  const [name] = readdirSync(folder);
  return { dir, file: join(folder, name!) };
}

describe("the summary of the schema cache", () => {
  it("gives the servers and their tool counts without parsing the tools", async () => {
    const { dir, file } = await summarised();
    const bytes = readFileSync(file);
    const split = bytes.indexOf("\n");
    // The tools line damaged, its length in bytes kept: only a reader of tools can notice.
    writeFileSync(file, Buffer.concat([bytes.subarray(0, split + 1), Buffer.alloc(bytes.length - split - 1, " ")]));
    const view = readDiscovery(config, dir);
    expect(view.schemas).toBe(false);
    expect(view.servers.map((server) => [server.server, server.toolCount, server.state])).toEqual([
      ["demo", 2, "cached"],
      ["other", 1, "cached"],
    ]);
    expect(() => view.servers[0]!.tools).toThrow(/summary is damaged/);
  });

  it("parses the tools once, when first asked", async () => {
    const { dir } = await summarised();
    const view = readDiscovery(config, dir);
    expect(view.schemas).toBe(false);
    expect(view.servers[0]!.tools.map((tool) => tool.name)).toEqual(["demo__alpha", "demo__beta"]);
    expect(view.servers[1]!.tools.map((tool) => tool.name)).toEqual(["other__gamma"]);
    expect(view.servers[0]!.tools).toBe(view.servers[0]!.tools);
  });

  it("reads the tools from the same summary it read the servers from, or says it was replaced", async () => {
    const { dir, file } = await summarised();
    const view = readDiscovery(config, dir);
    expect(view.schemas).toBe(false);
    // Another summary now (its servers line differs): its tools are not this view's.
    const text = readFileSync(file, "utf8");
    writeFileSync(file, text.replace('"server":"demo"', '"server":"dem0"'));
    expect(() => view.servers[0]!.tools).toThrow(/replaced while it was read/);
  });

  it("is not read when cut short: the entries answer", async () => {
    const { dir, file } = await summarised();
    const text = readFileSync(file, "utf8");
    writeFileSync(file, text.slice(0, text.length - 5));
    const view = readDiscovery(config, dir);
    expect(view.schemas).toBe(true);
    expect(view.servers.map((server) => server.tools.length)).toEqual([2, 1]);
  });
});

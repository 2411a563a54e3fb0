/**
 * The schema cache's own rules, on a real state directory: an entry per server definition
 * (a changed definition is a new key, two names for one definition share it, secrets stay
 * out of the key), a failed read never replaces a good one, the readers apply the config's
 * tool filter (globs), and the search index is rebuilt only when what it is built from changed.
 */
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { configFromObject } from "../../src/config/index.js";
import type { Config } from "../../src/config/types.js";
import { indexKey, searchIndexFor } from "../../src/discovery/cache-index.js";
import { serverKey } from "../../src/discovery/cache-key.js";
import { allTools, readDiscovery } from "../../src/discovery/cache-read.js";
import type { CatalogueSnapshot } from "../../src/discovery/cache-snapshot.js";
import { CacheWriter } from "../../src/discovery/cache-writer.js";
import { entryFile, indexesDir } from "../../src/discovery/cache-files.js";
import { INDEX_VERSION, search } from "../../src/discovery/search.js";
import { silentLogger } from "../../src/util/log.js";

const stdio = (extra: object = {}) => ({ command: "node", args: ["server.js"], env: { API_KEY: "secret-1" }, ...extra });
const configOf = (servers: Record<string, object>): Config => configFromObject({ mcpServers: servers }, join(tmpdir(), "mcpx-cache-test.json"));
const keyOf = (entry: object): string => serverKey(configOf({ a: entry }).servers[0]!);

const snapshot = (...tools: string[]): CatalogueSnapshot => ({
  revision: "2025-11-25",
  transport: "stdio",
  serverInfo: { name: "demo", version: "1.0.0" },
  instructions: "Demo tools.\nSecond line.",
  catalog: {
    tools: tools.map((name) => ({ name, description: `Does ${name}`, inputSchema: { type: "object" } })),
    prompts: [],
    resources: [],
    resourceTemplates: [],
  },
});

describe("the cache key", () => {
  it("changes with the command, args, env names, cwd, URL, transport and protocol", () => {
    const base = keyOf(stdio());
    expect(keyOf(stdio({ command: "deno" }))).not.toBe(base);
    expect(keyOf(stdio({ args: ["server.js", "--ro"] }))).not.toBe(base);
    expect(keyOf(stdio({ env: { API_KEY: "x", MORE: "1" } }))).not.toBe(base);
    expect(keyOf(stdio({ cwd: "/elsewhere" }))).not.toBe(base);
    expect(keyOf(stdio({ protocol: "2025-06-18" }))).not.toBe(base);
    expect(keyOf({ url: "http://127.0.0.1:1/mcp" })).not.toBe(keyOf({ url: "http://127.0.0.1:2/mcp" }));
    expect(keyOf({ url: "http://127.0.0.1:1/mcp", transport: "sse" })).not.toBe(keyOf({ url: "http://127.0.0.1:1/mcp" }));
  });

  it("leaves out env values (secrets), and is the same under another server name", () => {
    expect(keyOf(stdio({ env: { API_KEY: "secret-2" } }))).toBe(keyOf(stdio()));
    const both = configOf({ one: stdio(), two: stdio() });
    expect(serverKey(both.servers[0]!)).toBe(serverKey(both.servers[1]!));
  });
});

describe("the cache writer and readers", () => {
  const fresh = () => mkdtempSync(join(tmpdir(), "mcpx-cache-"));

  it("a failed read keeps the last good one, and says it failed", async () => {
    const dir = fresh();
    const config = configOf({ demo: stdio() });
    const writer = new CacheWriter(dir, silentLogger);
    writer.read(config.servers[0]!, snapshot("alpha", "beta"));
    await writer.flush();
    writer.failed(config.servers[0]!, "it exited with code 1");
    await writer.flush();
    const [server] = readDiscovery(config, dir).servers;
    expect(server).toMatchObject({ state: "last read failed", failure: { reason: "it exited with code 1" }, description: "Demo tools." });
    expect(server!.tools.map((tool) => tool.name)).toEqual(["demo__alpha", "demo__beta"]);
    expect(statSync(entryFile(dir, server!.key)).mode & 0o777).toBe(0o600);
    // The next good read clears the failure.
    writer.read(config.servers[0]!, snapshot("alpha"));
    await writer.flush();
    expect(readDiscovery(config, dir).servers[0]).toMatchObject({ state: "cached", failure: undefined });
  });

  it("a server never read, and one whose only read failed, have no tools", async () => {
    const dir = fresh();
    const config = configOf({ never: stdio(), broken: stdio({ command: "missing" }) });
    const writer = new CacheWriter(dir, silentLogger);
    writer.failed(config.servers[1]!, "spawn missing ENOENT");
    await writer.flush();
    const [never, broken] = readDiscovery(config, dir).servers;
    expect(never).toMatchObject({ state: "never read", tools: [], readAt: undefined });
    expect(broken).toMatchObject({ state: "last read failed", tools: [], readAt: undefined });
  });

  it("a changed definition is not answered with the old one's tools; another name for it shares them", async () => {
    const dir = fresh();
    const writer = new CacheWriter(dir, silentLogger);
    writer.read(configOf({ demo: stdio() }).servers[0]!, snapshot("alpha"));
    await writer.flush();
    expect(readDiscovery(configOf({ demo: stdio({ args: ["other.js"] }) }), dir).servers[0]!.state).toBe("never read");
    const renamed = readDiscovery(configOf({ other: stdio() }), dir).servers[0]!;
    expect(renamed.tools.map((tool) => tool.name)).toEqual(["other__alpha"]);
    expect(renamed.tools[0]!.signature).toContain("other__alpha");
  });

  it("applies the config's tool filter, globs included, to every reader", async () => {
    const dir = fresh();
    const writer = new CacheWriter(dir, silentLogger);
    const open = configOf({ fs: stdio() });
    writer.read(open.servers[0]!, snapshot("read_file", "read_dir", "write_file", "delete_file"));
    await writer.flush();
    const filtered = configOf({ fs: stdio({ tools: { allow: ["read_*", "delete_*"], deny: ["delete_*"] } }) });
    const view = readDiscovery(filtered, dir);
    expect(allTools(view).map((tool) => tool.tool)).toEqual(["read_file", "read_dir"]);
    const { index } = await searchIndexFor(view);
    expect(JSON.stringify(index)).not.toContain("delete_file");
  });

  it("answers from the config's summary until an entry is written, the same but for schemas", async () => {
    const dir = fresh();
    const config = configOf({ demo: stdio(), other: stdio({ args: ["other.js"] }) });
    const writer = new CacheWriter(dir, silentLogger);
    writer.read(config.servers[0]!, snapshot("alpha", "beta"));
    await writer.flush();
    const whole = readDiscovery(config, dir);
    expect(whole.schemas).toBe(true);
    const summarised = readDiscovery(config, dir);
    expect(summarised.schemas).toBe(false);
    const strip = (view: typeof whole) =>
      view.servers.map(({ entry: _entry, ageMs: _age, tools, ...server }) => ({ ...server, tools: tools.map(({ inputSchema: _schema, ...tool }) => tool) }));
    expect(strip(summarised)).toEqual(strip(whole));
    expect(summarised.servers[0]!.tools[0]!.inputSchema).toBeUndefined();
    expect(readDiscovery(config, dir, { schemas: true }).servers[0]!.tools[0]!.inputSchema).toEqual({ type: "object" });
    // Another entry written (a list_changed, a refresh): the summary is stale at once.
    writer.read(config.servers[1]!, snapshot("gamma"));
    await writer.flush();
    const after = readDiscovery(config, dir);
    expect(after.schemas).toBe(true);
    expect(after.servers[1]!.tools.map((tool) => tool.tool)).toEqual(["gamma"]);
    // And a changed filter is never answered from a summary made under the old one.
    const filtered = readDiscovery(configOf({ demo: stdio({ tools: { deny: ["a*"] } }), other: stdio({ args: ["other.js"] }) }), dir);
    expect(filtered.servers[0]!.tools.map((tool) => tool.tool)).toEqual(["beta"]);
  });

  it("with schemas and only some servers, reads those servers' entries alone", async () => {
    const dir = fresh();
    const config = configOf({ demo: stdio(), other: stdio({ args: ["other.js"] }) });
    const writer = new CacheWriter(dir, silentLogger);
    writer.read(config.servers[0]!, snapshot("alpha"));
    writer.read(config.servers[1]!, snapshot("gamma"));
    await writer.flush();
    const view = readDiscovery(config, dir, { schemas: true, only: ["other"] });
    expect(view.servers.map((server) => server.server)).toEqual(["other"]);
    expect(view.servers[0]!.tools.map((tool) => tool.tool)).toEqual(["gamma"]);
    expect(view.servers[0]!.tools[0]!.inputSchema).toEqual({ type: "object" });
    // without schemas, `only` changes nothing: the summary's view is every server's
    expect(readDiscovery(config, dir, { only: ["other"] }).servers.map((server) => server.server)).toEqual(["demo", "other"]);
  });

  it("keeps the search index until what it is built from changes", async () => {
    const dir = fresh();
    const config = configOf({ demo: stdio() });
    const writer = new CacheWriter(dir, silentLogger);
    writer.read(config.servers[0]!, snapshot("alpha"));
    await writer.flush();
    expect((await searchIndexFor(readDiscovery(config, dir))).built).toBe(true);
    expect((await searchIndexFor(readDiscovery(config, dir))).built).toBe(false);
    // The same catalogue read again: a new readAt, the same index.
    const before = indexKey(readDiscovery(config, dir));
    writer.read(config.servers[0]!, snapshot("alpha"));
    await writer.flush();
    expect(indexKey(readDiscovery(config, dir))).toBe(before);
    expect((await searchIndexFor(readDiscovery(config, dir))).built).toBe(false);
    // A new tool, or a new filter: built again.
    writer.read(config.servers[0]!, snapshot("alpha", "beta"));
    await writer.flush();
    expect((await searchIndexFor(readDiscovery(config, dir))).built).toBe(true);
    expect((await searchIndexFor(readDiscovery(configOf({ demo: stdio({ tools: { deny: ["beta"] } }) }), dir))).built).toBe(true);
  });

  it("keeps the tools out of the index's first line, and a search read from the file gives the hits of the index built", async () => {
    const dir = fresh();
    const config = configOf({ demo: stdio() });
    const writer = new CacheWriter(dir, silentLogger);
    writer.read(config.servers[0]!, snapshot("alpha", "beta", "gamma"));
    await writer.flush();
    const built = await searchIndexFor(readDiscovery(config, dir));
    expect(built.built).toBe(true);
    const [file] = readdirSync(indexesDir(dir)).map((name) => join(indexesDir(dir), name));
    const firstLine = readFileSync(file!, "utf8").split("\n")[0]!;
    // names and descriptions are tables, looked up for a query's hits and name tiers alone
    expect(firstLine).toContain('"toolCount":3');
    expect(firstLine).not.toContain("beta");
    const kept = await searchIndexFor(readDiscovery(config, dir));
    expect(kept.built).toBe(false);
    for (const name of ["alpha", "beta", "gamma"]) {
      const [hit] = search(kept.index, name, 1);
      expect(hit).toMatchObject({ tool: name, description: `Does ${name}` });
      expect(hit).toEqual(search(built.index, name, 1)[0]);
    }
  });

  it("builds the search index again when the kept one is of another index version", async () => {
    const dir = fresh();
    const config = configOf({ demo: stdio() });
    const writer = new CacheWriter(dir, silentLogger);
    writer.read(config.servers[0]!, snapshot("alpha"));
    await writer.flush();
    expect((await searchIndexFor(readDiscovery(config, dir))).built).toBe(true);
    // What an older mcpx kept for the same catalogue: its index is read by another query side.
    const [file] = readdirSync(indexesDir(dir)).map((name) => join(indexesDir(dir), name));
    const text = readFileSync(file!, "utf8");
    const older = text.replace(`"index":{"version":${INDEX_VERSION},`, `"index":{"version":${INDEX_VERSION - 1},`);
    expect(older).not.toBe(text);
    writeFileSync(file!, older);
    const again = await searchIndexFor(readDiscovery(config, dir));
    expect(again.built).toBe(true);
    expect(again.index.version).toBe(INDEX_VERSION);
    expect((await searchIndexFor(readDiscovery(config, dir))).built).toBe(false);
    // A damaged count (a query would make an array that long) is no index either.
    const current = readFileSync(file!, "utf8");
    const damaged = current.replace('"toolCount":1,', '"toolCount":1e12,');
    expect(damaged).not.toBe(current);
    writeFileSync(file!, damaged);
    expect((await searchIndexFor(readDiscovery(config, dir))).built).toBe(true);
  });
});

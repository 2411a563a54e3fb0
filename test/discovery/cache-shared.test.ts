/**
 * The schema cache shared through a real Redis (broker/redis/schemas.ts): what the writer puts
 * there holds no part of a server's definition (no env value, header, args, URL or cwd, where
 * tokens live); a state directory with no read of a server takes the shared entry as its own
 * (private, atomically, listed as cached) and one of another definition, another version or
 * another shape is ignored, never misread; a store that fails is logged and the files are
 * written all the same; the table keeps the latest read, a bounded number of entries and
 * entries of a bounded size, all under the store's prefix.
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_TIMINGS, redisClient, redisTarget } from "../../src/broker/redis/connection.js";
import { RedisLink } from "../../src/broker/redis/link.js";
import { openRedisStore } from "../../src/broker/redis/open.js";
import { openSharedSchemas } from "../../src/broker/redis/open-schemas.js";
import { RedisSchemas } from "../../src/broker/redis/schemas.js";
import type { BrokerStore, SchemaTable } from "../../src/broker/store-api.js";
import { configFromObject } from "../../src/config/index.js";
import type { Config } from "../../src/config/types.js";
import { ENTRY_VERSION } from "../../src/discovery/cache-entry.js";
import { entryFile } from "../../src/discovery/cache-files.js";
import { definitionOf, serverKey } from "../../src/discovery/cache-key.js";
import { pullShared } from "../../src/discovery/cache-pull.js";
import { readDiscovery } from "../../src/discovery/cache-read.js";
import { readEntry } from "../../src/discovery/cache-read-entry.js";
import { definitionHash } from "../../src/discovery/cache-shared.js";
import type { CatalogueSnapshot } from "../../src/discovery/cache-snapshot.js";
import { CacheWriter } from "../../src/discovery/cache-writer.js";
import { createLogger } from "../../src/util/log.js";
import { redisInstalled, RedisServer } from "../helpers/redis-server.js";

const SECRETS = ["env-value-s3cret", "header-t0ken", "arg-k3y", "url-pa55", "query-k3y"];
const configOf = (servers: Record<string, object>): Config => configFromObject({ mcpServers: servers }, join(tmpdir(), "mcpx-shared-test.json"));
const stdio = (extra: object = {}) => ({ command: "node", args: ["server.js", "--api-key=arg-k3y"], env: { API_KEY: "env-value-s3cret" }, ...extra });
const http = { url: "https://user:url-pa55@example.test/mcp?key=query-k3y", headers: { Authorization: "Bearer header-t0ken" } };
const fresh = (): string => mkdtempSync(join(tmpdir(), "mcpx-shared-"));

const snapshot = (...tools: string[]): CatalogueSnapshot => ({
  revision: "2025-11-25",
  transport: "stdio",
  serverInfo: { name: "demo", version: "1.0.0" },
  instructions: "Demo tools.",
  catalog: {
    tools: tools.map((name) => ({ name, description: `Does ${name}`, inputSchema: { type: "object" } })),
    prompts: [],
    resources: [],
    resourceTemplates: [],
  },
});

/** A logger that keeps its warnings. */
function recordingLog(): { log: ReturnType<typeof createLogger>; warnings: string[] } {
  const warnings: string[] = [];
  return { log: createLogger({}, "warn", (line) => warnings.push(line)), warnings };
}

interface Opened {
  store: BrokerStore;
  schemas: SchemaTable;
  prefix: string;
}

describe.skipIf(!redisInstalled)("the schema cache shared through Redis", () => {
  let server: RedisServer;
  let raw: Redis;
  const stores: BrokerStore[] = [];
  beforeAll(async () => {
    server = await RedisServer.start();
    raw = redisClient(redisTarget(server.url), DEFAULT_TIMINGS, "test");
    await raw.connect();
  });
  afterAll(async () => {
    await Promise.all(stores.map((store) => store.close()));
    raw?.disconnect();
    await server?.dispose();
  });

  /** A store on its own prefix: empty. */
  async function openStore(): Promise<Opened> {
    const prefix = `t${randomUUID()}:`;
    const store = await openRedisStore(`${server.url}?prefix=${prefix}`, fresh());
    stores.push(store);
    return { store, schemas: store.schemas!, prefix };
  }

  /** Every key under the prefix, and every value (strings and sorted sets) as text. */
  async function everything(prefix: string): Promise<string> {
    const keys = await raw.keys(`${prefix}*`);
    const values = await Promise.all(
      keys.map(async (key) => ((await raw.type(key)) === "zset" ? (await raw.zrange(key, "0", "-1")).join(" ") : ((await raw.get(key)) ?? ""))),
    );
    return [...keys, ...values].join("\n");
  }

  it("the writer puts each good read there, with none of the definition's secrets", async () => {
    const { schemas, prefix } = await openStore();
    const config = configOf({ local: stdio(), remote: http });
    const dir = fresh();
    const writer = new CacheWriter(dir, recordingLog().log, schemas);
    for (const one of config.servers) writer.read(one, snapshot("search", "fetch"));
    await writer.flush();
    const kept = await schemas.list();
    expect(kept.map((entry) => entry.key).sort()).toEqual(config.servers.map((one) => definitionHash(definitionOf(one))).sort());
    const stored = await everything(prefix);
    expect(stored).toContain('"name":"search"');
    for (const secret of SECRETS) expect(stored, secret).not.toContain(secret);
    // The files keep the definition (to check an entry against), and the args' key with it: what the store must not have.
    expect(JSON.stringify(readEntry(dir, serverKey(config.servers[0]!)))).toContain("arg-k3y");
    expect(stored).not.toContain("server.js");
    expect(stored).not.toContain("example.test");
    // Nor the files' fast key, a hash not made to withstand working back to the args.
    for (const one of config.servers) expect(stored).not.toContain(serverKey(one));
  });

  it("a state directory with no read takes the shared entry: private, listed as cached, without starting anything", async () => {
    const opened = await openStore();
    const { schemas } = opened;
    const config = configOf({ local: stdio() });
    await publish(opened, config, snapshot("search", "fetch"));
    const other = fresh();
    expect(readDiscovery(config, other).servers[0]!.state).toBe("never read");
    expect(await pullShared(other, config.servers, schemas)).toEqual(["local"]);
    const [view] = readDiscovery(config, other, { schemas: true }).servers;
    expect(view).toMatchObject({ state: "cached", toolCount: 2, description: "Demo tools." });
    expect(view!.tools.map((tool) => tool.name)).toEqual(["local__search", "local__fetch"]);
    // Written as this machine's own read: its definition, private.
    expect(view!.entry?.definition).toEqual(definitionOf(config.servers[0]!));
    expect(statSync(entryFile(other, serverKey(config.servers[0]!))).mode & 0o777).toBe(0o600);
    // Nothing more to fetch once it is here.
    expect(await pullShared(other, config.servers, schemas)).toEqual([]);
  });

  it("under another name the entry is the same definition's, signed under the name read here", async () => {
    const opened = await openStore();
    const { schemas } = opened;
    await publish(opened, configOf({ first: stdio() }), snapshot("search"));
    const config = configOf({ second: stdio() });
    const other = fresh();
    expect(await pullShared(other, config.servers, schemas)).toEqual(["second"]);
    expect(readDiscovery(config, other).servers[0]!.tools[0]).toMatchObject({ name: "second__search", signature: expect.stringContaining("second__search") });
  });

  it("ignores an entry of another definition, another version or another shape", async () => {
    const opened = await openStore();
    const { schemas, prefix } = opened;
    const config = configOf({ local: stdio() });
    const stored = `${prefix}schema:${definitionHash(definitionOf(config.servers[0]!))}`;
    const good = JSON.parse(await publish(opened, config, snapshot("search"))) as Record<string, unknown>;
    const other = fresh();
    const variants = [
      { ...good, definitionHash: definitionHash(definitionOf(configOf({ local: stdio({ args: ["other.js"] }) }).servers[0]!)) },
      { ...good, version: ENTRY_VERSION - 1 },
      { ...good, read: { ...(good.read as object), tools: "search" } },
      { ...good, read: { ...(good.read as object), readAt: "yesterday" } },
    ];
    for (const variant of variants) {
      await raw.set(stored, JSON.stringify(variant));
      expect(await pullShared(other, config.servers, schemas), JSON.stringify(variant).slice(0, 80)).toEqual([]);
    }
    await raw.set(stored, "{not json");
    expect(await pullShared(other, config.servers, schemas)).toEqual([]);
    expect(readDiscovery(config, other).servers[0]!.state).toBe("never read");
  });

  it("keeps a failure noted here beside the fetched read, and never fetches over a good read here", async () => {
    const opened = await openStore();
    const { schemas } = opened;
    const config = configOf({ local: stdio() });
    const dir = fresh();
    const writer = new CacheWriter(dir, recordingLog().log);
    writer.failed(config.servers[0]!, "it did not start");
    await writer.flush();
    // Read before the failure here: the failure is the newer news.
    await publish(opened, config, snapshot("search"), Date.now() - 60_000);
    expect(await pullShared(dir, config.servers, schemas)).toEqual(["local"]);
    const [view] = readDiscovery(config, dir).servers;
    expect(view).toMatchObject({ state: "last read failed", toolCount: 1, failure: { reason: "it did not start" } });

    const own = fresh();
    const mine = new CacheWriter(own, recordingLog().log);
    mine.read(config.servers[0]!, snapshot("mine"));
    await mine.flush();
    expect(await pullShared(own, config.servers, schemas)).toEqual([]);
    expect(readDiscovery(config, own).servers[0]!.tools.map((tool) => tool.tool)).toEqual(["mine"]);
  });

  it("a store that fails is logged; the files are written all the same", async () => {
    const { store, schemas } = await openStore();
    await store.close();
    const config = configOf({ local: stdio() });
    const dir = fresh();
    const { log, warnings } = recordingLog();
    const writer = new CacheWriter(dir, log, schemas);
    writer.read(config.servers[0]!, snapshot("search"));
    await writer.flush();
    expect(readDiscovery(config, dir).servers[0]!.toolCount).toBe(1);
    expect(warnings.join("\n")).toContain("could not put the schema cache entry in the shared store");
  });

  describe("the Redis table", () => {
    const link = (prefix: string): RedisLink => new RedisLink(raw, prefix, "test");

    it("keeps the latest read: an earlier one never writes over it", async () => {
      const { schemas } = await openStore();
      expect(await schemas.put("k1", "later", 2_000)).toBe(true);
      expect(await schemas.put("k1", "earlier", 1_000)).toBe(false);
      expect(await schemas.get(["k1", "k2"])).toEqual(["later", undefined]);
      expect(await schemas.put("k1", "latest", 3_000)).toBe(true);
      expect(await schemas.list()).toEqual([{ key: "k1", readAtMs: 3_000 }]);
    });

    it("keeps at most its count, the least recently read going first, and everything under the prefix", async () => {
      const prefix = `t${randomUUID()}:`;
      const table = new RedisSchemas(link(prefix), { max: 3, maxBytes: 1024 });
      for (let at = 1; at <= 5; at++) await table.put(`k${at}`, `entry ${at}`, at * 1000);
      expect((await table.list()).map((entry) => entry.key)).toEqual(["k5", "k4", "k3"]);
      expect(await table.get(["k1", "k2", "k3"])).toEqual([undefined, undefined, "entry 3"]);
      expect((await raw.keys(`${prefix}*`)).sort()).toEqual([`${prefix}schema:k3`, `${prefix}schema:k4`, `${prefix}schema:k5`, `${prefix}schemas`]);
      expect(await raw.keys("schema*")).toEqual([]);
    });

    it("refuses an entry beyond its size, and reads one stored beyond it as absent", async () => {
      const prefix = `t${randomUUID()}:`;
      const table = new RedisSchemas(link(prefix), { max: 3, maxBytes: 1024 });
      await expect(table.put("big", "x".repeat(1025), 1)).rejects.toThrow(/1025 bytes; the shared store keeps entries of at most 1024/);
      expect(await table.list()).toEqual([]);
      await raw.set(`${prefix}schema:big`, "x".repeat(2048));
      expect(await table.get(["big"])).toEqual([undefined]);
    });
  });

  describe("opened alone, for a command", () => {
    it("fetches and puts over one connection", async () => {
      const prefix = `t${randomUUID()}:`;
      const opened = await openSharedSchemas(`${server.url}?prefix=${prefix}`);
      try {
        expect(await opened.schemas.put("k", "entry", 1)).toBe(true);
        expect(await opened.schemas.get(["k"])).toEqual(["entry"]);
        expect(opened.where).not.toContain(prefix);
      } finally {
        await opened.close();
      }
    });

    it("gives up on a Redis that accepts and never answers within the connect timeout", async () => {
      server.pause();
      try {
        const started = Date.now();
        await expect(openSharedSchemas(server.url, { connectTimeoutMs: 300 })).rejects.toThrow(/cannot be used: it did not answer in time/);
        expect(Date.now() - started).toBeLessThan(1_000);
      } finally {
        server.resume();
      }
    });
  });

  /** Put the config's one server's read in the store as a writer on another machine would (said to be read at `at`, when given); the shared text. */
  async function publish(shared: Opened, config: Config, read: CatalogueSnapshot, at?: number): Promise<string> {
    const writer = new CacheWriter(fresh(), recordingLog().log, shared.schemas);
    writer.read(config.servers[0]!, read);
    await writer.flush();
    const key = definitionHash(definitionOf(config.servers[0]!));
    const [text] = await shared.schemas.get([key]);
    if (at === undefined) return text!;
    const older = JSON.parse(text!) as { read: { readAt: string } };
    older.read.readAt = new Date(at).toISOString();
    await raw.set(`${shared.prefix}schema:${key}`, JSON.stringify(older));
    return JSON.stringify(older);
  }
});

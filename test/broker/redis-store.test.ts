/**
 * The Redis store: the behaviour every store has (store-suite.ts) against a real redis-server
 * on loopback, and what only a store across a network has to show: a restart of Redis with the
 * AOF loses no answer; while Redis is away (stopped, or hung) every call fails fast with a clear
 * STORE_UNAVAILABLE that does not show the password, unwritable() says why, and the store works
 * again by itself once Redis is back; forgotten content leaves the AOF once rewritten.
 */
import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { tooOld } from "../../src/broker/redis/connection.js";
import { openRedisStore, type RedisStoreOptions } from "../../src/broker/redis/open.js";
import type { BrokerStore } from "../../src/broker/store-api.js";
import type { QuestionRecord } from "../../src/broker/types.js";
import { GatewayError } from "../../src/protocol/errors.js";
import { freePort, redisInstalled, RedisServer } from "../helpers/redis-server.js";
import { until } from "../helpers/until.js";
import { tempStateDir } from "./support.js";
import { storeSuite } from "./store-suite.js";

const HEARTBEAT = { refreshMs: 100, expireMs: 400 };
/** Short timings, so "fails fast" and "back by itself" are quick to see. */
const FAST: RedisStoreOptions = { heartbeat: HEARTBEAT, connection: { connectTimeoutMs: 500, commandTimeoutMs: 400, maxReconnectDelayMs: 200 } };

describe.skipIf(!redisInstalled)("the Redis store", () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await RedisServer.start();
  });
  afterAll(async () => {
    await server?.dispose();
  });

  // Each test its own prefix on the one server: a store with nothing in it.
  storeSuite("Redis", async () => {
    const url = `${server.url}?prefix=${encodeURIComponent(`t${randomUUID()}:`)}`;
    const dir = tempStateDir();
    return {
      store: await openRedisStore(url, dir, FAST),
      second: () => openRedisStore(url, tempStateDir(), FAST),
      heartbeatLapseMs: HEARTBEAT.expireMs,
    };
  });
});

function question(over: Partial<QuestionRecord> = {}): QuestionRecord {
  const now = Date.now();
  return {
    id: `q-${randomUUID()}`,
    server: "files",
    kind: "elicitation",
    method: "elicitation/create",
    mode: "form",
    message: "Your password?",
    params: { message: "Your password?", requestedSchema: { type: "object" } },
    requestedSchema: { type: "object" },
    audience: "person",
    audienceReason: "asks for a password",
    createdAt: new Date(now).toISOString(),
    expiresAt: new Date(now + 60_000).toISOString(),
    state: "pending",
    ownerPid: process.pid,
    ownerInstance: "instance-a",
    ...over,
  };
}

/** What a call threw, and how long it took. */
async function failure(call: () => Promise<unknown>): Promise<{ error: unknown; ms: number }> {
  const started = performance.now();
  try {
    await call();
  } catch (error) {
    return { error, ms: performance.now() - started };
  }
  throw new Error("the call succeeded");
}

describe.skipIf(!redisInstalled)("the Redis store across Redis's own failures", () => {
  const servers: RedisServer[] = [];
  const stores: BrokerStore[] = [];
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
    for (const server of servers.splice(0)) {
      server.resume();
      await server.dispose();
    }
  });

  async function start(options: { appendonly?: boolean; password?: string } = {}): Promise<RedisServer> {
    const server = await RedisServer.start(options);
    servers.push(server);
    return server;
  }

  async function storeOn(url: string): Promise<BrokerStore> {
    const store = await openRedisStore(url, tempStateDir(), FAST);
    stores.push(store);
    return store;
  }

  it("loses no answer when Redis is killed and restarted with the AOF on, and the store reconnects by itself", async () => {
    const server = await start({ appendonly: true });
    const store = await storeOn(server.url);
    const answered = question({ audience: "agent" });
    const pending = question({ audience: "agent" });
    await store.questions.insert(answered);
    await store.questions.insert(pending);
    expect(await store.questions.settle(answered.id, "answered", { action: "accept", content: { name: "Ada" }, by: "web" })).toBe(true);
    expect(await store.questions.markDelivered(answered.id)).toBe(true);
    await store.calls.create("call-1", "files", "read", {});
    const secret = await store.secrets.get("api-token");

    await server.stop("SIGKILL");
    await server.restart();
    await retryUntilUp(() => store.questions.get(answered.id));

    const after = await store.questions.get(answered.id);
    expect(after?.state).toBe("answered");
    expect(after?.answer).toMatchObject({ action: "accept", content: { name: "Ada" }, by: "web" });
    expect(after?.deliveredAt).toBeDefined();
    expect((await store.questions.list()).map((record) => record.id)).toEqual([pending.id]);
    expect(await store.questions.settle(answered.id, "answered", { action: "decline", by: "cli" })).toBe(false);
    expect(await store.questions.settle(pending.id, "answered", { action: "decline", by: "cli" })).toBe(true);
    expect((await store.calls.get("call-1"))?.state).toBe("running");
    expect(await store.secrets.get("api-token")).toBe(secret);
  });

  it("while Redis is stopped a settle fails at once with STORE_UNAVAILABLE, unwritable says so, and all works again once it is back", async () => {
    const server = await start({ appendonly: true, password: "s3cret-pw" });
    const store = await storeOn(server.url);
    const waiting = await storeOn(server.url);
    let heard = 0;
    waiting.onChange(() => {
      heard += 1;
    });
    const record = question();
    await store.questions.insert(record);
    expect(store.where).not.toContain("s3cret-pw");
    expect(store.where).toContain(`127.0.0.1:${server.port}`);

    await server.stop();
    const { error, ms } = await failure(() => store.questions.settle(record.id, "answered", { action: "decline", by: "cli" }));
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).code).toBe("STORE_UNAVAILABLE");
    expect((error as GatewayError).message).toContain(`127.0.0.1:${server.port}`);
    expect((error as GatewayError).message).not.toContain("s3cret-pw");
    expect((error as GatewayError).message, (error as GatewayError).message).toContain("not connected");
    expect(ms).toBeLessThan(500);
    const why = await store.unwritable();
    expect(why).toContain(`127.0.0.1:${server.port}`);
    expect(why).not.toContain("s3cret-pw");
    for (const call of [() => store.questions.list(), () => store.audit.append({ kind: "call", identity: "local", server: "files", outcome: "ok" })]) {
      const again = await failure(call);
      expect((again.error as GatewayError).code).toBe("STORE_UNAVAILABLE");
      expect(again.ms).toBeLessThan(500);
    }

    await server.restart();
    await retryUntilUp(() => store.questions.get(record.id));
    expect(await store.unwritable()).toBeUndefined();
    // The other store's listeners hear that something may have changed while it was away, and then the answer itself.
    await until(() => heard > 0, "the reconnection told to the listeners", 5_000);
    const before = heard;
    expect(await store.questions.settle(record.id, "answered", { action: "decline", by: "cli" })).toBe(true);
    await until(() => heard > before, "the answer heard after Redis came back", 3_000);
    expect((await waiting.questions.get(record.id))?.state).toBe("answered");
  });

  it("while Redis hangs (answers nothing) a call fails after the command timeout, not later", async () => {
    const server = await start();
    const store = await storeOn(server.url);
    const record = question();
    await store.questions.insert(record);
    server.pause();
    const { error, ms } = await failure(() => store.questions.settle(record.id, "answered", { action: "decline", by: "cli" }));
    expect((error as GatewayError).code).toBe("STORE_UNAVAILABLE");
    expect((error as GatewayError).message).toContain("did not answer in time");
    expect(ms).toBeGreaterThanOrEqual(350);
    expect(ms).toBeLessThan(1_500);
    expect(await store.unwritable()).toContain("did not answer in time");
    server.resume();
    await retryUntilUp(() => store.questions.get(record.id));
  });

  it("cannot be opened while Redis is unreachable: STORE_UNAVAILABLE, quickly", async () => {
    const port = await freePort();
    const { error, ms } = await failure(() => openRedisStore(`redis://:pw@127.0.0.1:${port}`, tempStateDir(), FAST));
    expect((error as GatewayError).code).toBe("STORE_UNAVAILABLE");
    expect((error as GatewayError).message).toContain(`127.0.0.1:${port}`);
    expect((error as GatewayError).message).not.toContain(":pw@");
    expect(ms).toBeLessThan(2_000);
  });

  it("a forgotten person-only answer leaves the AOF once compact() has had it rewritten", async () => {
    const server = await start({ appendonly: true });
    const store = await storeOn(server.url);
    const record = question();
    const kept = question({ audience: "agent" });
    const secret = `hunter-${randomUUID()}`;
    const plain = `kept-${randomUUID()}`;
    await store.questions.insert(record);
    await store.questions.insert(kept);
    await store.questions.settle(record.id, "answered", { action: "accept", content: { password: secret }, by: "web" });
    await store.questions.settle(kept.id, "answered", { action: "accept", content: { name: plain }, by: "web" });
    const before = aofText(server);
    expect(await store.questions.forgetPersonOnlyContent(record.id)).toBe(true);
    expect(await store.compact()).toBe(true);
    expect(before).toContain(secret);
    // The rewrite replaces the files: the forgotten answer is in none of them, the agent's is still there.
    await until(() => !aofText(server).includes(secret), "the AOF rewritten without the secret", 10_000);
    expect(aofText(server)).toContain(plain);
    expect((await store.questions.get(record.id))?.answer).toMatchObject({ action: "accept", by: "web" });
  });

  it("hears another instance's answer within milliseconds", async () => {
    const server = await start();
    const [a, b] = [await storeOn(server.url), await storeOn(server.url)];
    const latencies: number[] = [];
    for (let i = 0; i < 20; i += 1) {
      const heard = new Promise<number>((resolve) => {
        const stop = b.onChange(() => {
          stop();
          resolve(performance.now());
        });
      });
      const sent = performance.now();
      await a.questions.insert(question());
      latencies.push((await heard) - sent);
    }
    latencies.sort((x, y) => x - y);
    expect(latencies[Math.floor(latencies.length / 2)]).toBeLessThan(20);
  });
});

describe.skipIf(!redisInstalled)("the Redis store's own keys", () => {
  let server: RedisServer;
  const stores: BrokerStore[] = [];
  beforeAll(async () => {
    server = await RedisServer.start();
  });
  afterAll(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
    await server?.dispose();
  });

  async function storeOn(prefix: string, options: RedisStoreOptions = FAST): Promise<BrokerStore> {
    const store = await openRedisStore(`${server.url}?prefix=${prefix}`, tempStateDir(), options);
    stores.push(store);
    return store;
  }

  it("keeps stores with different prefixes apart, and says what a second question under one id is", async () => {
    const [a, b] = [await storeOn(`a${randomUUID()}:`), await storeOn(`b${randomUUID()}:`)];
    const record = question();
    await a.questions.insert(record);
    expect(await b.questions.get(record.id)).toBeUndefined();
    expect(await b.secrets.get("api-token")).not.toBe(await a.secrets.get("api-token"));
    const { error } = await failure(() => a.questions.insert(record));
    expect(error).not.toBeInstanceOf(GatewayError);
    expect((error as Error).message).toBe(`question ${record.id} is already stored`);
  });

  it("caps the audit stream near its limit however long retention is not run", async () => {
    const store = await storeOn(`c${randomUUID()}:`, { ...FAST, auditCap: 100 });
    for (let i = 0; i < 500; i += 1) await store.audit.append({ kind: "call", identity: "local", server: "files", outcome: "ok", detail: String(i) });
    const kept = await store.audit.list();
    expect(kept.length).toBeGreaterThanOrEqual(100);
    expect(kept.length).toBeLessThan(300);
    expect(kept.at(-1)?.detail).toBe("499");
  });
});

describe("the Redis versions the store takes", () => {
  it("takes Redis 7 and Valkey (which says redis_version 7.2.4), refuses Redis 6 saying why", () => {
    expect(tooOld("# Server\r\nredis_version:7.0.15\r\nredis_mode:standalone\r\n")).toBeUndefined();
    expect(tooOld("# Server\r\nredis_version:7.2.4\r\nserver_name:valkey\r\nvalkey_version:8.0.1\r\n")).toBeUndefined();
    expect(tooOld("# Server\r\nredis_version:6.2.14\r\n")).toContain("mcpx needs Redis 7 or later");
    expect(tooOld("# Server\r\n")).toContain("does not say its version");
  });
});

/** Every file of the AOF directory, as text. */
function aofText(server: RedisServer): string {
  const dir = join(server.dir, "appendonlydir");
  return readdirSync(dir)
    .map((file) => readFileSync(join(dir, file), "latin1"))
    .join("\n");
}

/** Call until it stops failing with STORE_UNAVAILABLE (the store reconnecting by itself), bounded. */
async function retryUntilUp(call: () => Promise<unknown>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await call();
      return;
    } catch (error) {
      if (!(error instanceof GatewayError) || Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

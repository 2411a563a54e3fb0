/**
 * A call already waiting for its answer rides out a Redis restart (issue 19: "restarting Redis
 * loses no answer and hangs no host"), against a real redis-server with the AOF, killed with
 * SIGKILL and started again: the waiting broker's steps that fall in the outage are tried again
 * rather than ending the call; an answer written by another store as Redis comes back reaches it;
 * no instance takes it for gone because its heartbeat lapsed in the outage; and when Redis stays
 * away past the question's deadline and the bound, the wait ends with STORE_UNAVAILABLE instead of
 * never. A new question still fails at once.
 */
import { randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { Broker } from "../../src/broker/broker.js";
import { openRedisStore, type RedisStoreOptions } from "../../src/broker/redis/open.js";
import type { BrokerStore } from "../../src/broker/store-api.js";
import type { QuestionRecord } from "../../src/broker/types.js";
import { GatewayError } from "../../src/protocol/errors.js";
import { silentLogger } from "../../src/util/log.js";
import { RedisServer, redisInstalled } from "../helpers/redis-server.js";
import { until } from "../helpers/until.js";
import { profileForm, tempStateDir, within } from "./support.js";

const HEARTBEAT = { refreshMs: 100, expireMs: 600 };
/** Short timings: an outage of 1.5 s outlasts every heartbeat key; everyone reconnects within 250 ms of Redis. */
const TIMINGS: RedisStoreOptions = { heartbeat: HEARTBEAT, connection: { connectTimeoutMs: 500, commandTimeoutMs: 400, maxReconnectDelayMs: 250 } };
const OUTAGE_MS = 1_500;

describe.skipIf(!redisInstalled)("a call waiting for its answer across a Redis restart", () => {
  const servers: RedisServer[] = [];
  const closers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
    for (const server of servers.splice(0)) await server.dispose();
  });

  async function redis(): Promise<{ server: RedisServer; url: string }> {
    const server = await RedisServer.start({ appendonly: true });
    servers.push(server);
    return { server, url: `${server.url}?prefix=${encodeURIComponent(`t${randomUUID()}:`)}` };
  }

  /** An instance: a store on `url` and a broker on it, started (heartbeat, sweeps) unless told not to. */
  async function instance(url: string, options: { start?: boolean; rideOutMs?: number } = {}): Promise<{ store: BrokerStore; broker: Broker }> {
    const store = await openRedisStore(url, tempStateDir(), TIMINGS);
    const broker = new Broker(store, silentLogger, options.rideOutMs === undefined ? {} : { rideOutMs: options.rideOutMs });
    closers.push(async () => {
      await broker.stop();
      await store.close();
    });
    if (options.start !== false) await broker.start();
    return { store, broker };
  }

  /** `step` once the store is back (it fails at once while Redis is away). */
  async function retryWhileAway<T>(step: () => Promise<T>): Promise<T> {
    for (let tries = 0; ; tries++) {
      try {
        return await step();
      } catch (error) {
        if (!(error instanceof GatewayError && error.code === "STORE_UNAVAILABLE") || tries > 100) throw error;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    }
  }

  /** What the gateway does with a settled question (host/questions.ts): wait, then record its delivery. */
  async function waitAndDeliver(broker: Broker, id: string): Promise<QuestionRecord> {
    const settled = await broker.wait(id);
    await broker.delivered(settled.id);
    return settled;
  }

  /** Answer on `broker` as soon as its store is back (each try fails fast while Redis is away). */
  async function answerOnceBack(broker: Broker, id: string, name: string): Promise<QuestionRecord> {
    let answered: QuestionRecord | undefined;
    await until(
      async () => {
        try {
          answered = await broker.answer(id, { action: "accept", content: { name } }, { by: "web" });
          return true;
        } catch (error) {
          if (error instanceof GatewayError && error.code === "STORE_UNAVAILABLE") return false;
          throw error;
        }
      },
      "an answer once Redis is back",
      10_000,
    );
    return answered!;
  }

  it("a wait that begins while Redis is away gets the answer given once it is back, and its delivery is recorded", async () => {
    const { server, url } = await redis();
    const asker = await instance(url);
    const answerer = await instance(url);
    const asked = await asker.broker.open(profileForm(), {}, 60);
    // Redis dies between the question's insert and the waiting side's first read of it.
    await server.stop("SIGKILL");
    const waited = waitAndDeliver(asker.broker, asked.id).then(
      (record) => ({ record }),
      (error: unknown) => ({ error }),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    await server.restart();
    await answerOnceBack(answerer.broker, asked.id, "after");
    const outcome = await within(waited, 10_000, "the waiting ask");
    expect("error" in outcome ? String(outcome.error) : undefined).toBeUndefined();
    expect((outcome as { record: QuestionRecord }).record.answer).toMatchObject({ action: "accept", content: { name: "after" }, by: "web" });
    await until(async () => (await answerer.store.questions.get(asked.id))?.deliveredAt !== undefined, "the delivery recorded", 5_000);
  });

  it("an outage longer than the heartbeat: nobody takes the asker for gone, and an answer given the moment Redis is back reaches it", async () => {
    const { server, url } = await redis();
    const asker = await instance(url);
    const sweeper = await instance(url);
    const asked = await asker.broker.open(profileForm(), {}, 60);
    const waited = waitAndDeliver(asker.broker, asked.id).then(
      (record) => ({ record }),
      (error: unknown) => ({ error }),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    await server.stop("SIGKILL");
    // A sweep in the outage fails at once, and is only tried again.
    await expect(sweeper.broker.sweep()).rejects.toMatchObject({ code: "STORE_UNAVAILABLE" });
    await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));
    await server.restart();
    // A process that opens the store at once (`mcpx elicit answer`, a new instance) sweeps, then answers,
    // before the asker has reconnected: its heartbeat key expired in the outage.
    const late = await instance(url, { start: false });
    expect(await late.store.questions.get(asked.id)).toMatchObject({ state: "pending" });
    expect(await late.store.liveness.alive(asker.broker.owner)).toBe(true);
    await late.broker.sweep();
    expect((await late.store.questions.get(asked.id))?.state).toBe("pending");
    const answered = await late.broker.answer(asked.id, { action: "accept", content: { name: "at once" } }, { by: "cli" });
    expect(answered.state).toBe("answered");
    const outcome = await within(waited, 10_000, "the waiting ask");
    expect("error" in outcome ? String(outcome.error) : undefined).toBeUndefined();
    expect((outcome as { record: QuestionRecord }).record.answer).toMatchObject({ action: "accept", content: { name: "at once" }, by: "cli" });
    // Once a whole heartbeat expiry has passed since the restart, a missing key is a death again.
    await new Promise((resolve) => setTimeout(resolve, HEARTBEAT.expireMs + 100));
    expect(await late.store.liveness.alive({ pid: process.pid, instance: `gone-${randomUUID()}` })).toBe(false);
    expect(await late.store.liveness.alive(asker.broker.owner)).toBe(true);
  });

  it("for a heartbeat's life after Redis restarted, an instance whose key lapsed in the outage is alive and its address not yet known; then it is gone", async () => {
    const { server, url } = await redis();
    // An instance that joined, advertised, and then stopped beating without leaving (killed).
    const silent = { pid: process.pid, instance: `silent-${randomUUID()}` };
    const doomed = await openRedisStore(url, tempStateDir(), TIMINGS);
    doomed.liveness.join(silent);
    doomed.liveness.advertise(silent.instance, "http://127.0.0.1:7001");
    const judge = await instance(url, { start: false });
    await until(async () => (await judge.store.liveness.addressOf(silent.instance)) === "http://127.0.0.1:7001", "the address advertised", 3_000);
    await doomed.close();
    await server.stop("SIGKILL");
    await new Promise((resolve) => setTimeout(resolve, OUTAGE_MS));
    await server.restart();
    await retryWhileAway(() => judge.store.liveness.alive(silent));
    const back = Date.now();
    expect(await judge.store.liveness.alive(silent)).toBe(true);
    await expect(judge.store.liveness.addressOf(silent.instance)).rejects.toMatchObject({ code: "STORE_UNAVAILABLE" });
    // A process that opens the store now sees the same (the restart is noted in Redis, by Redis's clock).
    const fresh = await instance(url, { start: false });
    expect(await fresh.store.liveness.alive(silent)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, HEARTBEAT.expireMs + 100 - (Date.now() - back))));
    expect(await judge.store.liveness.alive(silent)).toBe(false);
    expect(await fresh.store.liveness.alive(silent)).toBe(false);
    expect(await judge.store.liveness.addressOf(silent.instance)).toBeUndefined();
  });

  it("a question whose deadline passes while Redis stays away: the wait ends with STORE_UNAVAILABLE after the bound, not never", async () => {
    const { server, url } = await redis();
    const asker = await instance(url, { rideOutMs: 1_000 });
    const asked = await asker.broker.open(profileForm(), {}, 1);
    const started = Date.now();
    const waited = waitAndDeliver(asker.broker, asked.id).then(
      (record) => ({ record }),
      (error: unknown) => ({ error }),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    await server.stop("SIGKILL");
    const outcome = await within(waited, 6_000, "the end of the wait");
    expect("error" in outcome).toBe(true);
    const error = (outcome as { error: GatewayError }).error;
    expect(error).toBeInstanceOf(GatewayError);
    expect(error.code).toBe("STORE_UNAVAILABLE");
    expect(error.message).toContain("Redis store");
    // Deadline (1 s) plus the bound (1 s), give or take a pause between tries.
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(1_900);
    expect(took).toBeLessThan(4_000);
    // Once Redis is back, the question is expired by a sweep, as any overdue one.
    await server.restart();
    const sweeper = await instance(url, { start: false });
    await until(
      async () => {
        await sweeper.broker.sweep();
        return (await sweeper.store.questions.get(asked.id))?.state === "expired";
      },
      "the question expired after the outage",
      5_000,
    );
  });

  it("while Redis is away a new question still fails at once with STORE_UNAVAILABLE", async () => {
    const { server, url } = await redis();
    const asker = await instance(url);
    await server.stop("SIGKILL");
    const started = performance.now();
    await expect(asker.broker.open(profileForm(), {}, 60)).rejects.toMatchObject({ code: "STORE_UNAVAILABLE" });
    expect(performance.now() - started).toBeLessThan(500);
  });
});

/**
 * A view's delivery across machines (issue 19): whether the process that would hand an answer
 * over is still there is the store's liveness (on Redis, its instance's heartbeat), never
 * whether a process of that pid runs on the machine that looks. Before, `viewOf` asked this
 * machine's pids, so an answer given on B for a question held on A read "undeliverable".
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Broker } from "../../src/broker/broker.js";
import { openRedisStore } from "../../src/broker/redis/open.js";
import type { BrokerStore } from "../../src/broker/store-api.js";
import type { QuestionRecord } from "../../src/broker/types.js";
import { silentLogger } from "../../src/util/log.js";
import { redisInstalled, RedisServer } from "../helpers/redis-server.js";
import { tempStateDir } from "./support.js";

/** A pid no process has here (beyond Linux's pid_max). */
const NO_SUCH_PID = 4_194_304 + 17;

function question(ownerPid: number, ownerInstance: string): QuestionRecord {
  const now = Date.now();
  return {
    id: `q-${randomUUID()}`,
    server: "files",
    kind: "elicitation",
    method: "elicitation/create",
    mode: "form",
    message: "Tell me",
    params: { message: "Tell me", requestedSchema: { type: "object" } },
    requestedSchema: { type: "object" },
    identity: "local",
    audience: "agent",
    audienceReason: "no sensitive words",
    createdAt: new Date(now).toISOString(),
    expiresAt: new Date(now + 60_000).toISOString(),
    state: "pending",
    ownerPid,
    ownerInstance,
  };
}

describe.skipIf(!redisInstalled)("delivery in views, by the store's liveness", () => {
  let server: RedisServer;
  const closers: Array<() => Promise<void>> = [];
  let onA: Broker;
  let onB: Broker;
  let store: BrokerStore;

  beforeAll(async () => {
    server = await RedisServer.start();
    const url = `${server.url}?prefix=${encodeURIComponent(`t${randomUUID()}:`)}`;
    const storeA = await openRedisStore(url, tempStateDir());
    store = await openRedisStore(url, tempStateDir());
    onA = new Broker(storeA, silentLogger);
    onB = new Broker(store, silentLogger);
    await onA.start();
    await onB.start();
    closers.push(async () => {
      await onB.stop();
      await onA.stop();
      await store.close();
      await storeA.close();
    });
  });
  afterAll(async () => {
    for (const close of closers) await close();
    await server?.dispose();
  });

  /** Answered through B's store (as its surfaces record it, before any sweep looks at the owner). */
  async function answeredOnB(record: QuestionRecord): Promise<QuestionRecord> {
    await store.questions.insert(record);
    expect(await store.questions.settle(record.id, "answered", { action: "decline", by: "cli" })).toBe(true);
    return (await store.questions.get(record.id))!;
  }

  it("an answer on B for a question held by a live instance A (its pid unknown here) is pending, not undeliverable", async () => {
    const answered = await answeredOnB(question(NO_SUCH_PID, onA.instance));
    expect((await onB.view(answered)).delivery).toBe("pending");
  });

  it("an answer for a question of an instance that is gone is undeliverable, though a process of its pid runs here", async () => {
    const answered = await answeredOnB(question(process.pid, `gone-${randomUUID()}`));
    expect((await onB.view(answered)).delivery).toBe("undeliverable");
  });
});

/**
 * Issue 19's "done when", with the real parts: one redis-server (AOF on), three `mcpx serve
 * --http` processes (each with its own state directory, as three machines would have) on one
 * config, behind HAProxy round robin with no stickiness. Legacy and 2026-07-28 hosts call
 * through the balancer; a question raised through one instance is answered over REST on another,
 * and on another's page in Chromium;
 * two answers at once on two instances, one wins; a modern host's retries spread over the
 * instances; the instance holding a question and a call is killed; Redis is restarted.
 * Needs `npm run build`; skipped when redis-server or haproxy is missing.
 */
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttp } from "@modelcontextprotocol/client";
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as LegacyHttp } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Broker } from "../../src/broker/broker.js";
import { openRedisStore } from "../../src/broker/redis/open.js";
import type { BrokerStore } from "../../src/broker/store-api.js";
import type { QuestionRecord } from "../../src/broker/types.js";
import { haveChromium, launchChromium } from "../helpers/browser.js";
import { Haproxy, haproxyInstalled } from "../helpers/haproxy.js";
import { nodeServer, ROOT, type RunningMcpx, startMcpxHttp, type TempConfig, writeConfig } from "../helpers/mcpx.js";
import { freePort, RedisServer, redisInstalled } from "../helpers/redis-server.js";
import { silentLogger } from "../../src/util/log.js";
import { until } from "../helpers/until.js";

const SECRET = "done-when-cluster-secret-0123456789abcdef";
const FORM = { type: "object", properties: { name: { type: "string" } }, required: ["name"] };

interface Instance {
  port: number;
  config: TempConfig;
  running: RunningMcpx;
  origin: string;
}

let redis: RedisServer;
let proxy: Haproxy;
let store: BrokerStore;
let token: string;
const instances: Instance[] = [];
const clients: Array<{ close(): Promise<void> }> = [];

/** The instances still running. */
const alive = (): Instance[] => instances.filter((instance) => instance.running.child.exitCode === null && instance.running.child.signalCode === null);

async function startInstance(port: number): Promise<Instance> {
  const config = writeConfig({
    mcpServers: {
      asking: nodeServer("asking-server.mjs", ["--stdio"]),
      echo: { command: process.execPath, args: [join(ROOT, "bench", "echo-server.mjs"), "--stdio"] },
    },
    store: { url: redis.url },
    cluster: { secret: SECRET, publicUrl: proxy.url },
    elicitation: { ttlSeconds: 60 },
  });
  const running = await startMcpxHttp(config, ["--port", String(port)]);
  // Its log line has the message before the server's name.
  await running.waitForLog(/upstream ready[^\n]*"asking"|"asking"[^\n]*upstream ready/, 20_000).catch(() => {});
  return { port, config, running, origin: `http://127.0.0.1:${port}` };
}

/** A legacy (SDK 1.x) host through the balancer; `ask` says whether it takes elicitations itself. */
async function legacyHost(answers?: { name: string }): Promise<{ client: LegacyClient; transport: LegacyHttp }> {
  const client = new LegacyClient({ name: "legacy-host", version: "1.0.0" }, { capabilities: answers ? { elicitation: {} } : {} });
  if (answers) {
    const { ElicitRequestSchema } = await import("@modelcontextprotocol/sdk/types.js");
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: answers }));
  }
  const transport = new LegacyHttp(new URL("/mcp", proxy.url));
  await client.connect(transport).catch(async (error: unknown) => {
    await client.close().catch(() => {});
    throw error;
  });
  clients.push(client);
  return { client, transport };
}

/** The instance whose broker (instance id) asked, by the address it advertises in the store. */
async function instanceOf(brokerInstance: string): Promise<Instance> {
  const address = await store.liveness.addressOf(brokerInstance);
  const found = instances.find((instance) => instance.origin === address);
  if (!found) throw new Error(`no instance advertises ${address} for ${brokerInstance}`);
  return found;
}

async function pendingQuestion(tool: string, except: Set<string> = new Set()): Promise<QuestionRecord> {
  let found: QuestionRecord | undefined;
  await until(
    async () => {
      found = (await store.questions.list()).find((record) => record.state === "pending" && record.tool === tool && !except.has(record.id));
      return found !== undefined;
    },
    `a pending question of ${tool} in the store`,
    15_000,
  );
  return found!;
}

function answerOver(instance: Instance, id: string, name: string): Promise<Response> {
  return fetch(`${instance.origin}/v1/questions/${id}/answer`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ action: "accept", content: { name } }),
    signal: AbortSignal.timeout(10_000),
  });
}

/** Answer through `broker` as soon as its store is back: tried again only while the store cannot be reached. */
async function answerOnceBack(broker: Broker, id: string, name: string): Promise<QuestionRecord> {
  for (;;) {
    try {
      return await broker.answer(id, { action: "accept", content: { name } }, { by: "cli" });
    } catch (error) {
      if ((error as { code?: string }).code !== "STORE_UNAVAILABLE") throw error;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}

/** `promise` or a rejection after `ms`: no wait in this file is unbounded. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`${what} took more than ${ms} ms`)), ms))]);
}

const textOf = (result: unknown): string => (result as { content: Array<{ text?: string }> }).content.map((block) => block.text ?? "").join("");
const logLines = (instance: Instance, text: string): number =>
  instance.running
    .stderr()
    .split("\n")
    .filter((line) => line.includes(text)).length;

describe.skipIf(!redisInstalled || !haproxyInstalled)("three instances behind HAProxy on one Redis", () => {
  beforeAll(async () => {
    redis = await RedisServer.start({ appendonly: true });
    store = await openRedisStore(redis.url, join(mkdtempSync(join(tmpdir(), "mcpx-done-when-")), "state"));
    token = await store.secrets.get("api-token");
    const ports = [await freePort(), await freePort(), await freePort()];
    proxy = await Haproxy.start(ports);
    // One after another: three starting at once on a 2-core machine may miss the helper's 15 s start bound.
    for (const port of ports) instances.push(await startInstance(port));
    // HAProxy takes each backend in once its health check sees it up.
    let seen: unknown[] = [];
    await until(
      async () => {
        seen = await Promise.all([0, 1, 2, 3, 4, 5].map(() => fetch(`${proxy.url}/healthz`).then((reply) => reply.status, String)));
        return seen.every((status) => status === 200);
      },
      "every instance in the balancer",
      15_000,
    ).catch((error: Error) => {
      throw new Error(`${error.message}: ${JSON.stringify(seen)}\n${proxy.log}\n${instances.map((i) => i.running.stderr().slice(-1500)).join("\n---\n")}`);
    });
  }, 90_000);

  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => {});
    for (const instance of instances) await instance.running.close();
    await proxy?.stop();
    await store?.close();
    await redis?.dispose();
  }, 60_000);

  it("serves an SDK 1.x host and a 2026-07-28 host through the balancer, many calls each", async () => {
    const { client: legacy, transport } = await legacyHost();
    const modern = new ModernClient({ name: "modern-host", version: "1.0.0" }, { capabilities: {}, versionNegotiation: { mode: "auto" } });
    await modern.connect(new ModernHttp(new URL("/mcp", proxy.url)));
    clients.push(modern);
    const calls: Array<Promise<string>> = [];
    for (let i = 0; i < 30; i++) {
      calls.push(legacy.callTool({ name: "echo__echo", arguments: { text: `legacy ${i}` } }).then(textOf));
      calls.push(modern.callTool({ name: "echo__echo", arguments: { text: `modern ${i}` } }).then(textOf));
    }
    const texts = await within(Promise.all(calls), 30_000, "60 calls");
    expect(texts.filter((text) => text.startsWith("legacy"))).toHaveLength(30);
    expect(new Set(texts)).toEqual(new Set(Array.from({ length: 30 }, (_, i) => [`legacy ${i}`, `modern ${i}`]).flat()));
    // The legacy session lives on one instance; the balancer sent its requests to the others too, which handed them on.
    const holder = transport.sessionId!.split(".")[0]!;
    const others = alive().filter((instance) => logLines(instance, `"holder":"${holder}"`) > 0);
    expect(others.length).toBeGreaterThanOrEqual(1);
  }, 60_000);

  it("a question raised through one instance is answered over REST on another, and the call completes at its host", async () => {
    const { client } = await legacyHost(); // takes no elicitation: the question waits for a person
    const call = client.callTool({ name: "asking__ask_form", arguments: { message: "Who is deploying?", schema: FORM } });
    const question = await pendingQuestion("ask_form");
    const asker = await instanceOf(question.ownerInstance);
    const other = alive().find((instance) => instance !== asker)!;
    const reply = await answerOver(other, question.id, "across");
    expect(reply.status).toBe(200);
    const result = await within(call, 15_000, "the call after its answer");
    expect(JSON.parse(textOf(result))).toEqual({ action: "accept", content: { name: "across" } });
  }, 60_000);

  it.skipIf(!haveChromium("test/cluster/done-when.test.ts"))(
    "a question raised through one instance is answered on another instance's page, in Chromium, and the call completes",
    async () => {
      const { client } = await legacyHost();
      const call = client.callTool({ name: "asking__ask_form", arguments: { message: "Who signs off?", schema: FORM } });
      const question = await pendingQuestion("ask_form");
      const asker = await instanceOf(question.ownerInstance);
      const other = alive().find((instance) => instance !== asker)!;
      // A link from `other` (its code is for the balancer's port, checked by any instance), opened on `other` itself.
      const link = (await (
        await fetch(`${other.origin}/v1/page-link`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: "{}",
        })
      ).json()) as { url: string };
      const onOther = new URL(link.url);
      const browser = await launchChromium();
      try {
        const page = await (await browser.newContext()).newPage();
        await page.goto(`${other.origin}/${onOther.hash}`);
        const form = page.locator(`article[data-id="${question.id}"]`);
        await form.waitFor({ timeout: 15_000 });
        await form.locator('[data-field="name"] input').fill("from the page");
        await form.locator('button[data-action="accept"]').click();
        const result = await within(call, 15_000, "the call after its answer on the page");
        expect(JSON.parse(textOf(result))).toEqual({ action: "accept", content: { name: "from the page" } });
        const answered = await store.questions.get(question.id);
        expect(answered?.answer?.by).toBe("web");
        expect(answered?.ownerInstance).toBe(question.ownerInstance);
      } finally {
        await browser.close();
      }
    },
    90_000,
  );

  it("two answers at once on two instances: exactly one wins, the other is 409 ALREADY_SETTLED", async () => {
    const { client } = await legacyHost();
    const call = client.callTool({ name: "asking__ask_form", arguments: { message: "Race?", schema: FORM } });
    const question = await pendingQuestion("ask_form");
    const [first, second] = alive();
    const replies = await Promise.all([answerOver(first!, question.id, "first"), answerOver(second!, question.id, "second")]);
    const statuses = replies.map((reply) => reply.status).sort();
    expect(statuses).toEqual([200, 409]);
    const loser = replies.find((reply) => reply.status === 409)!;
    expect(await loser.json()).toMatchObject({ error: { code: "ALREADY_SETTLED" } });
    const winner = replies[0]!.status === 200 ? "first" : "second";
    const result = await within(call, 15_000, "the call after its answer");
    expect(JSON.parse(textOf(result))).toEqual({ action: "accept", content: { name: winner } });
  }, 60_000);

  it("a 2026-07-28 host's retries spread over the instances and continue the call its first instance holds", async () => {
    const before = alive().map((instance) => logLines(instance, "handing a modern retry on"));
    const modern = new ModernClient(
      { name: "modern-asked", version: "1.0.0" },
      { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: "auto" } },
    );
    let asked = 0;
    modern.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: { name: `retry ${++asked}` } }));
    await modern.connect(new ModernHttp(new URL("/mcp", proxy.url)));
    clients.push(modern);
    for (let i = 0; i < 6; i++) {
      const result = await within(modern.callTool({ name: "asking__ask_form", arguments: { message: "Who?", schema: FORM } }), 15_000, "a modern call");
      expect(JSON.parse(textOf(result))).toEqual({ action: "accept", content: { name: `retry ${i + 1}` } });
    }
    const handedOn = alive().map((instance, i) => logLines(instance, "handing a modern retry on") - before[i]!);
    // Retries that reached an instance other than the holder were handed on, from more than one instance.
    expect(handedOn.reduce((sum, n) => sum + n, 0)).toBeGreaterThanOrEqual(3);
    expect(handedOn.filter((n) => n > 0).length).toBeGreaterThanOrEqual(2);
  }, 60_000);

  it("a Redis restart loses no answer; while it is down /readyz says so and a new question is refused, not hung", async () => {
    // One question answered before the restart, two pending across it.
    const { client: answered } = await legacyHost();
    const answeredCall = answered.callTool({ name: "asking__ask_form", arguments: { message: "Before?", schema: FORM } });
    const early = await pendingQuestion("ask_form");
    expect((await answerOver(alive()[0]!, early.id, "before")).status).toBe(200);
    expect(JSON.parse(textOf(await within(answeredCall, 15_000, "the answered call")))).toEqual({ action: "accept", content: { name: "before" } });
    const { client: waiting } = await legacyHost();
    const waitingCall = waiting.callTool({ name: "asking__ask_form", arguments: { message: "Across?", schema: FORM } });
    const pending = await pendingQuestion("ask_form", new Set([early.id]));
    const { client: waitingToo } = await legacyHost();
    const firstCall = waitingToo.callTool({ name: "asking__ask_form", arguments: { message: "First back?", schema: FORM } });
    const first = await pendingQuestion("ask_form", new Set([early.id, pending.id]));

    await redis.stop("SIGKILL");
    const downSince = Date.now();
    for (const instance of alive()) {
      await until(async () => (await fetch(`${instance.origin}/readyz`)).status === 503, `/readyz 503 on ${instance.origin}`, 10_000);
    }
    // A new question cannot be stored: the host hears an error, not silence. Opening a session needs
    // the store only to find an instance's address that was never looked up: then that is what it hears.
    const opened = await legacyHost().then(
      (host) => host,
      (error: unknown) => String(error),
    );
    if (typeof opened === "string") expect(opened).toContain("mcpx cannot reach its shared store to find the instance that holds");
    else {
      const outcome = await within(
        opened.client.callTool({ name: "asking__ask_form", arguments: { message: "While down?", schema: FORM } }).then(
          (result) => textOf(result),
          (error: unknown) => String(error),
        ),
        20_000,
        "a call whose question cannot be stored",
      );
      expect(outcome).toMatch(/store/i);
    }

    // Down longer than an instance's heartbeat lives (6 s): every alive: key has expired when Redis is
    // back, and no instance may take the asker for gone before it has written its own again.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, 7_000 - (Date.now() - downSince))));
    await redis.restart();
    // Answered the moment Redis is back, as `mcpx elicit answer` would (a broker on the store): the
    // asker may not have reconnected yet, nor written its heartbeat again; it is not taken for gone.
    const answering = new Broker(store, silentLogger);
    const firstAnswer = await within(answerOnceBack(answering, first.id, "first back"), 15_000, "an answer as soon as Redis is back");
    expect(firstAnswer.state).toBe("answered");
    expect(JSON.parse(textOf(await within(firstCall, 15_000, "the call answered as Redis came back")))).toEqual({
      action: "accept",
      content: { name: "first back" },
    });
    for (const instance of alive()) {
      await until(async () => (await fetch(`${instance.origin}/readyz`)).status === 200, `/readyz 200 on ${instance.origin}`, 15_000);
    }
    await until(async () => (await store.unwritable()) === undefined, "the test's own Redis connection back", 15_000);
    expect((await store.questions.get(early.id))?.answer).toMatchObject({ action: "accept", content: { name: "before" } });
    expect((await store.questions.get(pending.id))?.state).toBe("pending");
    // The call waiting across the restart gets the answer given after it (its steps that fell in the
    // outage were tried again: test/broker/redis-ride-out.test.ts).
    const asker = await instanceOf(pending.ownerInstance);
    const other = alive().find((instance) => instance !== asker)!;
    const late = await answerOver(other, pending.id, "after");
    expect(late.status, await late.clone().text()).toBe(200);
    const across = JSON.parse(textOf(await within(waitingCall, 15_000, "the call across the restart"))) as unknown;
    expect(across).toEqual({ action: "accept", content: { name: "after" } });
    // Everything works again: a new session and a new call.
    const { client: fresh } = await legacyHost();
    expect(textOf(await within(fresh.callTool({ name: "echo__echo", arguments: { text: "back" } }), 10_000, "an echo"))).toBe("back");
  }, 90_000);

  it("kill -9 of the instance holding a question and a call: the call ends with an error, the survivors cancel the question, the rest serve", async () => {
    const { client } = await legacyHost();
    // The host's own request timeout bounds the case where the balancer sent the call straight to the dying instance.
    const call = client.callTool({ name: "asking__ask_form", arguments: { message: "Doomed?", schema: FORM } }, undefined, { timeout: 20_000 }).then(
      (result) => ({ result }),
      (error: unknown) => ({ error }),
    );
    const question = await pendingQuestion("ask_form");
    const victim = await instanceOf(question.ownerInstance);
    victim.running.child.kill("SIGKILL");
    const ended = await within(call, 25_000, "the call of a killed instance");
    expect("error" in ended).toBe(true);
    // A call that reached a survivor and was handed on ends at once with HOLDER_GONE (test/cluster/forward.test.ts);
    // one the balancer sent straight to the victim ends when the SDK's resumption finds no session, at the host's timeout.
    // Heartbeat lapse (~6 s) and a sweep (5 s): the survivors close it as cancel, well before its 60 s deadline.
    await until(
      async () => {
        const record = await store.questions.get(question.id);
        return record?.state !== "pending" && record?.answer?.action === "cancel";
      },
      "the killed instance's question closed as cancel",
      25_000,
    );
    // The others keep serving; a new legacy session works (HAProxy takes the dead one out).
    const { client: fresh } = await legacyHost();
    for (let i = 0; i < 6; i++) {
      expect(textOf(await within(fresh.callTool({ name: "echo__echo", arguments: { text: `still ${i}` } }), 10_000, "an echo"))).toBe(`still ${i}`);
    }
  }, 90_000);
});

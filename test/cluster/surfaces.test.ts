/**
 * A person answers on any instance (issue 19): two real `mcpx serve --http` processes (the built
 * CLI) with a cluster config on one real redis-server, each with a state directory of its own as
 * two machines would have. A tab signed in on A (its code from `mcpx link`) makes its next /v1
 * requests on B; a code used on A is refused on B; `mcpx elicit answer` and `mcpx audit`, given
 * the config, work on the shared store from a third state directory.
 */
import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as LegacyHttp } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeServer, startMcpxHttp, writeConfig, type RunningMcpx, type TempConfig } from "../helpers/mcpx.js";
import { runMcpx } from "../helpers/upstreams.js";
import { freePort, RedisServer, redisInstalled } from "../helpers/redis-server.js";
import { until } from "../helpers/until.js";

const FORM = { type: "object", properties: { name: { type: "string" } }, required: ["name"] };

let redis: RedisServer;
/** The same config in three places: one per instance, one for the commands (each its own state dir). */
let configA: TempConfig;
let configB: TempConfig;
let commands: TempConfig;
let a: RunningMcpx & { url: URL };
let b: RunningMcpx & { url: URL };
/** The balancer's address people would use (nothing listens there: codes are for its port). */
let publicUrl: URL;
const clients: LegacyClient[] = [];

function clusterConfig(): object {
  return {
    mcpServers: { asking: nodeServer("asking-server.mjs", ["--stdio"]) },
    store: { url: redis.url },
    cluster: { secret: "the-surfaces-cluster-secret-0123456789abcdef", publicUrl: publicUrl.href },
  };
}

describe.skipIf(!redisInstalled)("answering surfaces across instances on one Redis", () => {
  beforeAll(async () => {
    redis = await RedisServer.start();
    publicUrl = new URL(`http://127.0.0.1:${await freePort()}/`);
    [configA, configB, commands] = [writeConfig(clusterConfig()), writeConfig(clusterConfig()), writeConfig(clusterConfig())];
    [a, b] = await Promise.all([startMcpxHttp(configA), startMcpxHttp(configB)]);
  }, 60_000);

  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => {});
    await Promise.all([a?.close(), b?.close()]);
    await redis?.stop();
  });

  /** A one-time code from `mcpx link --config` (the shared store's API token, for the public URL). */
  async function linkCode(): Promise<string> {
    const run = await runMcpx(["link", "--config", commands.file], commands);
    expect(run.code, run.stderr).toBe(0);
    const link = new URL(run.stdout.trim());
    expect(link.origin).toBe(publicUrl.origin);
    return link.hash.replace(/^#code=/, "");
  }

  async function trade(on: URL, code: string): Promise<{ status: number; token?: string }> {
    const response = await fetch(new URL("/v1/page-session", on), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ code }),
    });
    const body = (await response.json()) as { token?: string };
    return { status: response.status, ...(body.token ? { token: body.token } : {}) };
  }

  async function questions(on: URL, token: string): Promise<{ status: number; body: unknown }> {
    const response = await fetch(new URL("/v1/questions?all=1", on), { headers: { authorization: `Bearer ${token}` } });
    return { status: response.status, body: await response.json() };
  }

  it("a tab signed in on A makes its next requests on B, and they work", async () => {
    const { status, token } = await trade(a.url, await linkCode());
    expect(status).toBe(200);
    expect((await questions(b.url, token!)).status).toBe(200);
    expect((await questions(a.url, token!)).status).toBe(200);
    // A credential nobody issued is refused on both.
    expect((await questions(b.url, `${token}x`)).status).toBe(401);
  });

  it("a code used on A is refused on B; a fresh one is taken by B", async () => {
    const code = await linkCode();
    expect((await trade(a.url, code)).status).toBe(200);
    expect((await trade(b.url, code)).status).toBe(401);
    expect((await trade(b.url, await linkCode())).status).toBe(200);
  });

  it("B's /v1 and /metrics take the API token the store shares; the 401 names the Redis key, not a file", async () => {
    const refused = await fetch(new URL("/v1/questions", b.url));
    const body = (await refused.json()) as { error: { message: string } };
    expect(refused.status).toBe(401);
    expect(body.error.message).toContain("the Redis key");
    expect(body.error.message).not.toContain(configB.dir);
  });

  it("`mcpx elicit answer` with the config answers a question asked through A, from a third state dir", async () => {
    // A host that cannot take the question itself: it waits in the shared store for a person.
    const client = new LegacyClient({ name: "no-elicitation", version: "1.0.0" }, { capabilities: {} });
    clients.push(client);
    await client.connect(new LegacyHttp(new URL("/mcp", a.url)));
    const call = client.callTool({ name: "asking__ask_form", arguments: { message: "Who answers on B?", schema: FORM } }, undefined, { timeout: 30_000 });
    let id = "";
    await until(async () => {
      const listed = await runMcpx(["elicit", "list", "--json", "--config", commands.file], commands);
      const pending = JSON.parse(listed.stdout || "[]") as Array<{ id: string; message: string }>;
      id = pending.find((question) => question.message.includes("Who answers on B?"))?.id ?? "";
      return id !== "";
    }, "the question asked through A, listed by `mcpx elicit list`");
    const answered = await runMcpx(["elicit", "answer", id, "name=Grace", "--config", commands.file], commands);
    expect(answered.code, answered.stderr).toBe(0);
    const result = (await call) as { content: Array<{ text?: string }> };
    expect(JSON.parse(result.content.map((block) => block.text ?? "").join(""))).toEqual({ action: "accept", content: { name: "Grace" } });
  });

  it("`mcpx audit` with the config lists calls made on A and on B", async () => {
    for (const [instance, url] of [
      ["A", a.url],
      ["B", b.url],
    ] as const) {
      const client = new LegacyClient({ name: `audited-on-${instance}`, version: "1.0.0" }, { capabilities: {} });
      clients.push(client);
      await client.connect(new LegacyHttp(new URL("/mcp", url)));
      await client.callTool({ name: "asking__log", arguments: { levels: [`info-from-${instance}`] } });
    }
    let entries: Array<{ kind: string; client?: string; tool?: string }> = [];
    await until(async () => {
      const run = await runMcpx(["audit", "--json", "--config", commands.file], commands);
      entries = run.stdout
        .split("\n")
        .filter(Boolean)
        .map((line: string) => JSON.parse(line) as { kind: string; client?: string; tool?: string });
      const clientsSeen = new Set(entries.filter((entry) => entry.tool === "log").map((entry) => entry.client));
      return clientsSeen.has("audited-on-A 1.0.0") && clientsSeen.has("audited-on-B 1.0.0");
    }, "the calls made on A and on B in `mcpx audit`");
  });
});

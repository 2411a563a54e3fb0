/**
 * `/healthz` and `/readyz` of `mcpx serve --http`: reachable without the credential, saying no
 * more than a status and the names of required servers that are not ready; `/readyz` is 503
 * while a server marked `"required": true` is down, and while the store cannot take a write
 * (another process holding its write lock longer than the probe waits). `/v1/audit` beside them
 * needs the credential.
 */
import Database from "better-sqlite3";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeServer, startMcpxHttp, writeConfig, type RunningMcpx, type TempConfig } from "../helpers/mcpx.js";
import { STORE_FILE } from "../../src/broker/sqlite/sqlite-store.js";

let config: TempConfig;
let mcpx: RunningMcpx & { url: URL };

beforeAll(async () => {
  config = writeConfig({
    mcpServers: {
      echo: { ...nodeServer("faulty-server.mjs"), required: true },
      gone: { command: "/nonexistent/no-such-server", required: true },
      optional: { command: "/nonexistent/optional-server" },
    },
    http: { auth: { token: "operator-0123456789abcdef0123456789" } },
  });
  mcpx = await startMcpxHttp(config);
  // Until echo has started (gone never does).
  for (let tries = 0; JSON.stringify((await probe("/readyz")).body).includes("echo") && tries < 50; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}, 60_000);
afterAll(async () => {
  await mcpx?.close();
});

async function probe(path: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(new URL(path, mcpx.url), { signal: AbortSignal.timeout(10_000) });
  return { status: response.status, body: await response.json() };
}

describe("health probes", () => {
  it("/healthz says the process serves, without the credential", async () => {
    expect(await probe("/healthz")).toEqual({ status: 200, body: { status: "ok" } });
  });

  it("/readyz names the required servers that are not ready, and only those", async () => {
    expect(await probe("/readyz")).toEqual({ status: 503, body: { status: "not ready", servers: ["gone"] } });
  });

  it("/readyz is ready once every required server is", async () => {
    const ready = await startMcpxHttp(writeConfig({ mcpServers: { echo: { ...nodeServer("faulty-server.mjs"), required: true } } }));
    try {
      let answer = await fetch(new URL("/readyz", ready.url));
      for (let tries = 0; answer.status !== 200 && tries < 50; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        answer = await fetch(new URL("/readyz", ready.url));
      }
      expect({ status: answer.status, body: await answer.json() }).toEqual({ status: 200, body: { status: "ready" } });
    } finally {
      await ready.close();
    }
  });

  it("GET /v1/audit needs the credential, checks its filter, and answers the trail", async () => {
    const auth = { authorization: "Bearer operator-0123456789abcdef0123456789" };
    expect((await fetch(new URL("/v1/audit", mcpx.url))).status).toBe(401);
    const bad = await fetch(new URL("/v1/audit?since=yesterday", mcpx.url), { headers: auth });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe("INVALID_FILTER");
    const trail = await fetch(new URL("/v1/audit?since=1h&server=echo", mcpx.url), { headers: auth });
    expect(trail.status).toBe(200);
    expect(Array.isArray(await trail.json())).toBe(true);
  });

  it("/readyz is not ready while the store cannot take a write, and ready again after", async () => {
    const other = new Database(join(config.env.MCPX_STATE_DIR!, STORE_FILE));
    try {
      other.exec("BEGIN EXCLUSIVE");
      const started = Date.now();
      const locked = await probe("/readyz");
      expect(locked).toEqual({ status: 503, body: { status: "not ready", store: "not writable", servers: ["gone"] } });
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      other.exec("ROLLBACK");
      other.close();
    }
    expect((await probe("/readyz")).body).toEqual({ status: "not ready", servers: ["gone"] });
  });
});

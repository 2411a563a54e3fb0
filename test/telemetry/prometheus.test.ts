/**
 * `/metrics` of `mcpx serve --http`, with no `OTEL_*` variable: the operator's credential or
 * 401; the text exposition format as Prometheus's own parser reads it (`promtool check
 * metrics`); and a real Prometheus scraping it with the credential, whose query API then gives
 * the counts of known calls. Prometheus is a Debian package (.ci/run installs it); without it
 * these tests say so and skip.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeServer, startMcpxHttp, writeConfig, type RunningMcpx } from "../helpers/mcpx.js";

const TOKEN = "operator-0123456789abcdef0123456789";
const hasPrometheus = spawnSync("prometheus", ["--version"]).status === 0 && spawnSync("promtool", ["--version"]).status === 0;
if (!hasPrometheus) console.warn("prometheus/promtool not installed (apt-get install prometheus): the /metrics tests that need them are skipped");

let mcpx: RunningMcpx & { url: URL };
let client: Client;

beforeAll(async () => {
  const config = writeConfig({ mcpServers: { traced: nodeServer("traced-server.mjs") }, http: { auth: { token: TOKEN } } });
  config.env = Object.fromEntries(Object.entries(config.env).filter(([name]) => !name.startsWith("OTEL_")));
  mcpx = await startMcpxHttp(config);
  client = new Client({ name: "scraped-host", version: "1.0.0" }, { capabilities: {} });
  await client.connect(new StreamableHTTPClientTransport(mcpx.url, { requestInit: { headers: { authorization: `Bearer ${TOKEN}` } } }));
  for (let tries = 0; (await client.listTools()).tools.length < 3 && tries < 100; tries++) await new Promise((resolve) => setTimeout(resolve, 100));
  await client.callTool({ name: "traced__echo_trace", arguments: {} });
  await client.callTool({ name: "traced__echo_trace", arguments: {} });
  await client.callTool({ name: "traced__fails", arguments: {} });
}, 60_000);

afterAll(async () => {
  await client?.close();
  await mcpx?.close();
});

/** GET /metrics; a 503 (the SDK still loading: serve --http does not wait for it) is asked again. */
async function scrape(headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` }): Promise<Response> {
  for (let tries = 0; ; tries++) {
    const response = await fetch(new URL("/metrics", mcpx.url), { headers, signal: AbortSignal.timeout(10_000) });
    if (response.status !== 503 || tries >= 100) return response;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("/metrics", () => {
  it("refuses a request without the operator's credential, or with another", async () => {
    const bare = await scrape({});
    expect(bare.status).toBe(401);
    expect(bare.headers.get("www-authenticate")).toContain("Bearer");
    expect((await scrape({ authorization: "Bearer not-the-credential-0123456789abcdef" })).status).toBe(401);
  });

  it("answers the counts of known calls in the text exposition format", async () => {
    const response = await scrape();
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
    const text = await response.text();
    expect(text).toMatch(/^mcpx_tool_calls_total\{server="traced",tool="echo_trace",outcome="ok"\} 2$/m);
    expect(text).toMatch(/^mcpx_tool_calls_total\{server="traced",tool="fails",outcome="error"\} 1$/m);
    expect(text).toMatch(/^mcpx_tool_call_duration_count\{server="traced",tool="echo_trace",outcome="ok"\} 2$/m);
    expect(text).toMatch(/^mcpx_host_sessions\{transport="http"\} 1$/m);
  });

  it.skipIf(!hasPrometheus)("is what Prometheus's own parser reads without a complaint (promtool check metrics)", async () => {
    const text = await (await scrape()).text();
    const checked = spawnSync("promtool", ["check", "metrics"], { input: text, encoding: "utf8" });
    expect(checked.status, `${checked.stdout}${checked.stderr}`).toBe(0);
  });

  it.skipIf(!hasPrometheus)(
    "a real Prometheus scrapes it with the credential and answers the counts",
    async () => {
      const dir = mkdtempSync(join(tmpdir(), "mcpx-prometheus-"));
      writeFileSync(join(dir, "token"), TOKEN);
      writeFileSync(
        join(dir, "prometheus.yml"),
        [
          "global: { scrape_interval: 1s, evaluation_interval: 1s }",
          "scrape_configs:",
          "  - job_name: mcpx",
          "    metrics_path: /metrics",
          `    authorization: { credentials_file: ${join(dir, "token")} }`,
          `    static_configs: [{ targets: ["${mcpx.url.host}"] }]`,
          "",
        ].join("\n"),
      );
      execFileSync("promtool", ["check", "config", join(dir, "prometheus.yml")]);
      const port = await freePort();
      const prometheus = spawn(
        "prometheus",
        [`--config.file=${join(dir, "prometheus.yml")}`, `--storage.tsdb.path=${join(dir, "data")}`, `--web.listen-address=127.0.0.1:${port}`],
        { stdio: ["ignore", "ignore", "pipe"] },
      );
      let log = "";
      prometheus.stderr?.on("data", (chunk: Buffer) => (log += chunk.toString("utf8")));
      try {
        const query = async (promql: string): Promise<string | undefined> => {
          const response = await fetch(`http://127.0.0.1:${port}/api/v1/query?query=${encodeURIComponent(promql)}`).catch(() => undefined);
          if (!response?.ok) return undefined;
          const body = (await response.json()) as { data: { result: Array<{ value: [number, string] }> } };
          return body.data.result[0]?.value[1];
        };
        const deadline = Date.now() + 40_000;
        let calls: string | undefined;
        while (Date.now() < deadline) {
          calls = await query('mcpx_tool_calls_total{server="traced",tool="echo_trace",outcome="ok"}');
          if (calls !== undefined) break;
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
        expect(calls, `Prometheus never had the metric; its log:\n${log.slice(-3000)}`).toBe("2");
        expect(await query('up{job="mcpx"}')).toBe("1");
        expect(await query('sum(mcpx_tool_calls_total{outcome="error"})')).toBe("1");
      } finally {
        await stopped(prometheus);
        rmSync(dir, { recursive: true, force: true });
      }
    },
    60_000,
  );
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function stopped(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
    setTimeout(() => child.kill("SIGKILL"), 5_000).unref();
  });
}

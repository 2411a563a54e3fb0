/**
 * Telemetry off costs nothing to load: with no `OTEL_*` variable, `mcpx serve` (stdio, and
 * --http until its /metrics is first asked for) serves a call without resolving one module of
 * the OpenTelemetry SDK or of telemetry/otel/; with an
 * OTLP endpoint set, the same serve loads them (the control that shows the record would see
 * them). The hot commands (`ls`, `search`) are held to loading none of it in
 * test/cli/hot-path.test.ts. Modules are recorded as resolved
 * (fixtures/import-recorder.mjs), which no timing could show.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { fixture, nodeServer, RawStdioHost, startMcpxHttp, writeConfig, type TempConfig } from "../helpers/mcpx.js";
import { until } from "../helpers/until.js";

let config: TempConfig;
const withoutOtel = (env: NodeJS.ProcessEnv): NodeJS.ProcessEnv => Object.fromEntries(Object.entries(env).filter(([name]) => !name.startsWith("OTEL_")));

function recording(name: string, extra: NodeJS.ProcessEnv = {}): TempConfig {
  return {
    ...config,
    env: {
      ...withoutOtel(config.env),
      NODE_OPTIONS: `--import ${pathToFileURL(fixture("import-recorder.mjs")).href}`,
      MCPX_TEST_IMPORTS: join(config.dir, `imports-${name}.txt`),
      ...extra,
    },
  };
}

function imported(name: string): string[] {
  const file = join(config.dir, `imports-${name}.txt`);
  return existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean) : [];
}
const isTelemetrySdk = (url: string): boolean => url.includes("/@opentelemetry/") || url.includes("/telemetry/otel/");

async function serveOneCall(name: string, extra: NodeJS.ProcessEnv = {}): Promise<void> {
  const host = new RawStdioHost(recording(name, extra));
  try {
    await host.initialize();
    const answer = await host.request(2, "tools/call", { name: "faulty__pid", arguments: {} });
    expect(answer.result, JSON.stringify(answer)).toBeDefined();
  } finally {
    await host.close();
  }
}

beforeAll(() => {
  config = writeConfig({ mcpServers: { faulty: nodeServer("faulty-server.mjs") } });
});
afterAll(() => {});

describe("telemetry off", () => {
  it("mcpx serve serves a call without loading the SDK", async () => {
    await serveOneCall("off");
    const modules = imported("off");
    expect(
      modules.some((url) => url.endsWith("/telemetry/load.js") || url.endsWith("/dist/cli/program.bundle.js")),
      "the record is of mcpx serve",
    ).toBe(true);
    expect(modules.filter(isTelemetrySdk)).toEqual([]);
  });

  it("mcpx serve --http serves a call without loading it, and loads it when /metrics is first asked for", async () => {
    const recorded = recording("http");
    const mcpx = await startMcpxHttp(recorded);
    const client = new Client({ name: "off-test", version: "1.0.0" });
    try {
      await client.connect(new StreamableHTTPClientTransport(mcpx.url));
      await client.callTool({ name: "faulty__pid", arguments: {} });
      expect(imported("http").some((url) => url.endsWith("/dist/cli/program.bundle.js") || url.endsWith("/telemetry/load.js"))).toBe(true);
      expect(imported("http").filter(isTelemetrySdk)).toEqual([]);
      const token = readFileSync(join(recorded.env.MCPX_STATE_DIR!, "api-token"), "utf8").trim();
      const scraped = await fetch(new URL("/metrics", mcpx.url), { headers: { authorization: `Bearer ${token}` } });
      // The first scrape waits for the SDK and is answered, with the call made before it loaded.
      expect(scraped.status).toBe(200);
      expect(await scraped.text()).toMatch(/mcpx_tool_calls_total\{[^}]*server="faulty"/);
      await until(() => imported("http").some(isTelemetrySdk), "the SDK loaded for /metrics");
    } finally {
      await client.close();
      await mcpx.close();
    }
  }, 30_000);

  it("the same serve with an OTLP endpoint set loads it", async () => {
    await serveOneCall("on", { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9", OTEL_TRACES_EXPORTER: "otlp", OTEL_METRICS_EXPORTER: "none" });
    expect(imported("on").filter(isTelemetrySdk).length).toBeGreaterThan(0);
  });
});

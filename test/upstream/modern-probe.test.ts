/**
 * The era probe toward upstreams: `server/discover` first, the legacy handshake for a server
 * that answers like a legacy one, the era remembered across restarts, `protocol` forcing
 * either era, and the bound on input rounds.
 */
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeServer, RawStdioHost, writeConfig } from "../helpers/mcpx.js";
import { firstText, parseServers, runMcpx, startHttpFixture, type HttpFixture } from "../helpers/upstreams.js";

const framesFile = (): string => join(mkdtempSync(join(tmpdir(), "mcpx-frames-")), "frames.jsonl");

/** The methods of the messages the fixture received, in order. */
function methods(file: string): string[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => (JSON.parse(line) as { message?: { method?: string } }).message?.method ?? "(response)");
}

async function servers(mcpServers: Record<string, object>): Promise<Map<string, Record<string, unknown>>> {
  const config = writeConfig({ mcpServers, limits: { startupTimeoutSeconds: 10 } });
  const run = await runMcpx(["servers", "--json", "--config", config.file], config);
  return parseServers(run.stdout) as unknown as Map<string, Record<string, unknown>>;
}

const modernStdio = (frames: string, args: string[] = [], extra: object = {}): object =>
  nodeServer("modern-server.mjs", ["--stdio", ...args], { env: { MODERN_FRAMES: frames }, ...extra });

describe("the era of a stdio upstream", () => {
  it("is 2026-07-28 for a dual-era server under `auto`: discover, no initialize", async () => {
    const frames = framesFile();
    const reports = await servers({ dual: modernStdio(frames) });
    expect(reports.get("dual")).toMatchObject({ state: "ready", revision: "2026-07-28", tools: 10 });
    expect(methods(frames)).toContain("server/discover");
    expect(methods(frames)).not.toContain("initialize");
  });

  it("is legacy for a legacy server under `auto`: discover fails, initialize follows on the same process", async () => {
    const frames = framesFile();
    const reports = await servers({ old: modernStdio(frames, ["--legacy-only"]) });
    expect(reports.get("old")).toMatchObject({ state: "ready", revision: "2025-11-25", tools: 10 });
    expect(methods(frames).slice(0, 3)).toEqual(["server/discover", "initialize", "notifications/initialized"]);
  });

  it("is forced legacy by a legacy `protocol`: no discover at all", async () => {
    const frames = framesFile();
    const reports = await servers({ dual: modernStdio(frames, [], { protocol: "2025-11-25" }) });
    expect(reports.get("dual")).toMatchObject({ state: "ready", revision: "2025-11-25" });
    expect(methods(frames)[0]).toBe("initialize");
    expect(methods(frames)).not.toContain("server/discover");
  });

  it("is forced modern by `protocol: 2026-07-28`; a server that cannot speak it is down, without a fallback", async () => {
    const modern = framesFile();
    const legacy = framesFile();
    const reports = await servers({
      dual: modernStdio(modern, [], { protocol: "2026-07-28" }),
      old: modernStdio(legacy, ["--legacy-only"], { protocol: "2026-07-28" }),
    });
    expect(reports.get("dual")).toMatchObject({ state: "ready", revision: "2026-07-28" });
    expect(reports.get("old")).toMatchObject({ state: "down" });
    expect(String(reports.get("old")?.reason)).toContain("protocol 2026-07-28 is configured, but server/discover failed");
    expect(methods(legacy)).not.toContain("initialize");
  });

  it("is remembered: a legacy server that restarts is not probed again", async () => {
    const frames = framesFile();
    const host = new RawStdioHost(writeConfig({ mcpServers: { old: modernStdio(frames, ["--legacy-only"]) } }));
    try {
      await host.initialize();
      await host.request(1, "tools/call", { name: "old__crash", arguments: {} });
      await host.running.waitForLog("restarting upstream");
      let answer: Record<string, unknown> | undefined;
      for (let attempt = 2; attempt < 40 && !answer?.result; attempt++) {
        answer = await host.request(attempt, "tools/call", { name: "old__greet", arguments: { name: "again" } });
        if (!answer.result) await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect(firstText(answer!)).toBe("Hello, again, from 2026");
      const seen = methods(frames);
      expect(seen.filter((method) => method === "initialize")).toHaveLength(2);
      expect(seen.filter((method) => method === "server/discover")).toHaveLength(1);
    } finally {
      await host.close();
    }
  });
});

describe("the era of a Streamable HTTP upstream", () => {
  let dual: HttpFixture;
  let legacy: HttpFixture;
  beforeAll(async () => {
    dual = await startHttpFixture("modern-server.mjs", {}, ["--http"]);
    legacy = await startHttpFixture("asking-server.mjs", {}, ["--http"]);
  });
  afterAll(async () => {
    await dual?.close();
    await legacy?.close();
  });

  it("is 2026-07-28 for a dual-era server under `auto`, legacy when forced, and legacy for a legacy server (its 400 read first)", async () => {
    const reports = await servers({
      auto: { url: dual.url },
      forced: { url: dual.url, protocol: "2025-11-25" },
      old: { url: legacy.url },
    });
    expect(reports.get("auto")).toMatchObject({ state: "ready", revision: "2026-07-28", transport: "streamable-http" });
    expect(reports.get("forced")).toMatchObject({ state: "ready", revision: "2025-11-25", transport: "streamable-http" });
    expect(reports.get("old")).toMatchObject({ state: "ready", revision: "2025-11-25", transport: "streamable-http" });
  });

  it("is forced modern by `protocol: 2026-07-28`: a legacy server is down", async () => {
    const reports = await servers({ old: { url: legacy.url, protocol: "2026-07-28" } });
    expect(reports.get("old")).toMatchObject({ state: "down" });
    expect(String(reports.get("old")?.reason)).toContain("server/discover failed");
  });
});

describe("input rounds", () => {
  let host: RawStdioHost;
  beforeAll(async () => {
    host = new RawStdioHost(writeConfig({ mcpServers: { modern: modernStdio(framesFile(), ["--modern-only"]) }, limits: { maxInputRounds: 1 } }));
    await host.initialize("2025-11-25", { elicitation: { form: {} } });
  });
  afterAll(async () => host?.close());

  it("stop at limits.maxInputRounds: a server that keeps asking fails the call with an error naming the limit", async () => {
    host.send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "modern__ask_name", arguments: { rounds: 2 } } });
    const first = await host.waitFor((frame) => frame.method === "elicitation/create");
    host.send({ jsonrpc: "2.0", id: first.id, result: { action: "accept", content: { name: "One" } } });
    const answer = await host.waitFor((frame) => frame.id === 2 && !("method" in frame));
    expect(answer.error).toMatchObject({ message: expect.stringContaining("limits.maxInputRounds") });
    expect(host.frames.filter((frame) => frame.method === "elicitation/create")).toHaveLength(1);
  });
});

import { readFileSync } from "node:fs";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { nodeServer, RawStdioHost, writeConfig } from "../helpers/mcpx.js";
import { validateToServer } from "../helpers/spec-validator.js";
import { firstText, parseServers, recordPath, runMcpx, startHttpFixture, type HttpFixture } from "../helpers/upstreams.js";

async function servers(config: ReturnType<typeof writeConfig>): Promise<{ code: number; reports: ReturnType<typeof parseServers> }> {
  const run = await runMcpx(["servers", "--json", "--config", config.file], config);
  const reports = parseServers(run.stdout);
  return { code: run.code, reports };
}

describe("Streamable HTTP upstreams", () => {
  let upstream: HttpFixture;
  let host: RawStdioHost | undefined;
  beforeAll(async () => {
    upstream = await startHttpFixture("auth-http-server.mjs", { EXPECTED_TOKEN: "s3cret" });
  });
  afterAll(async () => upstream?.close());
  afterEach(async () => host?.close());

  it("sends the configured headers, with ${VAR} taken from the environment", async () => {
    const config = writeConfig({ mcpServers: { remote: { url: upstream.url, headers: { Authorization: "Bearer ${TOKEN}" } } } });
    config.env.TOKEN = "s3cret";
    host = new RawStdioHost(config);
    await host.initialize();
    const answer = await host.request(1, "tools/call", { name: "remote__whoami", arguments: {} });
    expect(firstText(answer)).toBe("Bearer s3cret");
  });

  it("hears list_changed on the upstream's GET stream and passes it on to the host", async () => {
    const config = writeConfig({ mcpServers: { remote: { url: upstream.url, headers: { Authorization: "Bearer ${TOKEN}" } } } });
    config.env.TOKEN = "s3cret";
    host = new RawStdioHost(config);
    await host.initialize();
    const added = firstText(await host.request(1, "tools/call", { name: "remote__add_tool", arguments: {} }));
    await host.waitFor((frame) => frame.method === "notifications/tools/list_changed");
    const list = await host.request(2, "tools/list");
    const names = (list.result as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name);
    expect(names).toContain(`remote__${added}`);
  });

  it("reports an upstream that refuses the credentials as down, with the HTTP status", async () => {
    const config = writeConfig({ mcpServers: { remote: { url: upstream.url, headers: { Authorization: "Bearer ${TOKEN}" } } } });
    config.env.TOKEN = "wrong";
    const { code, reports } = await servers(config);
    expect(code).toBe(1);
    expect(reports.get("remote")?.state).toBe("down");
    expect(reports.get("remote")?.reason).toContain("401");
  });
});

describe("the 2024-11-05 HTTP+SSE fallback", () => {
  let upstream: HttpFixture;
  let host: RawStdioHost | undefined;
  beforeAll(async () => {
    upstream = await startHttpFixture("legacy-sse-server.mjs");
  });
  afterAll(async () => upstream?.close());
  afterEach(async () => host?.close());

  it("is used when the server refuses Streamable HTTP, and shows as transport sse", async () => {
    const config = writeConfig({ mcpServers: { legacy: { url: upstream.url } } });
    const { code, reports } = await servers(config);
    expect(code).toBe(0);
    expect(reports.get("legacy")).toMatchObject({ state: "ready", transport: "sse", tools: 1 });

    host = new RawStdioHost(config);
    await host.initialize();
    const answer = await host.request(1, "tools/call", { name: "legacy__legacy_echo", arguments: { text: "hi" } });
    expect(firstText(answer)).toBe("legacy says: hi");
  });
});

describe("an upstream that answers an older revision", () => {
  let host: RawStdioHost | undefined;
  afterEach(async () => host?.close());

  it("is spoken to in the revision it answered, though mcpx offered 2025-11-25", async () => {
    const config = writeConfig({ mcpServers: { old: nodeServer("old-revision-server.mjs") } });
    const frames = recordPath(config, "frames.jsonl");
    config.env.FRAMES_RECORD = frames;
    const { reports } = await servers(config);
    expect(reports.get("old")).toMatchObject({ state: "ready", revision: "2024-11-05", tools: 2 });

    host = new RawStdioHost(config);
    await host.initialize();
    expect(firstText(await host.request(1, "tools/call", { name: "old__offered", arguments: {} }))).toBe("2025-11-25");
    expect(firstText(await host.request(2, "tools/call", { name: "old__old_echo", arguments: { text: "hi" } }))).toBe("old says: hi");

    // Every frame after the offer is a valid 2024-11-05 client message.
    const sent = readFileSync(frames, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { method?: string });
    const after = sent.filter((frame) => frame.method !== "initialize");
    expect(after.map((frame) => frame.method)).toEqual(expect.arrayContaining(["notifications/initialized", "tools/list", "tools/call"]));
    for (const frame of after) expect(validateToServer("2024-11-05", frame).errors).toEqual([]);
  });
});

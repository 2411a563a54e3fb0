/**
 * Design rule 10: roots are the gateway's. mcpx answers an upstream's `roots/list` itself: the
 * server's `roots` in the config, else the top-level `roots`; for a connection of one host's own
 * (`sharing: "per-host"`), that host's roots; else an empty list. A roots request is never an
 * open question, so no agent, rule or page can choose what a server may read.
 */
import { mkdirSync, mkdtempSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ListRootsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { ROOT, startMcpxHttp, writeConfig, type RunningMcpx, type TempConfig } from "../helpers/mcpx.js";
import { elicitListAll } from "../broker-e2e/support.js";
import { askingStdio, httpHost, toolJson, type HostOptions, type RecordingHost } from "./support.js";

const FILESYSTEM = join(ROOT, "node_modules", "@modelcontextprotocol", "server-filesystem", "dist", "index.js");
const ETC = { roots: [{ uri: "file:///etc", name: "what a careless answerer would give" }] };

/** A host that declares roots and would answer /etc if it were ever asked. */
function rootsHost(url: URL, roots = ETC, extra: HostOptions = {}): Promise<RecordingHost> {
  return httpHost(url, {
    capabilities: { roots: { listChanged: true } },
    setup: (client) => client.setRequestHandler(ListRootsRequestSchema, async () => roots),
    ...extra,
  });
}

function textOf(result: unknown): string {
  return ((result as { content: Array<{ text?: string }> }).content ?? []).map((block) => block.text ?? "").join("\n");
}

describe("with roots in the config", () => {
  let config: TempConfig;
  let mcpx: RunningMcpx & { url: URL };
  let host: RecordingHost;
  let agentHost: RecordingHost;
  let configured: string;
  let fromArgs: string;

  beforeAll(async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), "mcpx-roots-")));
    configured = join(dir, "configured");
    fromArgs = join(dir, "from-args");
    mkdirSync(configured);
    mkdirSync(fromArgs);
    config = writeConfig({
      roots: [configured],
      mcpServers: {
        files: { command: process.execPath, args: [FILESYSTEM, fromArgs] },
        ask: askingStdio(),
        own: askingStdio({ roots: [{ uri: "file:///srv/own", name: "own" }] }),
      },
      elicitation: { ttlSeconds: 60 },
    });
    mcpx = await startMcpxHttp(config);
    host = await rootsHost(mcpx.url);
    agentHost = await httpHost(mcpx.url, { capabilities: {} });
  });
  afterAll(async () => {
    await host?.close();
    await agentHost?.close();
    await mcpx?.close();
  });

  it("the official filesystem server serves the configured root, not /etc and not its own arguments", async () => {
    // It asks for roots right after its handshake and replaces its directories with the answer.
    const deadline = Date.now() + 10_000;
    let listed = "";
    while (Date.now() < deadline) {
      // Until the server is up its tool is unknown; until it has mcpx's answer it lists its arguments.
      listed = await host.client.callTool({ name: "files__list_allowed_directories", arguments: {} }).then(textOf, () => "");
      if (listed.includes(configured)) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(listed).toContain(configured);
    expect(listed).not.toContain(fromArgs);
    expect(listed).not.toContain("/etc");
  });

  it("answers the top-level roots, and a server's own roots where it has them; the host is never asked", async () => {
    expect(toolJson(await host.client.callTool({ name: "ask__roots", arguments: {} }))).toEqual({
      roots: [{ uri: pathToFileURL(configured).href }],
    });
    expect(toolJson(await host.client.callTool({ name: "own__roots", arguments: {} }))).toEqual({
      roots: [{ uri: "file:///srv/own", name: "own" }],
    });
    expect(host.requests("roots/list")).toEqual([]);
  });

  it("leaves nothing for an agent, the page or the CLI to answer", async () => {
    await agentHost.client.callTool({ name: "ask__roots", arguments: {} });
    const pending = toolJson(await agentHost.client.callTool({ name: "mcpx__pending_questions", arguments: {} }));
    expect(pending).toEqual([]);
    expect(await elicitListAll(config)).toEqual([]);
  });
});

describe("without roots in the config", () => {
  let mcpx: RunningMcpx & { url: URL };
  let hostA: RecordingHost;
  let hostB: RecordingHost;
  const ROOTS_A = { roots: [{ uri: "file:///home/a/project", name: "A's project" }] };

  beforeAll(async () => {
    mcpx = await startMcpxHttp(writeConfig({ mcpServers: { ask: askingStdio(), mine: askingStdio({ sharing: "per-host" }) } }));
    hostA = await rootsHost(mcpx.url, ROOTS_A);
    hostB = await httpHost(mcpx.url, { capabilities: {} });
  });
  afterAll(async () => {
    await hostA?.close();
    await hostB?.close();
    await mcpx?.close();
  });

  it("a shared connection gets an empty list: one host's roots never apply to every host", async () => {
    expect(toolJson(await hostA.client.callTool({ name: "ask__roots", arguments: {} }))).toEqual({ roots: [] });
    expect(hostA.requests("roots/list")).toEqual([]);
  });

  it("a host's own connection gets that host's roots, and an empty list for a host that declared none", async () => {
    expect(toolJson(await hostA.client.callTool({ name: "mine__roots", arguments: {} }))).toEqual(ROOTS_A);
    expect(hostA.requests("roots/list")).toHaveLength(1);
    expect(toolJson(await hostB.client.callTool({ name: "mine__roots", arguments: {} }))).toEqual({ roots: [] });
  });

  it("the host's roots/list_changed reaches its own connection, and not the shared one", async () => {
    await hostA.client.sendRootsListChanged();
    const changed = (events: unknown): boolean => (events as Array<{ method?: string }>).some((event) => event.method === "notifications/roots/list_changed");
    const deadline = Date.now() + 10_000;
    let mine: unknown = [];
    while (Date.now() < deadline && !changed(mine)) {
      mine = toolJson(await hostA.client.callTool({ name: "mine__events", arguments: {} }));
      if (!changed(mine)) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(changed(mine)).toBe(true);
    expect(changed(toolJson(await hostA.client.callTool({ name: "ask__events", arguments: {} })))).toBe(false);
  });
});

/**
 * Tools a config hides (mcpx's `tools.allow`/`tools.deny`, Windsurf's `disabledTools`, and the
 * other hosts' lists read into them) are not in the catalogue hosts see, and a call to one is
 * refused as unknown; `mcpx servers` says which were hidden.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Catalogue } from "../../src/host/catalogue.js";
import { nodeServer, RawStdioHost, type TempConfig } from "../helpers/mcpx.js";
import { parseServers, runMcpx } from "../helpers/upstreams.js";

const tools = (...names: string[]) => ({
  tools: names.map((name) => ({ name, inputSchema: { type: "object" } })),
  prompts: [],
  resources: [],
  resourceTemplates: [],
});

describe("the catalogue's tool filter", () => {
  it("leaves out denied tools and tools not allowed, before the tools limit counts", () => {
    const catalogue = new Catalogue(
      [
        { server: "a", passthrough: false, catalog: tools("x", "y", "z"), tools: { deny: ["y"] } },
        { server: "b", passthrough: false, catalog: tools("p", "q", "r"), tools: { allow: ["q", "r"], deny: ["r"] } },
      ],
      { maxToolsPerServer: 2 },
    );
    expect(catalogue.tools.map((tool) => tool.name)).toEqual(["a__x", "a__z", "b__q"]);
    expect(catalogue.tool("a__y")).toBeUndefined();
    expect(catalogue.tool("b__p")).toBeUndefined();
    expect(catalogue.dropped.map(({ server, name, reason }) => [server, name, reason])).toEqual([
      ["a", "y", "hidden"],
      ["b", "p", "hidden"],
      ["b", "r", "hidden"],
    ]);
  });
});

/** A host's file (at `relative` in a temp dir, which is also HOME), served over stdio as it is. */
function hostFile(relative: string, doc: object): TempConfig {
  const dir = mkdtempSync(path.join(tmpdir(), "mcpx-filter-"));
  const file = path.join(dir, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(doc, null, 2));
  return { dir, file, env: { ...process.env, MCPX_STATE_DIR: path.join(dir, "state"), HOME: dir } };
}

describe.each([
  ["a Windsurf file's disabledTools", "mcp_config.json", { disabledTools: ["rich_notify"] }],
  ["mcpx's own tools.deny", "mcpx.json", { tools: { deny: ["rich_notify"] } }],
  ["mcpx's own tools.allow", "mcpx.json", { tools: { allow: ["rich_tool"] } }],
  ["a Gemini file's excludeTools", path.join(".gemini", "settings.json"), { excludeTools: ["rich_notify"] }],
])("%s", (_label, name, filter) => {
  let config: TempConfig;
  let host: RawStdioHost;
  beforeAll(async () => {
    config = hostFile(name, { mcpServers: { rich: nodeServer("rich-server.mjs", [], filter) } });
    host = new RawStdioHost(config);
    await host.initialize();
  });
  afterAll(async () => {
    await host?.close();
    rmSync(config.dir, { recursive: true, force: true });
  });

  it("hides the tool from tools/list and refuses a call to it as unknown", async () => {
    const listed = (await host.request(1, "tools/list")).result as { tools: Array<{ name: string }> };
    const names = listed.tools.map((tool) => tool.name).filter((n) => n.startsWith("rich__"));
    expect(names).toEqual(["rich__rich_tool"]);
    const refused = await host.request(2, "tools/call", { name: "rich__rich_notify", arguments: {} });
    expect(refused.error).toMatchObject({ code: -32602, message: expect.stringContaining('unknown tool "rich__rich_notify"') });
    const allowed = await host.request(3, "tools/call", { name: "rich__rich_tool", arguments: {} });
    expect(allowed.error).toBeUndefined();
  });

  it("mcpx call refuses it too, and still calls the others", async () => {
    const refused = await runMcpx(["call", "rich.rich_notify", "--config", config.file], config);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/tool "rich_notify" of server "rich" is hidden by the config/);
    const allowed = await runMcpx(["call", "rich.rich_tool", "--config", config.file], config);
    expect(allowed.code, allowed.stderr).toBe(0);
  });

  it("is listed by mcpx servers as hidden", async () => {
    const result = await runMcpx(["servers", "--json", "--config", config.file], config);
    expect(result.code, result.stderr).toBe(0);
    expect(parseServers(result.stdout).get("rich")?.dropped).toEqual([expect.objectContaining({ kind: "tool", name: "rich_notify", reason: "hidden" })]);
    expect(result.stderr).not.toMatch(/disabledTools|excludeTools/);
  });
});

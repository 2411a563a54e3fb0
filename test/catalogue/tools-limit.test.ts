/**
 * `limits.maxToolsPerServer`: an upstream listing more tools than that gets only the first ones
 * in front of hosts; `mcpx servers` says how many were left out, and the log says it once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeServer, RawStdioHost, writeConfig } from "../helpers/mcpx.js";
import { firstText, logRecords, parseServers, runMcpx } from "../helpers/upstreams.js";

const config = writeConfig({
  mcpServers: { many: nodeServer("many-tools-server.mjs", ["--count", "150", "--page-size", "40"]) },
  limits: { maxToolsPerServer: 120 },
});

describe("limits.maxToolsPerServer", () => {
  let host: RawStdioHost;
  beforeAll(async () => {
    host = new RawStdioHost(config);
    await host.initialize();
  });
  afterAll(async () => host?.close());

  it("serves the first tools the upstream lists, up to the limit, and logs what it left out once", async () => {
    const names: string[] = [];
    let cursor: string | undefined;
    for (let id = 1; ; id++) {
      const answer = await host.request(id, "tools/list", cursor ? { cursor } : {});
      const result = answer.result as { tools: Array<{ name: string }>; nextCursor?: string };
      // (mcpx's own agent tools come too: this host takes no questions itself)
      names.push(...result.tools.map((tool) => tool.name).filter((name) => name.startsWith("many__")));
      cursor = result.nextCursor;
      if (!cursor) break;
    }
    expect(names).toHaveLength(120);
    expect(names[0]).toBe("many__tool_000");
    expect(names.at(-1)).toBe("many__tool_119");
    expect(firstText(await host.request(100, "tools/call", { name: "many__tool_119", arguments: {} }))).toBe("tool_119");
    expect((await host.request(101, "tools/call", { name: "many__tool_120", arguments: {} })).error).toMatchObject({ code: -32602 });
    const warnings = logRecords(host.running.stderr()).filter((record) => record.reason === "limit");
    expect(warnings).toEqual([expect.objectContaining({ level: "warn", server: "many", kind: "tool", name: "tool_120", count: 30 })]);
  });

  it("is reported by mcpx servers, in JSON and under the table", async () => {
    const json = await runMcpx(["servers", "--json", "--config", config.file], config);
    expect(json.code, json.stderr + json.stdout).toBe(0);
    expect(parseServers(json.stdout).get("many")).toMatchObject({
      tools: 150,
      dropped: [
        {
          kind: "tool",
          name: "tool_120",
          reason: "limit",
          count: 30,
          message: "30 of its 150 tools are over limits.maxToolsPerServer (120); the first 120 it lists are kept",
        },
      ],
    });
    const table = await runMcpx(["servers", "--config", config.file], config);
    expect(table.stdout).toContain('many: left out tool "tool_120": 30 of its 150 tools are over limits.maxToolsPerServer (120)');
  });
});

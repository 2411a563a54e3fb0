import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeServer, RawStdioHost, writeConfig } from "../helpers/mcpx.js";
import { expectValidToClient } from "../helpers/spec-validator.js";
import { firstText } from "../helpers/upstreams.js";

describe("pagination", () => {
  let host: RawStdioHost;
  beforeAll(async () => {
    // 150 tools served by the upstream in pages of 40.
    host = new RawStdioHost(writeConfig({ mcpServers: { many: nodeServer("many-tools-server.mjs", ["--count", "150", "--page-size", "40"]) } }));
    // A host that takes questions itself: the catalogue is only the upstreams' (no mcpx__ agent tools).
    await host.initialize("2025-11-25", { elicitation: {} });
  });
  afterAll(async () => host?.close());

  it("mcpx follows the upstream's pages and serves its own in pages of 100", async () => {
    const first = await host.request(1, "tools/list");
    expectValidToClient("2025-11-25", first, "tools/list");
    const page1 = first.result as { tools: Array<{ name: string }>; nextCursor?: string };
    expect(page1.tools).toHaveLength(100);
    expect(typeof page1.nextCursor).toBe("string");

    const second = await host.request(2, "tools/list", { cursor: page1.nextCursor });
    expectValidToClient("2025-11-25", second, "tools/list");
    const page2 = second.result as { tools: Array<{ name: string }>; nextCursor?: string };
    expect(page2.tools).toHaveLength(51); // the upstream's 50 more, then mcpx__exec
    expect(page2.nextCursor).toBeUndefined();

    const all = [...page1.tools, ...page2.tools].map((tool) => tool.name).filter((name) => name !== "mcpx__exec");
    const expected = Array.from({ length: 150 }, (_, index) => `many__tool_${String(index).padStart(3, "0")}`);
    expect(new Set(all)).toEqual(new Set(expected));
    // The last tool of the upstream's last page is callable.
    expect(firstText(await host.request(3, "tools/call", { name: "many__tool_149", arguments: {} }))).toBe("tool_149");
  });

  it("rejects a cursor it did not issue with -32602", async () => {
    const answer = await host.request(4, "tools/list", { cursor: "not-a-cursor" });
    expect((answer.error as { code: number }).code).toBe(-32602);
    expectValidToClient("2025-11-25", answer, "tools/list");
  });
});

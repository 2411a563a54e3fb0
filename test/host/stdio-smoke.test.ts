import { afterEach, describe, expect, it } from "vitest";
import { nodeServer, RawStdioHost, writeConfig } from "../helpers/mcpx.js";

describe("mcpx serve over stdio", () => {
  let host: RawStdioHost | undefined;
  afterEach(async () => host?.close());

  it("serves a stdio upstream's tools under prefixed names and relays a call", async () => {
    const config = writeConfig({ mcpServers: { conf: nodeServer("conformance-server.mjs", ["--stdio"]) } });
    host = new RawStdioHost(config);
    const init = await host.initialize("2025-11-25");
    expect((init.result as { protocolVersion: string }).protocolVersion).toBe("2025-11-25");
    const list = await host.request(2, "tools/list");
    const names = (list.result as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name);
    expect(names).toContain("conf__test_simple_text");
    const call = await host.request(3, "tools/call", { name: "conf__test_simple_text" });
    expect(JSON.stringify(call.result)).toContain('"type":"text"');
  });
});

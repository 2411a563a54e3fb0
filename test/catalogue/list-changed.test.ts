import { afterEach, describe, expect, it } from "vitest";
import { nodeServer, RawStdioHost, writeConfig } from "../helpers/mcpx.js";
import { expectValidToClient } from "../helpers/spec-validator.js";
import { firstText } from "../helpers/upstreams.js";

describe("list_changed from an upstream", () => {
  let host: RawStdioHost | undefined;
  afterEach(async () => host?.close());

  it("reaches the host, and the next tools/list has the new tool", async () => {
    host = new RawStdioHost(writeConfig({ mcpServers: { changing: nodeServer("changing-server.mjs") } }));
    await host.initialize("2025-06-18");
    const before = host.frames.length;
    const added = firstText(await host.request(1, "tools/call", { name: "changing__add_tool", arguments: {} }));
    const notice = await host.waitFor((frame) => frame.method === "notifications/tools/list_changed" && host!.frames.indexOf(frame) >= before);
    expectValidToClient("2025-06-18", notice);

    const list = await host.request(2, "tools/list");
    const names = (list.result as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name);
    expect(names).toContain(`changing__${added}`);
    expect(firstText(await host.request(3, "tools/call", { name: `changing__${added}`, arguments: {} }))).toBe(`${added} works`);
  });
});

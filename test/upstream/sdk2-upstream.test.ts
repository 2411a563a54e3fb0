import { afterEach, describe, expect, it } from "vitest";
import { nodeServer, RawStdioHost, writeConfig } from "../helpers/mcpx.js";
import { expectValidToClient } from "../helpers/spec-validator.js";
import { firstText } from "../helpers/upstreams.js";

describe("an upstream built on the SDK 2.x packages", () => {
  let host: RawStdioHost | undefined;
  afterEach(async () => host?.close());

  it("serves its tools and prompts through mcpx", async () => {
    host = new RawStdioHost(writeConfig({ mcpServers: { v2: nodeServer("sdk2-server.mjs") } }));
    // A host that takes questions itself: the catalogue is only the upstream's (no mcpx__ agent tools).
    await host.initialize("2025-06-18", { elicitation: {} });
    const list = await host.request(1, "tools/list");
    expectValidToClient("2025-06-18", list, "tools/list");
    expect((list.result as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name)).toEqual(["v2__greet", "mcpx__exec"]);

    const call = await host.request(2, "tools/call", { name: "v2__greet", arguments: { name: "Ada" } });
    expectValidToClient("2025-06-18", call, "tools/call");
    expect(firstText(call)).toBe("Hello, Ada, from SDK 2");

    const prompt = await host.request(3, "prompts/get", { name: "v2__sdk2_prompt" });
    expectValidToClient("2025-06-18", prompt, "prompts/get");
    expect(JSON.stringify(prompt.result)).toContain("Say hello from SDK 2.");
  });
});

import { afterEach, describe, expect, it } from "vitest";
import { nodeServer, RawStdioHost, writeConfig } from "../helpers/mcpx.js";
import { firstText } from "../helpers/upstreams.js";

type Named = { name: string };
const names = (frame: Record<string, unknown>, key: string): string[] => ((frame.result as Record<string, Named[]>)[key] ?? []).map((item) => item.name);

describe("the names hosts see", () => {
  const hosts: RawStdioHost[] = [];
  afterEach(async () => {
    await Promise.all(hosts.splice(0).map((host) => host.close()));
  });
  async function start(config: object): Promise<RawStdioHost> {
    const host = new RawStdioHost(writeConfig(config));
    hosts.push(host);
    // A host that takes questions itself: the catalogue is only the upstreams' (no mcpx__ agent tools).
    await host.initialize("2025-11-25", { elicitation: {} });
    return host;
  }

  it("are <server>__<name>, or unprefixed for a passthrough server, and calls reach the owner", async () => {
    const host = await start({
      mcpServers: {
        conf: nodeServer("conformance-server.mjs", ["--stdio"]),
        plain: nodeServer("faulty-server.mjs", [], { passthrough: true, env: { X: "plain" } }),
      },
    });
    const tools = names(await host.request(1, "tools/list"), "tools");
    expect(tools).toContain("conf__test_simple_text");
    expect(tools).toContain("echo_env");
    expect(tools).not.toContain("plain__echo_env");
    expect(tools).not.toContain("test_simple_text");
    expect(names(await host.request(2, "prompts/list"), "prompts")).toContain("conf__test_simple_prompt");
    // Resource URIs stay as they are.
    const resources = (await host.request(3, "resources/list")).result as { resources: Array<{ uri: string }> };
    expect(resources.resources.map((resource) => resource.uri)).toContain("test://static-text");

    const echoed = JSON.parse(firstText(await host.request(4, "tools/call", { name: "echo_env", arguments: {} }))) as { X: string };
    expect(echoed.X).toBe("plain");
    const prompt = await host.request(5, "prompts/get", { name: "conf__test_prompt_with_arguments", arguments: { arg1: "a", arg2: "b" } });
    expect(JSON.stringify(prompt.result)).toContain("arg1='a', arg2='b'");
  });

  it("settle a clash between passthrough servers by config order, not by who started first", async () => {
    const host = await start({
      mcpServers: {
        first: nodeServer("faulty-server.mjs", [], { passthrough: true, env: { X: "first" } }),
        second: nodeServer("faulty-server.mjs", [], { passthrough: true, env: { X: "second" } }),
      },
    });
    const tools = names(await host.request(1, "tools/list"), "tools");
    expect(tools.filter((name) => name === "echo_env")).toHaveLength(1);
    const echoed = JSON.parse(firstText(await host.request(2, "tools/call", { name: "echo_env", arguments: {} }))) as { X: string };
    expect(echoed.X).toBe("first");
  });

  it("fit in 64 characters, the same on every run, and still route to the right tool", async () => {
    const config = { mcpServers: { longnames: nodeServer("long-names-server.mjs") } };
    // Per run: each exposed name and the (full) name of the tool a call under it reached.
    const runs: Array<Record<string, string>> = [];
    for (const _ of [1, 2]) {
      const host = await start(config);
      // mcpx's own mcpx__exec is listed beside the upstream's tools: only the upstream's are named here.
      const exposed = names(await host.request(1, "tools/list"), "tools").filter((name) => name !== "mcpx__exec");
      const reached: Record<string, string> = {};
      for (const [index, name] of exposed.entries()) {
        reached[name] = firstText(await host.request(10 + index, "tools/call", { name, arguments: {} }));
      }
      runs.push(reached);
    }
    const [first, second] = runs as [Record<string, string>, Record<string, string>];
    expect(second).toEqual(first);
    const exposed = Object.keys(first);
    expect(exposed).toHaveLength(3);
    for (const name of exposed) {
      expect(name.length).toBeLessThanOrEqual(64);
      expect(name).toMatch(/^longnames__[A-Za-z0-9_.-]+$/);
    }
    expect(first.longnames__short).toBe("short");
    // The two long names differ only past the cut, yet each reaches its own tool.
    const reachedLong = Object.values(first)
      .filter((full) => full !== "short")
      .sort();
    expect(reachedLong).toHaveLength(2);
    expect(reachedLong[0]).toMatch(/_draft$/);
    expect(reachedLong[1]).toMatch(/_final$/);
  });
});

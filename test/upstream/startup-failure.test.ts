import { afterEach, describe, expect, it } from "vitest";
import { nodeServer, RawStdioHost, writeConfig } from "../helpers/mcpx.js";
import { firstText, logRecords } from "../helpers/upstreams.js";

describe("an upstream that fails to start", () => {
  let host: RawStdioHost | undefined;
  afterEach(async () => host?.close());

  it("does not stop the others from serving, and its failure is logged with a reason", async () => {
    const config = writeConfig({
      mcpServers: {
        missing: { command: "/nonexistent/mcpx-test-no-such-command" },
        quitter: { command: process.execPath, args: ["-e", "process.stderr.write('quitting at once\\n'); process.exit(7)"] },
        faulty: nodeServer("faulty-server.mjs"),
      },
    });
    host = new RawStdioHost(config);
    await host.initialize();
    const list = await host.request(1, "tools/list");
    const names = (list.result as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name);
    expect(names).toContain("faulty__echo_env");
    expect(names.some((name) => name.startsWith("missing__") || name.startsWith("quitter__"))).toBe(false);
    const answer = await host.request(2, "tools/call", { name: "faulty__pid", arguments: {} });
    expect(firstText(answer)).toMatch(/^\d+$/);

    const failures = logRecords(host.running.stderr()).filter((record) => record.msg === "upstream failed to start");
    expect(failures).toContainEqual(expect.objectContaining({ server: "missing", reason: expect.stringContaining("could not start") }));
    expect(failures).toContainEqual(expect.objectContaining({ server: "quitter", reason: expect.stringContaining("code 7") }));
  });
});

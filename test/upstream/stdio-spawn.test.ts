import { mkdirSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { nodeServer, RawStdioHost, writeConfig } from "../helpers/mcpx.js";
import { firstText, logRecords } from "../helpers/upstreams.js";

describe("stdio upstreams are spawned as configured", () => {
  let host: RawStdioHost | undefined;
  afterEach(async () => host?.close());

  it("passes command, args, env and cwd from the config to the process", async () => {
    const config = writeConfig({
      mcpServers: {
        faulty: nodeServer("faulty-server.mjs", ["--flag", "value"], { env: { X: "from-config" }, cwd: "work" }),
      },
    });
    mkdirSync(join(config.dir, "work"));
    host = new RawStdioHost(config);
    await host.initialize();
    const answer = await host.request(1, "tools/call", { name: "faulty__echo_env", arguments: {} });
    const seen = JSON.parse(firstText(answer)) as { X: string; cwd: string; args: string[] };
    expect(seen.X).toBe("from-config");
    // A relative cwd is resolved against the config file's directory, not mcpx's own.
    expect(realpathSync(seen.cwd)).toBe(realpathSync(join(config.dir, "work")));
    expect(seen.args).toEqual(["--flag", "value"]);
  });

  it("logs the upstream's stderr lines as structured records naming the server", async () => {
    const config = writeConfig({ mcpServers: { faulty: nodeServer("faulty-server.mjs") } });
    host = new RawStdioHost(config);
    await host.initialize();
    await host.request(1, "tools/call", { name: "faulty__stderr", arguments: { line: "a line for the log" } });
    await host.running.waitForLog("a line for the log");
    const records = logRecords(host.running.stderr()).filter((record) => record.msg === "upstream stderr");
    expect(records).toContainEqual(expect.objectContaining({ server: "faulty", stderr: "a line for the log" }));
    // The line written at start-up, before any call, is there too.
    expect(records.some((record) => String(record.stderr).startsWith("faulty-server: started pid"))).toBe(true);
    // Nothing but protocol reached the host's stdout.
    expect(host.frames.every((frame) => frame.jsonrpc === "2.0")).toBe(true);
  });
});

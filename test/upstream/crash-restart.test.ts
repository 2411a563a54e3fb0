import { afterEach, describe, expect, it } from "vitest";
import { nodeServer, RawStdioHost, writeConfig } from "../helpers/mcpx.js";
import { firstText, logRecords, recordPath, waitForRecord } from "../helpers/upstreams.js";

describe("an upstream that exits in the middle of a call", () => {
  let host: RawStdioHost | undefined;
  afterEach(async () => host?.close());

  it("fails that call promptly, naming the upstream, restarts it with backoff, and leaves the others alone", async () => {
    const config = writeConfig({
      mcpServers: {
        faulty: nodeServer("faulty-server.mjs"),
        conf: nodeServer("conformance-server.mjs", ["--stdio"]),
      },
    });
    const record = recordPath(config);
    config.env.FAULTY_RECORD = record;
    host = new RawStdioHost(config);
    await host.initialize();
    const first = await waitForRecord(record, (event) => event.event === "start");

    const started = Date.now();
    const crashed = await host.request(1, "tools/call", { name: "faulty__crash", arguments: {} });
    expect(Date.now() - started).toBeLessThan(5_000);
    const error = crashed.error as { code: number; message: string; data?: { server?: string } };
    expect(error.code).toBe(-32000);
    expect(error.message).toContain('"faulty"');
    expect(error.data?.server).toBe("faulty");

    // The other upstream serves on while this one is down.
    const other = await host.request(2, "tools/call", { name: "conf__test_simple_text", arguments: {} });
    expect(firstText(other)).toContain("simple text");

    // It comes back by itself: a second "upstream ready", a new process, and calls work again.
    await host.running.waitForLog(/("msg":"upstream ready","server":"faulty"[\s\S]*){2}/, 10_000);
    const second = await waitForRecord(record, (event) => event.event === "start" && event.pid !== first.pid);
    const pid = await host.request(3, "tools/call", { name: "faulty__pid", arguments: {} });
    expect(firstText(pid)).toBe(String(second.pid));
    expect(host.running.child.exitCode).toBeNull();

    // A second crash soon after: the restart backs off longer than the first time.
    const again = await host.request(4, "tools/call", { name: "faulty__crash", arguments: {} });
    expect((again.error as { code: number }).code).toBe(-32000);
    await host.running.waitForLog(/("msg":"upstream ready","server":"faulty"[\s\S]*){3}/, 15_000);
    const delays = logRecords(host.running.stderr())
      .filter((record) => record.msg === "restarting upstream" && record.server === "faulty")
      .map((record) => record.inMs as number);
    expect(delays).toHaveLength(2);
    expect(delays[1]).toBeGreaterThan(delays[0]!);
  });
});

import type { ChildProcess } from "node:child_process";
import { describe, expect, it } from "vitest";
import { nodeServer, RawStdioHost, writeConfig } from "../helpers/mcpx.js";
import { isAlive, readRecord, recordPath, waitForRecord } from "../helpers/upstreams.js";

function exited(child: ChildProcess, timeoutMs = 15_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("mcpx did not exit")), timeoutMs);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

async function startWith(args: string[]) {
  const config = writeConfig({ mcpServers: { faulty: nodeServer("faulty-server.mjs", args) } });
  const record = recordPath(config);
  config.env.FAULTY_RECORD = record;
  const host = new RawStdioHost(config);
  await host.initialize();
  const { pid } = await waitForRecord(record, (event) => event.event === "start");
  return { host, record, pid };
}

describe("stopping stdio upstreams", () => {
  it("a well-behaved upstream exits when mcpx closes its stdin, before any signal", async () => {
    const { host, record, pid } = await startWith([]);
    host.running.child.stdin.end(); // the host leaves; mcpx shuts down by itself
    await exited(host.running.child);
    expect(isAlive(pid)).toBe(false);
    const events = readRecord(record).map((event) => event.event);
    expect(events).toContain("stdin-end");
    expect(events).not.toContain("sigterm");
  });

  it("an upstream that ignores stdin closing and SIGTERM is killed when the host leaves", async () => {
    const { host, record, pid } = await startWith(["--stubborn"]);
    host.running.child.stdin.end();
    await exited(host.running.child);
    expect(isAlive(pid)).toBe(false);
    const events = readRecord(record).map((event) => event.event);
    expect(events).toEqual(expect.arrayContaining(["stdin-end", "sigterm"]));
  });

  it("an upstream that ignores stdin closing and SIGTERM is killed when mcpx is sent SIGTERM", async () => {
    const { host, record, pid } = await startWith(["--stubborn"]);
    host.running.child.kill("SIGTERM");
    await exited(host.running.child);
    expect(isAlive(pid)).toBe(false);
    expect(readRecord(record).map((event) => event.event)).toContain("sigterm");
  });
});

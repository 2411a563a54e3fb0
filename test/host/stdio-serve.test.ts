/**
 * `mcpx serve` over stdio as a host process sees it: stdout carries only JSON-RPC (logs go to
 * stderr), and when the host closes stdin mcpx stops its upstreams and exits by itself.
 */
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { nodeServer, RawStdioHost, writeConfig } from "../helpers/mcpx.js";

describe("mcpx serve (stdio)", () => {
  let host: RawStdioHost | undefined;
  afterEach(async () => host?.close());

  it("writes only JSON-RPC messages to stdout, while logging at debug level on stderr", async () => {
    host = new RawStdioHost(writeConfig({ mcpServers: { gate: nodeServer("gate-server.mjs") } }));
    let raw = "";
    host.running.child.stdout.on("data", (chunk: Buffer) => (raw += chunk.toString("utf8")));
    await host.initialize("2025-11-25");
    await host.request(1, "tools/list");
    await host.request(2, "tools/call", { name: "gate__open", arguments: {} });
    expect(host.running.stderr()).toContain("host initialized");
    const lines = raw.split("\n").filter((line) => line !== "");
    expect(lines.length).toBe(host.frames.length);
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: "2.0" });
  });

  it("exits with 0 on its own once the host closes stdin", async () => {
    host = new RawStdioHost(writeConfig({ mcpServers: { gate: nodeServer("gate-server.mjs") } }));
    await host.initialize("2025-11-25");
    await host.request(1, "tools/list"); // the upstream is up
    const child = host.running.child;
    const upstreams = childPids(child.pid!);
    expect(upstreams.length).toBe(1);
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    child.stdin.end();
    let timer: NodeJS.Timeout | undefined;
    const code = await Promise.race([exited, new Promise<string>((resolve) => (timer = setTimeout(() => resolve("still running"), 10_000)))]).finally(() =>
      clearTimeout(timer),
    );
    expect(code).toBe(0);
    // mcpx waited for its upstream to end before exiting.
    for (const pid of upstreams) expect(alive(pid), `upstream ${pid}`).toBe(false);
  });
});

/** Direct children of a process (Linux). */
function childPids(pid: number): number[] {
  const text = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim();
  return text === "" ? [] : text.split(/\s+/).map(Number);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * A script through the daemon that loops forever ends at its deadline (scripts.timeoutSeconds)
 * with a clear error, exit 1, and the daemon keeps serving meanwhile: a `mcpx call` made while
 * the loop runs is answered before the loop's run ends (the sandbox runs off the daemon's
 * main thread), and the daemon serves the next run after.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SqliteStore } from "../../src/broker/sqlite/sqlite-store.js";
import type { TempConfig } from "../helpers/mcpx.js";
import { runMcpx } from "../helpers/upstreams.js";
import { callEcho, daemonConfig, recordOf, spawnMcpx, stateOf, stopDaemons, until } from "./daemon-support.js";

let config: TempConfig;
beforeAll(async () => {
  config = daemonConfig({}, { scripts: { timeoutSeconds: 4 } });
});
afterAll(stopDaemons);

async function runningRun(): Promise<boolean> {
  const store = SqliteStore.open(stateOf(config));
  try {
    return (await Promise.all((await store.calls.idsStartingWith("", 100)).map(async (id) => (await store.calls.get(id))!))).some(
      (call) => call.server === "mcpx" && call.state === "running",
    );
  } finally {
    await store.close();
  }
}

describe("a script that loops forever, through the daemon", () => {
  it("ends at its deadline with exit 1 and says so; the daemon answers a call meanwhile and serves the next run", async () => {
    expect((await callEcho(config, "warm")).code).toBe(0); // the daemon up, and its upstream
    const daemon = recordOf(config)!;
    const loop = spawnMcpx(["exec", "for (;;) {}", "--config", config.file], config);
    await until("the loop's run", async () => ((await runningRun()) ? true : undefined));
    const meanwhile = await callEcho(config, "meanwhile");
    expect(meanwhile.stdout).toBe('{"label":"meanwhile"}\n');
    expect(loop.child.exitCode).toBeNull(); // the call was answered while the loop still ran
    expect(await loop.exited).toBe(1);
    expect(loop.stderr()).toMatch(/^mcpx: exec\.ts(:\d+)?: out of time \(scripts\.timeoutSeconds\)/m);
    expect(recordOf(config)!.pid).toBe(daemon.pid);
    const next = await runMcpx(["exec", "return 6 * 7", "--config", config.file], config);
    expect(next.stdout).toBe("42\n");
  });
});

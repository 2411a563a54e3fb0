/**
 * A warm `mcpx call` (issue 14: at most two Node starts): a plain call line with a daemon
 * serving its config runs from dist/cli/call-warm.cjs, required by main.cjs (cli/call-line.ts),
 * so it loads no ES module of dist/, not commander, and not node:crypto once the daemon's
 * record holds the config's stat (cli/daemon-file.ts). Every module a run loads is listed by a
 * preload (test/fixtures/module-log.mjs).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SqliteStore } from "../../src/broker/sqlite/sqlite-store.js";
import { ROOT, type TempConfig } from "../helpers/mcpx.js";
import { runLogged } from "../helpers/module-log.js";
import { runMcpx } from "../helpers/upstreams.js";
import { callEcho, daemonConfig, recordOf, stateOf, stopDaemons, until } from "./daemon-support.js";

afterAll(stopDaemons);

/** The files of dist/ and node_modules/ a run loaded, as paths under the project. */
const loadedFiles = (modules: readonly string[]): string[] =>
  modules
    .map((module) => module.replace(/^cjs:/, "").replace(/^file:\/\//, ""))
    .filter((file) => file.includes("/dist/") || file.includes("/node_modules/"))
    .map((file) => file.slice(file.indexOf(file.includes("/dist/") ? "/dist/" : "/node_modules/") + 1));

const warmLine = (config: TempConfig, label: string) => ["call", "typed.echo", JSON.stringify({ label }), "--config", config.file];

describe("a warm mcpx call", () => {
  it("runs from main.cjs and call-warm.cjs alone; with the config's stat in the record, without node:crypto", async () => {
    const config = daemonConfig();
    expect((await callEcho(config, "cold")).code).toBe(0);
    // Whether or not the record has the stat yet (the config was written just now): warm, and right.
    const early = await runLogged(warmLine(config, "early"), config);
    expect(early.code, early.stderr).toBe(0);
    expect(early.stdout).toBe('{"label":"early"}\n');
    expect([...new Set(loadedFiles(early.modules))].sort()).toEqual(["dist/cli/call-warm.cjs", "dist/cli/main.cjs"]);

    // Once the config has been left alone, the daemon records its stat, and a command needs no hash.
    await until("the config's stat in the record", () => recordOf(config)?.configStat, 15_000);
    const warm = await runLogged(warmLine(config, "warm"), config);
    expect(warm.code, warm.stderr).toBe(0);
    expect(warm.stdout).toBe('{"label":"warm"}\n');
    expect(warm.stderr).toBe("");
    expect([...new Set(loadedFiles(warm.modules))].sort()).toEqual(["dist/cli/call-warm.cjs", "dist/cli/main.cjs"]);
    expect(warm.modules.filter((module) => /node:crypto$/.test(module))).toEqual([]);
    expect(warm.modules.filter((module) => module.startsWith("file://") && module.includes("/dist/"))).toEqual([]);
  }, 60_000);

  it("MCPX_NO_DAEMON=1 leaves the running daemon alone: the call is made by a runner of its own", async () => {
    const config = daemonConfig();
    expect((await callEcho(config, "one")).code).toBe(0);
    const daemon = recordOf(config)!.pid;
    const alone = await runMcpx(warmLine(config, "alone"), config, { MCPX_NO_DAEMON: "1" });
    expect(alone.code, alone.stderr).toBe(0);
    expect(alone.stdout).toBe('{"label":"alone"}\n');
    const store = SqliteStore.open(stateOf(config));
    try {
      const calls = await Promise.all((await store.calls.idsStartingWith("", 10)).map(async (id) => (await store.calls.get(id))!));
      const made = calls.map((call) => [call.arguments, call.runnerPid === daemon]);
      expect(made).toEqual(
        expect.arrayContaining([
          [{ label: "one" }, true],
          [{ label: "alone" }, false],
        ]),
      );
    } finally {
      await store.close();
    }
  }, 60_000);

  it("is the build's: main.cjs finds call-warm.cjs beside it, daemon-call.js bundled with what it imports statically", () => {
    const inputs = JSON.parse(readFileSync(join(ROOT, "dist", "cli", "call-warm.inputs.json"), "utf8")) as string[];
    expect(inputs).toContain("cli/daemon-call.js");
    expect(inputs).toContain("cli/daemon-send.js");
    expect(inputs.filter((input) => /^cli\/(program|context|call|serve)\.js$/.test(input) || input.includes("node_modules"))).toEqual([]);
  });
});

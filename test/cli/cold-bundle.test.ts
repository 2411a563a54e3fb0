/**
 * Every command but the hot ones runs from the build's bundle (scripts/bundle-cold.mjs): the
 * modules of dist/ a `call`, `serve` or `elicit` reaches, as a few dozen ES module chunks instead
 * of some three hundred files to resolve and read, which halves what starting one costs. Every
 * module a run loads is listed by a preload (test/fixtures/module-log.mjs): a command goes
 * through the bundle, loads none of tsc's own modules, and still loads what it uses only when it
 * uses it (the Redis client of a store it does not have, the OpenTelemetry SDK it is not asked for).
 * The worker threads (search index, script sandbox) run from the bundle's copies of their modules.
 */
import { execFile } from "node:child_process";
import { existsSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixture, MCPX_BIN, nodeServer, ROOT, writeConfig, type TempConfig } from "../helpers/mcpx.js";

const CLI = join(ROOT, "dist", "cli");

function loadedBy(args: string[], config: TempConfig, log: string): Promise<{ code: number; stdout: string; stderr: string; modules: string[] }> {
  rmSync(log, { force: true });
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--import", fixture("module-log.mjs"), MCPX_BIN, ...args],
      { env: { ...config.env, MCPX_MODULE_LOG: log, MCPX_NO_DAEMON: "1" }, timeout: 30_000 },
      (error, stdout, stderr) => {
        const code = error && typeof error.code === "number" ? error.code : error ? -1 : 0;
        resolve({ code, stdout, stderr, modules: readFileSync(log, "utf8").split("\n").filter(Boolean) });
      },
    );
  });
}

/** tsc's own modules of dist/ a run loaded (not the bundles, not the hot path's main.cjs). */
const unbundled = (modules: readonly string[]): string[] =>
  modules.filter(
    (module) => module.includes(`${ROOT}/dist/`) && !/\/dist\/cli\/(main\.cjs|program\.bundle\.js|cold-[^/]+\.js|index-worker\.js|worker\.js)$/.test(module),
  );

describe("the cold commands' bundle", () => {
  let config: TempConfig;
  let log: string;

  beforeAll(() => {
    config = writeConfig({ mcpServers: { desk: nodeServer("desk-server.mjs") } });
    log = join(config.dir, "modules.log");
  });
  afterAll(() => rmSync(config.dir, { recursive: true, force: true }));

  it("is there after the build, newer than program.js (so main.js takes it), with the worker threads' modules beside it", () => {
    expect(statSync(join(CLI, "program.bundle.js")).mtimeMs).toBeGreaterThanOrEqual(statSync(join(CLI, "program.js")).mtimeMs);
    const inputs = JSON.parse(readFileSync(join(CLI, "program.bundle.inputs.json"), "utf8")) as string[];
    for (const module of ["cli/serve.js", "host/gateway.js", "broker/redis/open.js", "discovery/index-worker.js", "scripts/sandbox/worker.js"]) {
      expect(inputs).toContain(module);
    }
    expect(existsSync(join(CLI, "index-worker.js"))).toBe(true);
    expect(existsSync(join(CLI, "worker.js"))).toBe(true);
  });

  it("runs a command that reads a catalogue with none of tsc's modules, and nothing it does not use", async () => {
    const run = await loadedBy(["tools", "--json", "--config", config.file], config, log);
    expect(run.stderr).not.toMatch(/unexpected error/);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(expect.arrayContaining([expect.objectContaining({ server: "desk" })]));
    expect(run.modules.some((module) => module.endsWith("/dist/cli/program.bundle.js"))).toBe(true);
    expect(unbundled(run.modules)).toEqual([]);
    // Loaded when asked for, not at every start: the Redis client, the OpenTelemetry SDK.
    expect(run.modules.filter((module) => /\/node_modules\/(ioredis|@opentelemetry)\//.test(module))).toEqual([]);
  }, 30_000);
});

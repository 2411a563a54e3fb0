/**
 * `mcpx servers` lists the servers of a host's file it left out and why; a server the person
 * disabled whose variable is unset is not a warning on every command.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { nodeServer, writeConfig } from "../helpers/mcpx.js";
import { parseServers, runMcpx } from "../helpers/upstreams.js";

function cursorFile(): ReturnType<typeof writeConfig> & { cursor: string } {
  const config = writeConfig({});
  mkdirSync(join(config.dir, ".cursor"));
  const cursor = join(config.dir, ".cursor", "mcp.json");
  writeFileSync(
    cursor,
    JSON.stringify({
      mcpServers: {
        faulty: nodeServer("faulty-server.mjs"),
        keyless: { command: process.execPath, env: { API_KEY: "${MCPX_TEST_UNSET_KEY}" } },
        resting: { command: process.execPath, env: { API_KEY: "${env:MCPX_TEST_UNSET_OTHER}" }, disabled: true },
        off: { ...nodeServer("faulty-server.mjs"), disabled: true },
      },
    }),
  );
  return { ...config, cursor };
}

describe("servers left out of a host's file", () => {
  it("are listed by mcpx servers with why, in the table and in --json", async () => {
    const config = cursorFile();
    const [json, table] = await Promise.all([
      runMcpx(["servers", "--json", "--config", config.cursor], config),
      runMcpx(["servers", "--config", config.cursor], config),
    ]);
    expect(json.code, json.stderr).toBe(1); // keyless cannot run
    const reports = parseServers(json.stdout);
    // Read by this command, or by the other one running beside it first (then this one reads the cache).
    expect(["ready", "cached"]).toContain(reports.get("faulty")?.state);
    expect(reports.get("keyless")).toMatchObject({ state: "left-out", reason: expect.stringContaining("MCPX_TEST_UNSET_KEY is not set") });
    expect(reports.get("resting")).toMatchObject({ state: "disabled", reason: expect.stringContaining("MCPX_TEST_UNSET_OTHER is not set") });
    expect(reports.get("off")).toMatchObject({ state: "disabled", reason: expect.stringContaining('"disabled": true') });
    expect(table.stdout).toMatch(/^keyless\s+left-out\s/m);
    expect(table.stdout).toMatch(/^keyless: left-out: .*MCPX_TEST_UNSET_KEY is not set/m);
  });

  it("a disabled one with an unset variable is not warned about on every command; one that should run is", async () => {
    const config = cursorFile();
    const run = await runMcpx(["tools", "faulty", "--config", config.cursor], config);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('left out server "keyless"');
    expect(run.stderr).not.toContain("resting");
  });
});

/**
 * `mcpx doctor`: says what is broken and what to do, without starting a server: a command
 * that is not installed fails with the key to fix, a server beyond this machine in clear text
 * is a warning, a state directory others can read fails with the chmod to run; a config that
 * cannot be read fails naming the problem. Nothing wrong: exit 0, and nothing is made.
 */
import { chmodSync, existsSync, mkdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { nodeServer, writeConfig } from "../helpers/mcpx.js";
import { runMcpx } from "../helpers/upstreams.js";

interface Check {
  name: string;
  status: string;
  detail: string;
  fix?: string;
}

function byName(stdout: string): Map<string, Check> {
  return new Map((JSON.parse(stdout) as Check[]).map((check) => [check.name, check]));
}

describe("mcpx doctor", () => {
  it("names what is broken and the fix, and exits 1", async () => {
    const config = writeConfig({
      mcpServers: {
        good: nodeServer("faulty-server.mjs"),
        missing: { command: "mcpx-no-such-command-anywhere" },
        remote: { url: "http://mcp.example.com/mcp" },
      },
    });
    mkdirSync(config.env.MCPX_STATE_DIR!, { recursive: true });
    chmodSync(config.env.MCPX_STATE_DIR!, 0o755);
    const run = await runMcpx(["doctor", "--json", "--config", config.file], config);
    expect(run.code).toBe(1);
    const checks = byName(run.stdout);
    expect(checks.get("runtime")?.status).toBe("ok");
    expect(checks.get("config")).toMatchObject({ status: "ok", detail: expect.stringContaining("3 servers") });
    expect(checks.get('server "good"')).toMatchObject({ status: "ok", detail: `runs ${process.execPath}` });
    expect(checks.get('server "missing"')).toMatchObject({
      status: "fail",
      detail: 'command "mcpx-no-such-command-anywhere" not found',
      fix: "install it, or fix mcpServers.missing.command",
    });
    expect(checks.get('server "remote"')).toMatchObject({ status: "warn", detail: "http://mcp.example.com in clear text" });
    expect(checks.get("state directory")).toMatchObject({ status: "fail", fix: `chmod 700 ${config.env.MCPX_STATE_DIR}` });
  });

  it("says nothing is wrong with a good config, makes nothing, and exits 0; a broken config fails", async () => {
    const config = writeConfig({ mcpServers: { good: nodeServer("faulty-server.mjs") } });
    const run = await runMcpx(["doctor", "--config", config.file], config);
    expect(run.code, run.stdout).toBe(0);
    expect(run.stdout).toMatch(/^ok {4}runtime: Node /m);
    expect(run.stdout).toContain("does not exist yet (made on first use)");
    expect(existsSync(config.env.MCPX_STATE_DIR!)).toBe(false);

    const broken = writeConfig({ mcpServers: { bad: { comand: "x" } } });
    const failed = await runMcpx(["doctor", "--json", "--config", broken.file], broken);
    expect(failed.code).toBe(1);
    expect(byName(failed.stdout).get("config")).toMatchObject({ status: "fail", detail: expect.stringContaining('did you mean "command"') });
  });
});

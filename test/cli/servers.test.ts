import { writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { nodeServer, writeConfig } from "../helpers/mcpx.js";
import { parseServers, runMcpx } from "../helpers/upstreams.js";
import { startupRaceConfig } from "../helpers/startup-race.js";

const MISSING = "/nonexistent/mcpx-test-no-such-command";

describe("mcpx servers", () => {
  it("reports a dead upstream as down with its reason, the others ready with revision and counts, and exits 1", async () => {
    const config = writeConfig({
      mcpServers: {
        broken: { command: MISSING, args: ["--whatever"] },
        faulty: nodeServer("faulty-server.mjs"),
        sdk2: nodeServer("sdk2-server.mjs"),
      },
    });
    const run = await runMcpx(["servers", "--json", "--config", config.file], config);
    expect(run.code, run.stderr + run.stdout).toBe(1);
    const reports = parseServers(run.stdout);
    expect(reports.get("broken")).toMatchObject({ state: "down", revision: null, tools: 0 });
    expect(reports.get("broken")?.reason).toContain(MISSING);
    expect(reports.get("faulty")).toMatchObject({
      state: "ready",
      transport: "stdio",
      revision: "2025-11-25",
      tools: 5,
      resources: 0,
      resourceTemplates: 0,
      prompts: 0,
      reason: null,
    });
    // An SDK 2.x server negotiates the revision mcpx offers, like a 1.x one.
    expect(reports.get("sdk2")).toMatchObject({ state: "ready", revision: "2025-11-25", tools: 1, prompts: 1 });
  });

  it("prints a table with the reason for a down server", async () => {
    const config = writeConfig({ mcpServers: { broken: { command: MISSING }, faulty: nodeServer("faulty-server.mjs") } });
    const run = await runMcpx(["servers", "--config", config.file], config);
    expect(run.code, run.stderr + run.stdout).toBe(1);
    expect(run.stdout).toMatch(/^SERVER\s+STATE\s+REVISION/m);
    expect(run.stdout).toMatch(/^faulty\s+ready\s+2025-11-25\s+stdio\s+5\b/m);
    expect(run.stdout).toMatch(new RegExp(`^broken: down: .*${MISSING}`, "m"));
  });

  it("counts a server that declares resources but has no resources/templates/list as ready", async () => {
    const config = writeConfig({ mcpServers: { changing: nodeServer("changing-server.mjs") } });
    const run = await runMcpx(["servers", "--json", "--config", config.file], config);
    expect(run.code, run.stderr + run.stdout).toBe(0);
    expect(parseServers(run.stdout).get("changing")).toMatchObject({ state: "ready", tools: 3, resources: 3, resourceTemplates: 0 });
  });

  it("waits for a server that is mid-restart when the others are up: down with its reason, not starting", async () => {
    const config = startupRaceConfig();
    const run = await runMcpx(["servers", "--json", "--config", config.file], config);
    expect(run.code, run.stderr + run.stdout).toBe(1);
    const reports = parseServers(run.stdout);
    expect(reports.get("slow")?.state).toBe("ready");
    expect(reports.get("broken")).toMatchObject({ state: "down" });
    expect(reports.get("broken")?.reason).toContain("exited with code 1");
  });

  it("exits 0 when every upstream is ready", async () => {
    const config = writeConfig({ mcpServers: { faulty: nodeServer("faulty-server.mjs") } });
    const run = await runMcpx(["servers", "--json", "--config", config.file], config);
    expect(run.code, run.stderr + run.stdout).toBe(0);
    expect(parseServers(run.stdout).get("faulty")?.state).toBe("ready");
  });

  it("exits 2 on a config error, naming the key and the file, without a stack trace", async () => {
    const config = writeConfig({});
    writeFileSync(config.file, JSON.stringify({ mcpServers: { faulty: { ...nodeServer("faulty-server.mjs"), timout: 5 } } }));
    const run = await runMcpx(["servers", "--json", "--config", config.file], config);
    expect(run.code, run.stderr + run.stdout).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain("mcpServers.faulty.timout");
    expect(run.stderr).toContain(config.file);
    expect(run.stderr).not.toMatch(/^\s+at /m);
  });
});

describe("a pinned protocol revision", () => {
  it("is what mcpx offers; an upstream answering another revision, or a pin to an era the server cannot speak, is down with why", async () => {
    // old-revision-server always answers 2024-11-05, whatever it is offered.
    const config = writeConfig({
      mcpServers: {
        matches: nodeServer("old-revision-server.mjs", [], { protocol: "2024-11-05" }),
        differs: nodeServer("old-revision-server.mjs", [], { protocol: "2025-06-18" }),
        modern: nodeServer("old-revision-server.mjs", [], { protocol: "2026-07-28" }),
      },
    });
    const run = await runMcpx(["servers", "--json", "--config", config.file], config);
    expect(run.code, run.stderr + run.stdout).toBe(1);
    const reports = parseServers(run.stdout);
    expect(reports.get("matches")).toMatchObject({ state: "ready", revision: "2024-11-05" });
    expect(reports.get("differs")).toMatchObject({ state: "down" });
    expect(reports.get("differs")?.reason).toContain("protocol 2025-06-18 is configured, but the server answered 2024-11-05");
    expect(reports.get("modern")).toMatchObject({ state: "down" });
    // A 2026-07-28 pin is a modern handshake (server/discover), with no fallback to initialize.
    expect(reports.get("modern")?.reason).toContain("protocol 2026-07-28 is configured, but server/discover failed");
  });
});

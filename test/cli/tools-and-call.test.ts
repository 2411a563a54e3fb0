/**
 * `mcpx tools` lists the names hosts see with one-line descriptions; `mcpx call` takes the
 * `server__tool` name and `key=value` arguments typed by the tool's inputSchema.
 */
import { describe, expect, it } from "vitest";
import { nodeServer, writeConfig } from "../helpers/mcpx.js";
import { runMcpx } from "../helpers/upstreams.js";
import type { ToolEntry } from "../../src/cli/tools.js";

const config = writeConfig({
  mcpServers: {
    typed: nodeServer("typed-args-server.mjs"),
    gate: nodeServer("gate-server.mjs"),
  },
});

describe("mcpx tools", () => {
  it("lists every tool by its exposed name with the first line of its description", async () => {
    const run = await runMcpx(["tools", "--config", config.file], config);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^typed__echo\s+Returns its arguments as JSON$/m);
    expect(run.stdout).toMatch(/^gate__open\s+Opens the gate/m);
    expect(run.stdout).not.toContain("second line");
  });

  it("one server, as JSON", async () => {
    const run = await runMcpx(["tools", "typed", "--json", "--config", config.file], config);
    expect(run.code, run.stderr).toBe(0);
    const entries = JSON.parse(run.stdout) as ToolEntry[];
    expect(entries.map((entry) => entry.name)).toEqual(["typed__echo", "typed__hang"]);
    expect(entries[0]).toMatchObject({ server: "typed", tool: "echo", description: expect.stringContaining("second line") });
  });

  it("an unknown server is a usage error with a suggestion; a down one is named on stderr and exits 1", async () => {
    const wrong = await runMcpx(["tools", "typd", "--config", config.file], config);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('no server named "typd"');
    expect(wrong.stderr).toContain('did you mean "typed"?');
    const broken = writeConfig({ mcpServers: { broken: { command: "/nonexistent/mcpx-test-tools" }, gate: nodeServer("gate-server.mjs") } });
    const run = await runMcpx(["tools", "--config", broken.file], broken);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^gate__wait/m);
    expect(run.stderr).toMatch(/^mcpx: broken is down: .*mcpx servers shows why/m);
  });
});

describe("mcpx call with key=value and server__tool", () => {
  it("types each value by the inputSchema", async () => {
    const run = await runMcpx(
      [
        "call",
        "typed__echo",
        "label=007",
        "count=3",
        "ratio=0.5",
        "loud=yes",
        "tags=a,b",
        "sizes=1,2",
        'options={"deep":[1]}',
        "maybe=4",
        "--config",
        config.file,
      ],
      config,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      label: "007",
      count: 3,
      ratio: 0.5,
      loud: true,
      tags: ["a", "b"],
      sizes: [1, 2],
      options: { deep: [1] },
      maybe: 4,
    });
  });

  it("server.tool with JSON still works; a value of the wrong type or an unknown argument is refused by name", async () => {
    const json = await runMcpx(["call", "typed.echo", '{"count":"3"}', "--config", config.file], config);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({ count: "3" }); // JSON is taken as given
    const wrong = await runMcpx(["call", "typed__echo", "count=many", "--config", config.file], config);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('argument "count" must be a number, got "many"');
    const unknown = await runMcpx(["call", "typed__echo", "cuont=1", "--config", config.file], config);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('has no argument "cuont"; did you mean "count"?');
  });
});

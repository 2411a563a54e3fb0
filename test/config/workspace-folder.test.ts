/**
 * `${workspaceFolder}` only where there is a workspace (issue 13, item 5): in a user-level
 * host file (`~/.cursor/mcp.json`, VS Code's user `mcp.json`) it is no folder at all, so the
 * server using it is disabled with a warning (serve) or not imported (import), never widened
 * to the home or settings folder. A project's `.cursor/` or `.vscode/` file keeps its folder.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fixture } from "../helpers/mcpx.js";
import { type Machine, machine } from "../helpers/host-home.js";

let m: Machine;
beforeEach(() => {
  m = machine();
});
afterEach(() => m.remove());

const files = { command: process.execPath, args: [fixture("gate-server.mjs"), "${workspaceFolder}"] };
const gate = { command: process.execPath, args: [fixture("gate-server.mjs")] };

async function states(config: string): Promise<{ byName: Record<string, string>; stderr: string }> {
  const result = await m.mcpx("servers", "--config", config, "--json");
  const reports = JSON.parse(result.stdout) as { name: string; state: string }[];
  return { byName: Object.fromEntries(reports.map((r) => [r.name, r.state])), stderr: result.stderr };
}

describe("${workspaceFolder} with no workspace", () => {
  it("~/.cursor/mcp.json: mcpx serve disables the server and says why; the others run", async () => {
    const file = m.write(path.join(m.home, ".cursor", "mcp.json"), { mcpServers: { files, gate } });
    const { byName, stderr } = await states(file);
    expect(byName).toEqual({ files: "disabled", gate: "ready" });
    expect(stderr).toMatch(/server "files" is disabled: it uses \$\{workspaceFolder\}, but .*mcp\.json is a user-level file with no workspace/);
  });

  it("VS Code's user mcp.json: the same", async () => {
    const file = m.write(path.join(m.home, ".config", "Code", "User", "mcp.json"), { servers: { files, gate } });
    const { byName, stderr } = await states(file);
    expect(byName).toEqual({ files: "disabled", gate: "ready" });
    expect(stderr).toMatch(/server "files" is disabled: it uses \$\{workspaceFolder\}/);
  });

  it("mcpx import: the server is not imported (no home path written), it is listed, and the exit code is 1", async () => {
    m.write(path.join(m.home, ".cursor", "mcp.json"), { mcpServers: { files, gate } });
    const result = await m.mcpx("import", "cursor");
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/files: .*uses \$\{workspaceFolder\}, but .*mcp\.json is a user-level file with no workspace/);
    const written = readFileSync(path.join(m.project, "mcpx.json"), "utf8");
    expect(written).not.toContain('"files"');
    expect(written).not.toContain(JSON.stringify(m.home));
    expect(written).toContain('"gate"');
  });

  it("a project's .cursor/mcp.json: the folder holding .cursor, for serve and import alike", async () => {
    m.write(path.join(m.project, ".cursor", "mcp.json"), { mcpServers: { files } });
    const result = await m.mcpx("import", "cursor");
    expect(result.code).toBe(0);
    const doc = JSON.parse(readFileSync(path.join(m.project, "mcpx.json"), "utf8")) as { mcpServers: { files: { args: string[] } } };
    expect(doc.mcpServers.files.args[1]).toBe(m.project);
    const { byName } = await states(path.join(m.project, ".cursor", "mcp.json"));
    expect(byName).toEqual({ files: "ready" });
  });
});

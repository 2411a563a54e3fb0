/**
 * `mcpx install` beside the host's own servers (issue 13, item 7): without `--replace` it warns
 * that the servers in both files would run twice; `--replace` moves the host's servers into
 * mcpx's config and leaves the host only mcpx; `--restore` puts the host's file back.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseJsonc } from "../../src/config/jsonc.js";
import { fixture } from "../helpers/mcpx.js";
import { type Machine, machine } from "../helpers/host-home.js";

let m: Machine;
beforeEach(() => {
  m = machine();
});
afterEach(() => m.remove());

const gate = { command: process.execPath, args: [fixture("gate-server.mjs")] };
const other = { command: process.execPath, args: [fixture("gate-server.mjs"), "other"] };
type Doc = { globalShortcut?: string; mcpServers: Record<string, { command?: string; args?: string[] }> };
const read = (file: string) => parseJsonc(readFileSync(file, "utf8"), file) as Doc;

function claudeDesktop(): { file: string; original: string } {
  const file = m.write(path.join(m.home, ".config", "Claude", "claude_desktop_config.json"), {
    globalShortcut: "Alt+Space",
    mcpServers: { gate, other },
  });
  return { file, original: readFileSync(file, "utf8") };
}

describe("mcpx install and the host's own servers", () => {
  it("without --replace: says which servers would run twice and points at --replace", async () => {
    const { file } = claudeDesktop();
    expect((await m.mcpx("import", "claude-desktop")).code).toBe(0);
    const result = await m.mcpx("install", "claude-desktop");
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/gate, other are also in .*mcpx\.json: Claude Desktop would run each twice/);
    expect(result.stderr).toContain("--replace");
    expect(Object.keys(read(file).mcpServers)).toEqual(["gate", "other", "mcpx"]);
  });

  it("--replace: the host's servers move into mcpx's config and the host keeps only mcpx; --restore undoes it", async () => {
    const { file, original } = claudeDesktop();
    const config = path.join(m.project, "mcpx.json");
    const result = await m.mcpx("install", "claude-desktop", "--replace");
    expect(result.stderr).not.toMatch(/twice/);
    expect(result.code).toBe(0);
    const host = read(file);
    expect(host.globalShortcut).toBe("Alt+Space");
    expect(Object.keys(host.mcpServers)).toEqual(["mcpx"]);
    expect(host.mcpServers.mcpx?.args?.slice(-3)).toEqual(["serve", "--config", config]);
    expect(read(config).mcpServers).toEqual({ gate, other });
    expect(result.stdout).toMatch(/moved 2 servers \(gate, other\) from .*claude_desktop_config\.json into .*mcpx\.json/);
    expect(result.stdout).toMatch(/mcpx install claude-desktop --restore/);

    const restored = await m.mcpx("install", "claude-desktop", "--restore");
    expect(restored.code).toBe(0);
    expect(readFileSync(file, "utf8")).toBe(original);
    expect(restored.stdout).toMatch(/restored .*claude_desktop_config\.json from .*mcpx-backup-/);
    // The restore itself kept a backup of what it replaced.
    const backups = readdirSync(path.dirname(file)).filter((f) => f.includes(".mcpx-backup-"));
    expect(backups.length).toBe(2);
  });

  it("--replace keeps in the host a server mcpx cannot carry, says so, and exits 1", async () => {
    const file = m.write(path.join(m.home, ".config", "Claude", "claude_desktop_config.json"), {
      mcpServers: { gate, broken: { args: ["x"] } },
    });
    const result = await m.mcpx("install", "claude-desktop", "--replace");
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/broken: needs either "command"/);
    expect(result.stderr).toMatch(/kept in .*claude_desktop_config\.json: broken/);
    expect(Object.keys(read(file).mcpServers)).toEqual(["broken", "mcpx"]);
  });

  it("--restore with no backup to go back to says so", async () => {
    claudeDesktop();
    const result = await m.mcpx("install", "claude-desktop", "--restore");
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/no backup .* without mcpx/);
  });
});

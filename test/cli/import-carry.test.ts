/**
 * `mcpx import` carries every server `mcpx serve` runs from the same host file (issue 13,
 * item 6): `${VAR:-default}` in a URL, Windsurf's `${file:…}` relative to the host file; and a
 * server it cannot carry is listed on stderr with its reason, and the exit code is 1.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readConfig } from "../../src/config/load.js";
import { type Machine, machine } from "../helpers/host-home.js";

let m: Machine;
beforeEach(() => {
  m = machine();
});
afterEach(() => m.remove());

const server = (loaded: ReturnType<typeof readConfig>, name: string) => loaded.config.servers.find((s) => s.name === name);

describe("mcpx import carries what mcpx serve runs", () => {
  it("Claude Code: ${VAR:-default} in a url", async () => {
    const source = m.write(path.join(m.project, ".mcp.json"), {
      mcpServers: { api: { type: "http", url: "${API_BASE:-https://api.example.com}/mcp", headers: { "X-Team": "${TEAM:-core}" } } },
    });
    const served = server(readConfig(source, {}), "api");
    expect(served?.url).toBe("https://api.example.com/mcp");

    const result = await m.mcpx("import", "claude-code");
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const to = path.join(m.project, "mcpx.json");
    expect(readFileSync(to, "utf8")).toContain('"url": "${API_BASE:-https://api.example.com}/mcp"');
    expect(server(readConfig(to, {}), "api")).toMatchObject({ url: served?.url, headers: served?.headers });
  });

  it("Windsurf: ${file:token.txt} stays relative to the host file, not the new config", async () => {
    const folder = path.join(m.home, ".codeium", "windsurf");
    m.write(path.join(folder, "token.txt"), "tok-from-file\n");
    const source = m.write(path.join(folder, "mcp_config.json"), {
      mcpServers: { wiki: { serverUrl: "https://wiki.example.com/mcp", headers: { Authorization: "Bearer ${file:token.txt}" } } },
    });
    expect(server(readConfig(source, {}), "wiki")?.headers).toEqual({ Authorization: "Bearer tok-from-file" });

    const result = await m.mcpx("import", "windsurf");
    expect(result.code).toBe(0);
    const to = path.join(m.project, "mcpx.json");
    // Still a reference (the token stays in its file), now to the file's absolute path.
    expect(readFileSync(to, "utf8")).not.toContain("tok-from-file");
    expect(server(readConfig(to, {}), "wiki")).toMatchObject({ url: "https://wiki.example.com/mcp", headers: { Authorization: "Bearer tok-from-file" } });
  });

  it("a server it cannot carry is listed with its reason, the rest are written, and it exits 1", async () => {
    m.write(path.join(m.home, ".cursor", "mcp.json"), {
      mcpServers: { good: { command: "good-server" }, broken: { args: ["--port", "1"] } },
    });
    const result = await m.mcpx("import", "cursor");
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/not imported: 1 server/);
    expect(result.stderr).toMatch(/broken: needs either "command" .* or "url"/);
    expect(result.stdout).toMatch(/imported 1 server from Cursor \(good\)/);
    const written = readFileSync(path.join(m.project, "mcpx.json"), "utf8");
    expect(written).toContain('"good"');
    expect(written).not.toContain('"broken"');
  });
});

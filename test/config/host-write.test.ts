/**
 * Setting and removing one server in a host's own file, in its own format: the rest of the
 * text stays as written, and what mcpx could not edit safely is refused, never damaged.
 */
import { describe, expect, it } from "vitest";
import { parse as parseToml } from "smol-toml";
import { parse as parseYaml } from "yaml";
import { removeHostServer, setHostServer } from "../../src/config/host-write.js";

const entry = { command: "/usr/bin/node", args: ["/m/bin/mcpx.js", "serve", "--config", "/m/mcpx.json"] };

describe("Codex TOML", () => {
  it("refuses an mcpx entry written inline, and a mcp_servers that is not a table, without changing anything", () => {
    expect(() => setHostServer("codex", 'mcp_servers.mcpx.command = "old"\n', "mcpx", entry, "c.toml")).toThrow(/not written as a \[mcp_servers\.mcpx\] table/);
    expect(() => setHostServer("codex", "mcp_servers = 1\n", "mcpx", entry, "c.toml")).toThrow(/mcp_servers is not a table; nothing written/);
    expect(() => setHostServer("codex", "a = \n", "mcpx", entry, "c.toml")).toThrow(/is not TOML mcpx can edit/);
  });

  it("quotes a name that is not a bare key", () => {
    const out = setHostServer("codex", "", "my mcpx", entry, "c.toml");
    expect(out.split("\n")[0]).toBe('[mcp_servers."my mcpx"]');
    expect((parseToml(out) as { mcp_servers: Record<string, unknown> }).mcp_servers["my mcpx"]).toEqual(entry);
  });

  it("removes one table with its sub-tables, keeping the others and the comments", () => {
    const text = 'model = "o3"\n\n[mcp_servers.a]\ncommand = "a"\n\n[mcp_servers.a.env]\nX = "1"\n\n# b is mine\n[mcp_servers.b]\ncommand = "b"\n';
    const out = removeHostServer("codex", text, "a", "c.toml");
    expect(out).toBe('model = "o3"\n\n# b is mine\n[mcp_servers.b]\ncommand = "b"\n');
    expect(removeHostServer("codex", out, "a", "c.toml")).toBe(out);
  });
});

describe("Continue and Goose YAML", () => {
  it("replaces a Continue item of the same name in place", () => {
    const text = "mcpServers:\n  - name: mcpx\n    command: old\n  - name: b\n    command: b\n";
    const out = setHostServer("continue", text, "mcpx", entry, "c.yaml");
    expect((parseYaml(out) as { mcpServers: unknown[] }).mcpServers).toEqual([
      { name: "mcpx", ...entry },
      { name: "b", command: "b" },
    ]);
  });

  it("refuses a list or map that is not one, naming it", () => {
    expect(() => setHostServer("continue", "mcpServers: {}\n", "mcpx", entry, "c.yaml")).toThrow(/mcpServers is not a list; nothing written/);
    expect(() => setHostServer("goose", "extensions: []\n", "mcpx", entry, "g.yaml")).toThrow(/extensions is not a mapping; nothing written/);
    expect(() => setHostServer("goose", "a: [\n", "mcpx", entry, "g.yaml")).toThrow(/is not YAML mcpx can edit/);
  });

  it("removes a Continue item and a Goose extension, keeping comments", () => {
    const cont = "# servers\nmcpServers:\n  - name: a # first\n    command: a\n  - name: b\n    command: b\n";
    expect(parseYaml(removeHostServer("continue", cont, "a", "c.yaml"))).toEqual({ mcpServers: [{ name: "b", command: "b" }] });
    expect(removeHostServer("continue", cont, "a", "c.yaml")).toContain("# servers");
    const goose = "# Goose\nextensions:\n  a:\n    type: stdio\n    cmd: a\n  b:\n    type: builtin\n";
    const out = removeHostServer("goose", goose, "a", "g.yaml");
    expect(out.startsWith("# Goose\n")).toBe(true);
    expect(parseYaml(out)).toEqual({ extensions: { b: { type: "builtin" } } });
    expect(removeHostServer("goose", out, "a", "g.yaml")).toBe(out);
  });
});

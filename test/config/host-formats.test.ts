/**
 * The config files hosts already have, read as they are: each host's real-world shape
 * (test/fixtures/host-configs/), understood or ignored with one warning, never refused.
 */
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigError } from "../../src/config/errors.js";
import { readConfig } from "../../src/config/load.js";
import { FIXTURES } from "../helpers/mcpx.js";

const HOSTS = path.join(FIXTURES, "host-configs");
const host = (...parts: string[]) => path.join(HOSTS, ...parts);
const byName = (loaded: ReturnType<typeof readConfig>, name: string) => {
  const server = loaded.config.servers.find((s) => s.name === name);
  if (!server) throw new Error(`no server ${name} in ${loaded.config.servers.map((s) => s.name).join(", ")}`);
  return server;
};

describe("host config files load as they are", () => {
  it("Claude Desktop: app keys are ignored with one warning that names them", () => {
    const loaded = readConfig(host("claude-desktop", "claude_desktop_config.json"), {});
    expect(loaded.config.servers.map((s) => s.name)).toEqual(["filesystem", "brave-search"]);
    expect(byName(loaded, "brave-search").env).toEqual({ BRAVE_API_KEY: "BSA-not-a-real-key" });
    expect(loaded.warnings).toHaveLength(1);
    expect(loaded.warnings[0]).toMatch(/ignored/);
    expect(loaded.warnings[0]).toMatch(/globalShortcut/);
    expect(loaded.warnings[0]).toMatch(/preferences/);
  });

  it("Claude Desktop: an app key mcpx has never heard of is ignored too, not refused", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "mcpx-host-"));
    try {
      const file = path.join(dir, "claude_desktop_config.json");
      writeFileSync(file, JSON.stringify({ mcpServers: { a: { command: "a" } }, brandNewAppSetting: { x: 1 } }));
      const loaded = readConfig(file, {});
      expect(loaded.config.servers.map((s) => s.name)).toEqual(["a"]);
      expect(loaded.warnings).toHaveLength(1);
      expect(loaded.warnings[0]).toMatch(/brandNewAppSetting/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("Claude Code .mcp.json: type stdio/http/sse, ${VAR:-default}, headers, timeout in milliseconds", () => {
    const loaded = readConfig(host("claude-code", ".mcp.json"), { NOTION_TOKEN: "tok" });
    expect(byName(loaded, "memory")).toMatchObject({ kind: "stdio", command: "npx", env: { MEMORY_FILE_PATH: "/tmp/memory.json" } });
    expect(byName(loaded, "notion")).toMatchObject({
      kind: "http",
      transport: "streamable-http",
      headers: { Authorization: "Bearer tok" },
      timeoutSeconds: 30,
    });
    expect(byName(loaded, "asana")).toMatchObject({ kind: "http", transport: "sse" });
    expect(loaded.warnings).toEqual([]);
  });

  it("Cursor: envFile is loaded (dotenv, relative to the config file) and ${env:NAME}, ${workspaceFolder}, ${userHome} resolve", () => {
    const loaded = readConfig(host("cursor", ".cursor", "mcp.json"), { DATABASE_URL: "postgres://db/app", LINEAR_API_KEY: "lin" });
    const postgres = byName(loaded, "postgres");
    expect(postgres.args).toEqual(["-y", "@modelcontextprotocol/server-postgres", "postgres://db/app"]);
    expect(postgres.env).toEqual({ PGPASSWORD: "s3cret", PGUSER: "app user", PGHOST: "db.internal", EMPTY: "" });
    expect(byName(loaded, "linear").headers).toEqual({ Authorization: "Bearer lin" });
    expect(byName(loaded, "workspace-files").args).toEqual(["-y", "@modelcontextprotocol/server-filesystem", host("cursor"), `${homedir()}/notes`]);
    expect(loaded.warnings).toEqual([]);
  });

  it("env wins over envFile for the same variable", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "mcpx-host-"));
    try {
      writeFileSync(path.join(dir, "vars.env"), "A=from-file\nB=from-file\n");
      const file = path.join(dir, "mcpx.json");
      writeFileSync(file, JSON.stringify({ mcpServers: { s: { command: "s", envFile: "vars.env", env: { A: "from-env" } } } }));
      expect(readConfig(file, {}).config.servers[0]?.env).toEqual({ A: "from-env", B: "from-file" });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("VS Code: servers (JSONC), envFile and ${workspaceFolder}; dev is ignored with the warning", () => {
    const loaded = readConfig(host("vscode", ".vscode", "mcp.json"), { MCPX_INPUT_PERPLEXITY_KEY: "pplx" });
    expect(loaded.config.servers.map((s) => s.name)).toEqual(["perplexity", "github", "local"]);
    expect(byName(loaded, "github")).toMatchObject({ kind: "http", transport: "streamable-http" });
    expect(byName(loaded, "local")).toMatchObject({
      args: [path.join(host("vscode"), "server.js")],
      env: { LOCAL_TOKEN: "from-vscode-env" },
    });
    expect(loaded.warnings).toHaveLength(1);
    expect(loaded.warnings[0]).toMatch(/servers\.local\.dev/);
  });

  it("VS Code inputs: read from MCPX_INPUT_<ID> when set", () => {
    const loaded = readConfig(host("vscode", ".vscode", "mcp.json"), { MCPX_INPUT_PERPLEXITY_KEY: "pplx" });
    expect(byName(loaded, "perplexity")).toMatchObject({ disabled: false, env: { PERPLEXITY_API_KEY: "pplx" } });
  });

  it("VS Code inputs: unset, the server is left disabled with a warning saying which variable to set", () => {
    const loaded = readConfig(host("vscode", ".vscode", "mcp.json"), {});
    expect(byName(loaded, "perplexity").disabled).toBe(true);
    expect(byName(loaded, "github").disabled).toBe(false);
    const warning = loaded.warnings.find((w) => w.includes("perplexity-key"));
    expect(warning).toMatch(/MCPX_INPUT_PERPLEXITY_KEY/);
    expect(warning).toMatch(/Perplexity API Key/);
    expect(warning).toMatch(/disabled/);
  });

  it("Windsurf: serverUrl is the url, ${env:NAME} resolves, disabledTools hides those tools", () => {
    const loaded = readConfig(host("windsurf", "mcp_config.json"), { GITHUB_PAT: "pat" });
    expect(byName(loaded, "github")).toMatchObject({ kind: "http", url: "https://api.githubcopilot.com/mcp/", headers: { Authorization: "Bearer pat" } });
    expect(byName(loaded, "git")).toMatchObject({ disabled: true, tools: { deny: ["git_reset"] } });
    expect(loaded.warnings).toEqual([]);
  });

  it("Cline: streamableHttp, transportType, timeout in seconds, disabled; autoApprove and alwaysAllow ignored in one warning", () => {
    const loaded = readConfig(host("cline", "cline_mcp_settings.json"), {});
    expect(byName(loaded, "weather")).toMatchObject({ kind: "stdio", timeoutSeconds: 90, disabled: false });
    expect(byName(loaded, "remote")).toMatchObject({ kind: "http", transport: "streamable-http", disabled: true });
    expect(byName(loaded, "legacy-sse")).toMatchObject({ kind: "http", transport: "sse" });
    expect(loaded.warnings).toHaveLength(1);
    expect(loaded.warnings[0]).toMatch(/mcpServers\.weather\.autoApprove/);
    expect(loaded.warnings[0]).toMatch(/mcpServers\.remote\.alwaysAllow/);
  });
});

describe("mcpx's own files stay strict", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), "mcpx-own-"));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  const write = (doc: object, name = "mcpx.json") => {
    const file = path.join(dir, name);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(doc));
    return file;
  };
  const refusal = (file: string) => {
    try {
      readConfig(file, {});
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      return (err as Error).message;
    }
    throw new Error("expected a ConfigError");
  };

  it("a typo of an mcpx key is refused with a did-you-mean", () => {
    expect(refusal(write({ mcpServers: { s: { comand: "x", command: "y" } } }))).toMatch(/comand is not a known key \(did you mean "command"\?\)/);
    expect(refusal(write({ mcpServer: {} }))).toMatch(/mcpServer is not a known key \(did you mean "mcpServers"\?\)/);
  });

  it("a key a host defines is ignored with the warning even in an mcpx file", () => {
    const loaded = readConfig(write({ mcpServers: { s: { command: "s", autoApprove: ["t"] } } }), {});
    expect(loaded.warnings).toHaveLength(1);
    expect(loaded.warnings[0]).toMatch(/mcpServers\.s\.autoApprove/);
  });

  it("in a host's file a typo is ignored with a hint, and a server that cannot run is left out with its reason", () => {
    const file = write({ mcpServers: { ok: { command: "ok" }, broken: { comand: "x" } }, globalShortcut: "" }, "claude_desktop_config.json");
    const loaded = readConfig(file, {});
    expect(loaded.config.servers.map((s) => s.name)).toEqual(["ok"]);
    expect(loaded.warnings.join("\n")).toMatch(/mcpServers\.broken\.comand.*did you mean "command"/);
    expect(loaded.warnings.join("\n")).toMatch(/broken.*left out.*needs either "command"/s);
  });
});

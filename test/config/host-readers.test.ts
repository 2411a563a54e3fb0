/**
 * The hosts whose files are not in the `mcpServers` convention, read as they are from real
 * files: Codex's TOML, Zed's JSONC `context_servers`, Gemini CLI's settings, Continue's and
 * Goose's YAML. What mcpx cannot run is left out with its reason; nothing is refused.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ConfigError } from "../../src/config/errors.js";
import { readDocument } from "../../src/config/host-document.js";
import { readConfig } from "../../src/config/load.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "mcpx-readers-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function write(relative: string, text: string): string {
  const file = path.join(dir, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

const servers = (loaded: ReturnType<typeof readConfig>) => Object.fromEntries(loaded.config.servers.map((s) => [s.name, s]));

describe("Codex config.toml", () => {
  const toml = `# Codex settings
model = "o3"
approval_policy = "on-request"

[mcp_servers.docs]
command = "npx"
args = ["-y", "docs-mcp"]
env = { "API_KEY" = "k" }
cwd = "work"
startup_timeout_sec = 20
tool_timeout_sec = 90
enabled_tools = ["search", "read"]
disabled_tools = ["read"]

[mcp_servers.remote]
url = "https://mcp.example.com/mcp"
bearer_token_env_var = "REMOTE_TOKEN"
http_headers = { "X-Team" = "core" }
env_http_headers = { "X-Key" = "REMOTE_KEY" }

[mcp_servers.off]
command = "off"
enabled = false

[mcp_servers.off.tools.search]
approval_mode = "approve"

[profiles.fast]
model = "gpt-5"
`;

  it("reads each [mcp_servers.NAME] table, headers from variables, the tool lists and timeouts", () => {
    const loaded = readConfig(write(".codex/config.toml", toml), { REMOTE_TOKEN: "tok", REMOTE_KEY: "key" });
    const s = servers(loaded);
    expect(Object.keys(s)).toEqual(["docs", "remote", "off"]);
    expect(s.docs).toMatchObject({
      kind: "stdio",
      command: "npx",
      args: ["-y", "docs-mcp"],
      env: { API_KEY: "k" },
      cwd: path.join(dir, ".codex", "work"),
      timeoutSeconds: 90,
      tools: { allow: ["search", "read"], deny: ["read"] },
    });
    expect(s.remote).toMatchObject({
      kind: "http",
      url: "https://mcp.example.com/mcp",
      headers: { "X-Team": "core", "X-Key": "key", Authorization: "Bearer tok" },
    });
    expect(s.off?.disabled).toBe(true);
    expect(loaded.warnings).toHaveLength(1);
    expect(loaded.warnings[0]).toMatch(/mcp_servers\.docs\.startup_timeout_sec: mcpx has one startup timeout/);
    expect(loaded.warnings[0]).toMatch(/mcp_servers\.off\.tools: Codex's tool approval/);
    // Codex's own settings are not listed: the file is Codex's, and only its servers are mcpx's business.
    expect(loaded.warnings[0]).not.toMatch(/model|profiles/);
  });

  it("a server whose bearer variable is unset is left out with the variable named, the others start", () => {
    const loaded = readConfig(write(".codex/config.toml", toml), { REMOTE_KEY: "key" });
    expect(Object.keys(servers(loaded))).toEqual(["docs", "off"]);
    expect(loaded.warnings.join("\n")).toMatch(/left out server "remote".*REMOTE_TOKEN/);
  });

  it("a TOML syntax error names the file, line and column", () => {
    const file = write(".codex/config.toml", "[mcp_servers.a]\ncommand = \n");
    expect(() => readConfig(file, {})).toThrow(ConfigError);
    expect(() => readConfig(file, {})).toThrow(new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:2:\\d+: `));
  });
});

describe("Zed settings.json", () => {
  const jsonc = `// Zed settings
{
  "theme": "One Dark",
  "ui_font_size": 16,
  "context_servers": {
    "new-style": { "source": "custom", "command": "node", "args": ["s.js"], "env": { "A": "1" } },
    "old-style": { "command": { "path": "uvx", "args": ["mcp-server-git"], "env": {} }, "settings": {} },
    "remote": { "url": "https://mcp.example.com/mcp", "headers": { "Authorization": "Bearer x" } },
    "off": { "command": "off", "enabled": false },
    "from-extension": { "source": "extension", "settings": { "token": "t" } },
    "settings-only": { "settings": {} },
  },
}
`;

  it("reads both command forms and url entries; extensions are left out with the reason", () => {
    const loaded = readConfig(write("zed/settings.json", jsonc), {});
    const s = servers(loaded);
    expect(Object.keys(s)).toEqual(["new-style", "old-style", "remote", "off"]);
    expect(s["new-style"]).toMatchObject({ command: "node", args: ["s.js"], env: { A: "1" } });
    expect(s["old-style"]).toMatchObject({ command: "uvx", args: ["mcp-server-git"] });
    expect(s.remote).toMatchObject({ kind: "http", headers: { Authorization: "Bearer x" } });
    expect(s.off?.disabled).toBe(true);
    const all = loaded.warnings.join("\n");
    expect(all).toMatch(/left out servers "from-extension", "settings-only": a Zed extension provides it/);
    expect(all).toMatch(/context_servers\.old-style\.settings: settings for a Zed extension/);
    expect(all).not.toMatch(/theme|ui_font_size/);
  });

  it("is recognised by its context_servers under any name", () => {
    const loaded = readConfig(write("my-zed.json", JSON.stringify({ context_servers: { a: { command: "a" } } })), {});
    expect(Object.keys(servers(loaded))).toEqual(["a"]);
  });
});

describe("Gemini CLI settings.json", () => {
  it("httpUrl is Streamable HTTP, url stays auto (SSE reachable), timeout is ms, $VAR resolves, tool lists filter, trust is ignored", () => {
    const file = write(
      ".gemini/settings.json",
      JSON.stringify({
        theme: "GitHub",
        mcpServers: {
          local: { command: "python", args: ["-m", "srv"], env: { KEY: "$MY_KEY", OTHER: "${MY_KEY}-x" }, cwd: "./srv", timeout: 30000, trust: true },
          stream: { httpUrl: "https://mcp.example.com/mcp", headers: { Authorization: "Bearer $TOKEN" }, includeTools: ["a", "b"], excludeTools: ["b"] },
          sse: { url: "https://mcp.example.com/sse" },
        },
      }),
    );
    const loaded = readConfig(file, { MY_KEY: "k", TOKEN: "t" });
    const s = servers(loaded);
    expect(s.local).toMatchObject({ env: { KEY: "k", OTHER: "k-x" }, timeoutSeconds: 30, cwd: path.join(dir, ".gemini", "srv") });
    expect(s.stream).toMatchObject({
      kind: "http",
      transport: "streamable-http",
      headers: { Authorization: "Bearer t" },
      tools: { allow: ["a", "b"], deny: ["b"] },
    });
    expect(s.sse).toMatchObject({ kind: "http", transport: "auto" });
    expect(loaded.warnings).toHaveLength(1);
    expect(loaded.warnings[0]).toMatch(/mcpServers\.local\.trust: Gemini CLI's tool approval/);
    expect(loaded.warnings[0]).not.toMatch(/theme/);
  });
});

describe("Continue config.yaml and blocks", () => {
  const yaml = `name: My Config
version: 1.0.0
schema: v1
models:
  - name: gpt
    provider: openai
mcpServers:
  # a local one
  - name: SQLite MCP
    command: npx
    args: ["-y", "mcp-sqlite", "/tmp/db.sqlite"]
    env:
      TOKEN: \${{ secrets.SQLITE_TOKEN }}
    connectionTimeout: 5000
  - name: remote
    type: streamable-http
    url: https://mcp.example.com/mcp
    requestOptions:
      headers:
        Authorization: Bearer \${{ inputs.REMOTE_TOKEN }}
  - name: sockets
    type: websocket
    url: ws://localhost:9000
  - uses: someone/some-block
`;

  it("reads the list of servers, secrets from the environment; Hub blocks and WebSocket are left out with the reason", () => {
    const file = write(".continue/config.yaml", yaml);
    const loaded = readConfig(file, { SQLITE_TOKEN: "s", REMOTE_TOKEN: "r" });
    const s = servers(loaded);
    // Continue's names are labels; mcpx's must split back out of "<server>__<tool>".
    expect(Object.keys(s)).toEqual(["SQLite-MCP", "remote"]);
    expect(s["SQLite-MCP"]).toMatchObject({ command: "npx", env: { TOKEN: "s" } });
    expect(s.remote).toMatchObject({ kind: "http", transport: "streamable-http", headers: { Authorization: "Bearer r" } });
    const all = loaded.warnings.join("\n");
    expect(all).toMatch(/server "SQLite MCP" is served as "SQLite-MCP"/);
    expect(all).toMatch(/left out server "sockets": it is a WebSocket server/);
    expect(all).toMatch(/left out server "mcpServers\[3\]": it uses the Continue Hub block "someone\/some-block"/);
    expect(all).toMatch(/mcpServers\[0\]\.connectionTimeout/);
    expect(all).not.toMatch(/models/);
    // The name as Continue writes it, for edits of its file (install --replace).
    expect(readDocument(readFileSync(file, "utf8"), file).writtenAs.get("SQLite-MCP")).toBe("SQLite MCP");
  });

  it("reads a workspace block file in .continue/mcpServers/", () => {
    const file = write(
      ".continue/mcpServers/git.yaml",
      "name: Git\nversion: 0.0.1\nschema: v1\nmcpServers:\n  - name: git\n    command: uvx\n    args: [mcp-server-git]\n",
    );
    expect(servers(readConfig(file, {})).git).toMatchObject({ command: "uvx", args: ["mcp-server-git"] });
  });

  it("a YAML syntax error names the file, line and column", () => {
    const file = write(".continue/config.yaml", "mcpServers:\n  - name: a\n    args: [x\n");
    expect(() => readConfig(file, {})).toThrow(/config\.yaml:\d+:\d+: /);
  });
});

describe("Goose config.yaml", () => {
  const yaml = `GOOSE_PROVIDER: openai
GOOSE_MODEL: gpt-4o
extensions:
  developer:
    bundled: true
    display_name: Developer
    enabled: true
    name: developer
    timeout: 300
    type: builtin
  github:
    args: ["-y", "@modelcontextprotocol/server-github"]
    bundled: null
    cmd: npx
    description: GitHub
    enabled: true
    env_keys: [GITHUB_PERSONAL_ACCESS_TOKEN]
    envs: { LOG: "1" }
    name: github
    timeout: 120
    type: stdio
    available_tools: [search_repositories]
  events:
    type: sse
    uri: http://localhost:8000/sse
    enabled: false
    envs: {}
    name: events
  remote:
    type: streamable_http
    uri: https://mcp.example.com/mcp
    headers: { Authorization: Bearer x }
    name: remote
    available_tools: []
    some_new_key: 1
`;

  it("reads stdio, sse and streamable_http extensions; built-ins are left out with the reason", () => {
    const loaded = readConfig(write(".config/goose/config.yaml", yaml), { GITHUB_PERSONAL_ACCESS_TOKEN: "ghp" });
    const s = servers(loaded);
    expect(Object.keys(s)).toEqual(["github", "events", "remote"]);
    expect(s.github).toMatchObject({
      command: "npx",
      args: ["-y", "@modelcontextprotocol/server-github"],
      env: { LOG: "1", GITHUB_PERSONAL_ACCESS_TOKEN: "ghp" },
      timeoutSeconds: 120,
      tools: { allow: ["search_repositories"] },
    });
    expect(s.events).toMatchObject({ kind: "http", transport: "sse", disabled: true });
    expect(s.remote).toMatchObject({ kind: "http", transport: "streamable-http", headers: { Authorization: "Bearer x" } });
    expect(s.remote?.tools).toBeUndefined();
    const all = loaded.warnings.join("\n");
    expect(all).toMatch(/left out server "developer": it is a Goose built-in extension/);
    expect(all).toMatch(/extensions\.remote\.some_new_key/);
    expect(all).not.toMatch(/GOOSE_MODEL|display_name|bundled/);
  });

  it("a keyring variable that is not in the environment leaves that extension out, naming it", () => {
    const loaded = readConfig(write(".config/goose/config.yaml", yaml), {});
    expect(Object.keys(servers(loaded))).toEqual(["events", "remote"]);
    expect(loaded.warnings.join("\n")).toMatch(/left out server "github".*GITHUB_PERSONAL_ACCESS_TOKEN/);
  });
});

/**
 * The five hosts with their own formats, through the real CLI with HOME pointed at a temp
 * dir: `serve --config` on the host's own file serving a real upstream, `import HOST` from
 * the file where the host keeps it, and `install HOST` into it, keeping the rest of the file.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { parse as parseToml } from "smol-toml";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { parseJsonc } from "../../src/config/jsonc.js";
import { readConfig } from "../../src/config/load.js";
import { MCPX_BIN, fixture } from "../helpers/mcpx.js";

const run = promisify(execFile);

let home: string;
let env: NodeJS.ProcessEnv;
beforeEach(() => {
  home = mkdtempSync(path.join(tmpdir(), "mcpx-home-"));
  // XDG_CONFIG_HOME unset, so Zed and Goose are looked for under HOME/.config as on a fresh machine.
  env = { ...process.env, HOME: home, USERPROFILE: home, XDG_CONFIG_HOME: "", CODEX_HOME: "", MCPX_STATE_DIR: path.join(home, "state") };
  delete env.XDG_CONFIG_HOME;
  delete env.CODEX_HOME;
});
afterEach(() => {
  rmSync(home, { recursive: true, force: true });
});

async function mcpx(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [MCPX_BIN, ...args], { cwd: home, env, timeout: 30_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === "number" ? e.code : -1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
}

function write(relative: string, text: string): string {
  const file = path.join(home, relative);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

/** The tools an SDK host sees through `command args` (mcpx, however it was configured). */
async function toolsThrough(command: string, args: string[]): Promise<string[]> {
  const client = new Client({ name: "host-under-test", version: "1.0.0" });
  const transport = new StdioClientTransport({ command, args, env: env as Record<string, string>, stderr: "pipe" });
  await client.connect(transport);
  try {
    return (await client.listTools()).tools.map((tool) => tool.name).filter((name) => !name.startsWith("mcpx__"));
  } finally {
    await client.close();
  }
}

const rich = JSON.stringify(fixture("rich-server.mjs"));
const node = JSON.stringify(process.execPath);

describe("serve --config on a host's own file", () => {
  it("Codex's config.toml: serves its server, with enabled_tools honoured", async () => {
    const file = write(
      ".codex/config.toml",
      `model = "o3"\n\n[mcp_servers.rich]\ncommand = ${node}\nargs = [${rich}]\nenabled_tools = ["rich_tool"]\nstartup_timeout_sec = 20\n`,
    );
    expect(await toolsThrough(process.execPath, [MCPX_BIN, "serve", "--config", file])).toEqual(["rich__rich_tool"]);
  });

  it("Goose's config.yaml: serves its stdio extension and leaves out the built-ins", async () => {
    const file = write(
      ".config/goose/config.yaml",
      `GOOSE_PROVIDER: openai\nextensions:\n  developer:\n    type: builtin\n    enabled: true\n    name: developer\n  rich:\n    type: stdio\n    cmd: ${node}\n    args: [${rich}]\n    enabled: true\n    envs: {}\n    timeout: 300\n    name: rich\n`,
    );
    expect(await toolsThrough(process.execPath, [MCPX_BIN, "serve", "--config", file])).toEqual(["rich__rich_tool", "rich__rich_notify"]);
    const listed = await mcpx("servers", "--config", file);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stderr).toMatch(/left out server "developer": it is a Goose built-in extension/);
  });
});

describe("mcpx import from where each host keeps its file", () => {
  it("codex: headers from variables stay references, tool lists become tools, the result reads without a warning", async () => {
    write(
      ".codex/config.toml",
      `[mcp_servers.remote]\nurl = "https://mcp.example.com/mcp"\nbearer_token_env_var = "REMOTE_TOKEN"\ndisabled_tools = ["drop_all"]\ntool_timeout_sec = 30\n\n[mcp_servers.local]\ncommand = "uvx"\nargs = ["mcp-server-git"]\nenabled = false\n`,
    );
    const result = await mcpx("import", "codex");
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/imported 2 servers from Codex \(remote, local\)/);
    const to = path.join(home, "mcpx.json");
    const doc = parseJsonc(readFileSync(to, "utf8"), to) as { mcpServers: Record<string, unknown> };
    expect(doc.mcpServers).toEqual({
      remote: {
        url: "https://mcp.example.com/mcp",
        headers: { Authorization: "Bearer ${REMOTE_TOKEN}" },
        timeoutSeconds: 30,
        tools: { deny: ["drop_all"] },
      },
      local: { command: "uvx", args: ["mcp-server-git"], disabled: true },
    });
    expect(readConfig(to, { REMOTE_TOKEN: "t" }).warnings).toEqual([]);
  });

  it("windsurf: disabledTools is carried as tools.deny", async () => {
    write(
      ".codeium/windsurf/mcp_config.json",
      JSON.stringify({ mcpServers: { git: { command: "uvx", args: ["mcp-server-git"], disabledTools: ["git_reset"] } } }),
    );
    const result = await mcpx("import", "windsurf");
    expect(result.code, result.stderr).toBe(0);
    const doc = JSON.parse(readFileSync(path.join(home, "mcpx.json"), "utf8")) as { mcpServers: Record<string, unknown> };
    expect(doc.mcpServers.git).toEqual({ command: "uvx", args: ["mcp-server-git"], tools: { deny: ["git_reset"] } });
    expect(result.stderr).not.toMatch(/dropped disabledTools/);
  });

  const files: Record<string, [string, string]> = {
    zed: [
      ".config/zed/settings.json",
      '// Zed\n{\n  "theme": "x",\n  "context_servers": {\n    "git": { "command": { "path": "uvx", "args": ["mcp-server-git"] } },\n    "ext": { "source": "extension", "settings": {} },\n  },\n}\n',
    ],
    gemini: [".gemini/settings.json", JSON.stringify({ mcpServers: { web: { httpUrl: "https://mcp.example.com/mcp", timeout: 5000, excludeTools: ["x"] } } })],
    continue: [
      ".continue/config.yaml",
      "name: c\nversion: 1.0.0\nschema: v1\nmcpServers:\n  - name: SQLite MCP\n    command: npx\n    args: [-y, mcp-sqlite]\n",
    ],
    goose: [
      ".config/goose/config.yaml",
      "extensions:\n  memory:\n    type: builtin\n    name: memory\n  fetch:\n    type: stdio\n    cmd: uvx\n    args: [mcp-server-fetch]\n    timeout: 60\n    name: fetch\n",
    ],
  };
  it.each([
    ["zed", { git: { command: "uvx", args: ["mcp-server-git"] } }, /left out server "ext": a Zed extension provides it/],
    ["gemini", { web: { url: "https://mcp.example.com/mcp", type: "http", timeoutSeconds: 5, tools: { deny: ["x"] } } }, undefined],
    ["continue", { "SQLite-MCP": { command: "npx", args: ["-y", "mcp-sqlite"] } }, /"SQLite MCP" is served as "SQLite-MCP"/],
    ["goose", { fetch: { command: "uvx", args: ["mcp-server-fetch"], timeoutSeconds: 60 } }, /left out server "memory": it is a Goose built-in/],
  ])("%s: the host's servers, and what cannot run is named", async (host, servers, note) => {
    const [relative, text] = files[host]!;
    write(relative, text);
    const result = await mcpx("import", host);
    expect(result.code, `${host}: ${result.stderr}`).toBe(0);
    expect((JSON.parse(readFileSync(path.join(home, "mcpx.json"), "utf8")) as { mcpServers: unknown }).mcpServers).toEqual(servers);
    if (note) expect(result.stderr).toMatch(note);
  });
});

describe("mcpx install into each host's own file", () => {
  const mcpxConfig = () => write("mcpx.json", JSON.stringify({ mcpServers: { rich: { command: process.execPath, args: [fixture("rich-server.mjs")] } } }));
  const backups = (file: string) => readdirSync(path.dirname(file)).filter((f) => f.startsWith(`${path.basename(file)}.mcpx-backup-`));
  const args = (config: string) => [MCPX_BIN, "serve", "--config", config];

  it("codex: appends one [mcp_servers.mcpx] table and keeps the rest byte for byte; again, it changes nothing", async () => {
    const config = mcpxConfig();
    const original = '# my Codex settings\nmodel = "o3"\n\n[mcp_servers.other]\ncommand = "other" # mine\n\n[profiles.fast]\nmodel = "gpt-5"\n';
    const file = write(".codex/config.toml", original);
    const result = await mcpx("install", "codex", "--config", config);
    expect(result.code, result.stderr).toBe(0);
    const written = readFileSync(file, "utf8");
    expect(written.startsWith(original)).toBe(true);
    const doc = parseToml(written) as { mcp_servers: Record<string, { command: string; args: string[] }>; profiles: unknown };
    expect(Object.keys(doc.mcp_servers)).toEqual(["other", "mcpx"]);
    expect(doc.mcp_servers.mcpx).toEqual({ command: process.execPath, args: args(config) });
    expect(doc.profiles).toEqual({ fast: { model: "gpt-5" } });
    expect(backups(file)).toHaveLength(1);

    const again = await mcpx("install", "codex", "--config", config);
    expect(again.stdout).toMatch(/already runs mcpx/);
    expect(readFileSync(file, "utf8")).toBe(written);
  });

  it("codex: the installed entry starts mcpx for an SDK host, and mcpx reading that file leaves itself out", async () => {
    const config = mcpxConfig();
    const file = write(".codex/config.toml", "");
    expect((await mcpx("install", "codex", "--config", config)).code).toBe(0);
    const doc = parseToml(readFileSync(file, "utf8")) as { mcp_servers: Record<string, { command: string; args: string[] }> };
    const entry = doc.mcp_servers.mcpx!;
    expect(await toolsThrough(entry.command, entry.args)).toEqual(["rich__rich_tool", "rich__rich_notify"]);
    // mcpx serving the Codex file it was installed into leaves itself out instead of recursing.
    const self = await mcpx("servers", "--config", file, "--json");
    expect(self.stderr).toMatch(/left out server "mcpx": it is mcpx itself/);
  });

  it("codex: a stale [mcp_servers.mcpx] (another config) is replaced in place, sub-tables and all; the next table stays", async () => {
    const config = mcpxConfig();
    const file = write(
      ".codex/config.toml",
      '[mcp_servers.mcpx]\ncommand = "node"\nargs = ["/old/mcpx.js", "serve"]\n\n[mcp_servers.mcpx.env]\nA = "1"\n\n# next\n[z]\nb = 1\n',
    );
    expect((await mcpx("install", "codex", "--config", config)).code).toBe(0);
    const text = readFileSync(file, "utf8");
    expect(text).toContain("# next\n[z]\nb = 1\n");
    const replaced = parseToml(text) as { mcp_servers: Record<string, unknown>; z: unknown };
    expect(replaced.mcp_servers.mcpx).toEqual({ command: process.execPath, args: args(config) });
    expect(replaced.z).toEqual({ b: 1 });
  });

  it("goose and continue: the YAML keeps its comments and other settings", async () => {
    const config = mcpxConfig();
    const goose = write(
      ".config/goose/config.yaml",
      "# Goose\nGOOSE_MODEL: gpt-4o # the model\nextensions:\n  developer:\n    type: builtin\n    enabled: true\n",
    );
    const cont = write(".continue/config.yaml", "name: c # mine\nversion: 1.0.0\nschema: v1\nmcpServers:\n  # the first\n  - name: a\n    command: a\n");
    for (const host of ["goose", "continue"]) {
      const result = await mcpx("install", host, "--config", config);
      expect(result.code, `${host}: ${result.stderr}`).toBe(0);
    }
    const gooseText = readFileSync(goose, "utf8");
    expect(gooseText).toMatch(/^# Goose\nGOOSE_MODEL: gpt-4o # the model\n/);
    const gooseDoc = parseYaml(gooseText) as { extensions: Record<string, Record<string, unknown>> };
    expect(Object.keys(gooseDoc.extensions)).toEqual(["developer", "mcpx"]);
    expect(gooseDoc.extensions.mcpx).toMatchObject({ type: "stdio", cmd: process.execPath, args: args(config), enabled: true });

    const contText = readFileSync(cont, "utf8");
    expect(contText).toContain("# the first");
    expect(contText).toContain("name: c # mine");
    const contDoc = parseYaml(contText) as { mcpServers: Array<Record<string, unknown>> };
    expect(contDoc.mcpServers).toEqual([
      { name: "a", command: "a" },
      { name: "mcpx", command: process.execPath, args: args(config) },
    ]);
    // Each host's file, read back by mcpx, has its servers and leaves mcpx itself out.
    expect(readConfig(goose, {}).warnings.join("\n")).toMatch(/left out server "mcpx": it is mcpx itself/);
    expect(readConfig(cont, {}).config.servers.map((s) => s.name)).toEqual(["a"]);
  });

  it("zed and gemini: context_servers / mcpServers added, the JSONC's comments kept; a new Continue file gets Continue's required keys", async () => {
    const config = mcpxConfig();
    const zed = write(".config/zed/settings.json", '// Zed settings\n{\n  "theme": "One Dark", // dark\n}\n');
    const gemini = write(".gemini/settings.json", '{\n  "theme": "GitHub"\n}\n');
    for (const host of ["zed", "gemini", "continue"]) {
      const result = await mcpx("install", host, "--config", config);
      expect(result.code, `${host}: ${result.stderr}`).toBe(0);
    }
    const zedText = readFileSync(zed, "utf8");
    expect(zedText).toContain('"theme": "One Dark", // dark');
    expect((parseJsonc(zedText, zed) as { context_servers: unknown }).context_servers).toEqual({
      mcpx: { source: "custom", command: process.execPath, args: args(config), env: {} },
    });
    expect((JSON.parse(readFileSync(gemini, "utf8")) as { mcpServers: unknown; theme: string }).mcpServers).toEqual({
      mcpx: { command: process.execPath, args: args(config) },
    });
    expect(parseYaml(readFileSync(path.join(home, ".continue", "config.yaml"), "utf8"))).toMatchObject({
      name: expect.any(String),
      version: expect.any(String),
      schema: "v1",
    });
  });
});

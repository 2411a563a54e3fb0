/**
 * `mcpx import`, `mcpx install` and the config warnings as real CLI runs on temp files:
 * backups, dry runs that change nothing, host files that keep their other keys and comments,
 * and an installed entry that really starts mcpx for an SDK host.
 */
import { execFile } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { parseJsonc } from "../../src/config/jsonc.js";
import { readConfig } from "../../src/config/load.js";
import { FIXTURES, MCPX_BIN, fixture } from "../helpers/mcpx.js";

const run = promisify(execFile);
const HOSTS = path.join(FIXTURES, "host-configs");

let dir: string;
let env: NodeJS.ProcessEnv;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), "mcpx-hosts-"));
  env = { ...process.env, MCPX_STATE_DIR: path.join(dir, "state") };
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function mcpx(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [MCPX_BIN, ...args], { cwd: dir, env, timeout: 30_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === "number" ? e.code : -1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
}

const backups = (file: string) => readdirSync(path.dirname(file)).filter((f) => f.startsWith(`${path.basename(file)}.mcpx-backup-`));
const gate = { command: process.execPath, args: [fixture("gate-server.mjs")] };

describe("config warnings on the command line", () => {
  it("a Claude Desktop file's app keys: one warning on stderr, and the server still comes up", async () => {
    const file = path.join(dir, "claude_desktop_config.json");
    writeFileSync(file, JSON.stringify({ globalShortcut: "Alt+Space", preferences: { menuBarEnabled: true }, mcpServers: { gate } }, null, 2));
    const result = await mcpx("servers", "--config", file);
    expect(result.stderr.match(/ignored what mcpx does not use/g)).toHaveLength(1);
    expect(result.stderr).toMatch(/globalShortcut, preferences/);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/gate/);
  });
});

describe("mcpx import", () => {
  it("writes the host's servers into ./mcpx.json, keeping an existing file's comments and backing it up", async () => {
    const from = path.join(dir, "cline_mcp_settings.json");
    copyFileSync(path.join(HOSTS, "cline", "cline_mcp_settings.json"), from);
    const to = path.join(dir, "mcpx.json");
    const original = '{\n  // my own server\n  "mcpServers": {\n    "mine": { "command": "mine" }\n  },\n  "elicitation": { "ttlSeconds": 60 }\n}\n';
    writeFileSync(to, original);

    const result = await mcpx("import", "cline", "--from", from);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/imported 3 servers from Cline/);
    expect(result.stderr).toMatch(/dropped autoApprove/);

    const written = readFileSync(to, "utf8");
    expect(written).toContain("// my own server");
    const doc = parseJsonc(written, to) as { mcpServers: Record<string, Record<string, unknown>>; elicitation: unknown };
    expect(Object.keys(doc.mcpServers)).toEqual(["mine", "weather", "remote", "legacy-sse"]);
    expect(doc.mcpServers.weather).toMatchObject({ timeoutSeconds: 90 });
    expect(doc.mcpServers.weather).not.toHaveProperty("autoApprove");
    expect(doc.mcpServers.remote).toMatchObject({ type: "streamable-http", disabled: true });
    expect(doc.elicitation).toEqual({ ttlSeconds: 60 });
    const [backup] = backups(to);
    expect(backup).toBeDefined();
    expect(readFileSync(path.join(dir, backup!), "utf8")).toBe(original);
    // What import wrote is a valid mcpx config of mcpx's own, read without a warning.
    expect(readConfig(to, {}).warnings).toEqual([]);
  });

  it("--dry-run prints the diff and changes nothing", async () => {
    const to = path.join(dir, "mcpx.json");
    writeFileSync(to, '{ "mcpServers": {} }\n');
    const result = await mcpx("import", "vscode", "--from", path.join(HOSTS, "vscode", ".vscode", "mcp.json"), "--dry-run");
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^\+\s+"perplexity": \{/m);
    expect(result.stdout).toMatch(/^-\{ "mcpServers": \{\} \}/m);
    expect(result.stderr).toMatch(/MCPX_INPUT_PERPLEXITY_KEY/);
    expect(readFileSync(to, "utf8")).toBe('{ "mcpServers": {} }\n');
    expect(backups(to)).toEqual([]);
  });

  it("says where it looked when the host has no config", async () => {
    const result = await mcpx("import", "windsurf", "--from", path.join(dir, "nope.json"));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/no Windsurf config found: looked for .*nope\.json/);
  });
});

describe("mcpx install", () => {
  const mcpxConfig = () => {
    const file = path.join(dir, "mcpx.json");
    writeFileSync(file, JSON.stringify({ mcpServers: { gate } }, null, 2));
    return file;
  };

  it("adds mcpx to a Claude Desktop file after a backup, keeps its other keys, and the entry starts mcpx", async () => {
    const config = mcpxConfig();
    const hostFile = path.join(dir, "Claude", "claude_desktop_config.json");
    mkdirSync(path.dirname(hostFile));
    const original = readFileSync(path.join(HOSTS, "claude-desktop", "claude_desktop_config.json"), "utf8");
    writeFileSync(hostFile, original);

    const result = await mcpx("install", "claude-desktop", "--to", hostFile, "--config", config);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/added "mcpx"/);
    const [backup] = backups(hostFile);
    expect(readFileSync(path.join(path.dirname(hostFile), backup!), "utf8")).toBe(original);

    const written = readFileSync(hostFile, "utf8");
    expect(written.startsWith(original.slice(0, original.indexOf('"filesystem"')))).toBe(true); // untouched up to the servers
    const doc = JSON.parse(written) as { globalShortcut: string; mcpServers: Record<string, { command: string; args: string[] }> };
    expect(doc.globalShortcut).toBe("Alt+Space");
    expect(Object.keys(doc.mcpServers)).toEqual(["filesystem", "brave-search", "mcpx"]);

    // The entry as the host would run it: an SDK host spawns it and sees the upstream's tools.
    const entry = doc.mcpServers.mcpx!;
    const client = new Client({ name: "host-under-test", version: "1.0.0" });
    const transport = new StdioClientTransport({ command: entry.command, args: entry.args, env: env as Record<string, string>, stderr: "pipe" });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining([expect.stringMatching(/open$/), expect.stringMatching(/wait$/)]));
    } finally {
      await client.close();
    }

    // mcpx reading the host file it was installed into leaves itself out instead of recursing.
    // (A copy with only that entry, so no npx server of the sample is started.)
    const selfFile = path.join(dir, "self", "claude_desktop_config.json");
    mkdirSync(path.dirname(selfFile));
    writeFileSync(selfFile, JSON.stringify({ mcpServers: { mcpx: entry } }));
    const self = await mcpx("servers", "--config", selfFile, "--json");
    expect(self.stderr).toMatch(/left out server "mcpx": it is mcpx itself/);

    // Installing again changes nothing and makes no new backup.
    const again = await mcpx("install", "claude-desktop", "--to", hostFile, "--config", config);
    expect(again.stdout).toMatch(/already runs mcpx/);
    expect(backups(hostFile)).toHaveLength(1);
  });

  it("--dry-run prints the diff and changes nothing", async () => {
    const config = mcpxConfig();
    const hostFile = path.join(dir, "mcp_config.json");
    writeFileSync(hostFile, '{\n  "mcpServers": {}\n}\n');
    const result = await mcpx("install", "windsurf", "--to", hostFile, "--config", config, "--dry-run");
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^\+\s+"mcpx": \{/m);
    expect(result.stdout).toContain(config);
    expect(readFileSync(hostFile, "utf8")).toBe('{\n  "mcpServers": {}\n}\n');
    expect(backups(hostFile)).toEqual([]);
  });

  it("VS Code: servers.mcpx with type stdio, the file's comments kept", async () => {
    const config = mcpxConfig();
    const hostFile = path.join(dir, ".vscode", "mcp.json");
    mkdirSync(path.dirname(hostFile));
    copyFileSync(path.join(HOSTS, "vscode", ".vscode", "mcp.json"), hostFile);
    const result = await mcpx("install", "vscode", "--to", hostFile, "--config", config);
    expect(result.code).toBe(0);
    const written = readFileSync(hostFile, "utf8");
    expect(written).toContain("// Inputs are prompted for the first time a server starts.");
    const doc = parseJsonc(written, hostFile) as { servers: Record<string, Record<string, unknown>>; inputs: unknown[] };
    expect(doc.servers.mcpx).toMatchObject({ type: "stdio", command: process.execPath, args: [MCPX_BIN, "serve", "--config", config] });
    expect(Object.keys(doc.servers)).toEqual(["perplexity", "github", "local", "mcpx"]);
    expect(doc.inputs).toHaveLength(1);
  });

  it("refuses to point a host at a config mcpx cannot start with, and writes nothing", async () => {
    const config = path.join(dir, "mcpx.json");
    writeFileSync(config, JSON.stringify({ mcpServers: { s: { comand: "x" } } }));
    const hostFile = path.join(dir, "claude_desktop_config.json");
    const result = await mcpx("install", "claude-desktop", "--to", hostFile, "--config", config);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/comand is not a known key/);
    expect(existsSync(hostFile)).toBe(false);
  });
});

/**
 * A `mcpx search` whose stamp is true goes straight to the search index (cli/search-stamp.ts):
 * it reads neither the config, nor the config kept checked, nor the summary, and answers as the
 * whole way does. Anything the answer depends on makes the stamp false: the config file edited,
 * a catalogue read again (the cache's generation moves), a config that reads the environment.
 * Run through the built CLI, on a real stdio upstream whose tools come from a file.
 */
import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SETTLED_MS } from "../../src/cli/hot-config.js";
import { fixture, MCPX_BIN, nodeServer, writeConfig, type TempConfig } from "../helpers/mcpx.js";
import { runMcpx } from "../helpers/upstreams.js";

let config: TempConfig | undefined;
afterEach(() => {
  if (config) rmSync(config.dir, { recursive: true, force: true });
  config = undefined;
});

/**
 * The config written as an edit made a while ago, and waited for until its change time (which
 * no one can set back) is SETTLED_MS old: only then may it be kept checked (hot-config.ts).
 */
async function writeSettled(file: string, value: object): Promise<void> {
  writeFileSync(file, JSON.stringify(value, null, 2));
  const past = new Date(Date.now() - 60_000 - Math.floor(Math.random() * 1000));
  utimesSync(file, past, past);
  const wait = statSync(file).ctimeMs + SETTLED_MS + 50 - Date.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
}

async function setUp(servers: Record<string, object>): Promise<{ config: TempConfig; tools: string; value: object }> {
  const made = writeConfig({});
  const tools = join(made.dir, "tools.json");
  writeFileSync(tools, JSON.stringify(["send_email", "read_inbox"]));
  const value = { mcpServers: { mail: nodeServer("file-tools-server.mjs", [tools]), ...servers } };
  config = made;
  await writeSettled(made.file, value);
  return { config: made, tools, value };
}

const stamps = (config: TempConfig) => {
  const dir = join(config.dir, "state", "discovery", "stamps");
  return existsSync(dir) ? readdirSync(dir).map((name) => join(dir, name)) : [];
};

/** The files a search reads (test/fixtures/read-log.mjs), and what it printed. */
function searchReads(config: TempConfig, words: string[]): Promise<{ code: number; stdout: string; stderr: string; files: string[] }> {
  const log = join(config.dir, "reads.log");
  rmSync(log, { force: true });
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--import", fixture("read-log.mjs"), MCPX_BIN, "search", ...words, "--config", config.file],
      { env: { ...config.env, MCPX_READ_LOG: log }, timeout: 30_000 },
      (error, stdout, stderr) => {
        const code = error && typeof error.code === "number" ? error.code : error ? -1 : 0;
        const files = readFileSync(log, "utf8")
          .split("\n")
          .filter((line) => line && !line.startsWith("JSON\t"))
          .map((line) => line.split("\t")[1]!);
        resolve({ code, stdout, stderr, files: [...new Set(files)] });
      },
    );
  });
}

const mcpx = (config: TempConfig, ...args: string[]) => runMcpx([...args, "--config", config.file], config);

describe("a search whose stamp is true", () => {
  it("reads no config, no kept config and no summary, and answers as the whole way did; 0600 like the rest", async () => {
    const { config } = await setUp({});
    expect((await mcpx(config, "refresh")).code).toBe(0);
    const whole = await mcpx(config, "search", "send", "an", "email");
    expect(whole.code, whole.stderr).toBe(0);
    expect(whole.stdout).toMatch(/^mail__send_email /);
    expect(stamps(config)).toHaveLength(1);
    expect(statSync(stamps(config)[0]!).mode & 0o777).toBe(0o600);
    const stamped = await searchReads(config, ["send", "an", "email"]);
    expect(stamped.code, stamped.stderr).toBe(0);
    expect(stamped.stdout).toBe(whole.stdout);
    const read = (part: string) => stamped.files.filter((file) => file.includes(part));
    expect(read(config.file)).toEqual([]);
    expect(read("/discovery/configs/")).toEqual([]);
    expect(read("/discovery/summaries/")).toEqual([]);
    expect(read("/discovery/stamps/")).toHaveLength(1);
    expect(read("/discovery/indexes/")).toHaveLength(1);
  }, 60_000);

  it("says the config's warnings again, as the whole way does", async () => {
    // a host's key makes it a host's file, where a broken server is left out with a warning, not refused
    const { config } = await setUp({ broken: { url: 5, autoApprove: [] } });
    expect((await mcpx(config, "refresh")).code).toBe(0);
    const whole = await mcpx(config, "search", "send", "email");
    expect(whole.stderr).toContain('left out server "broken"');
    expect(stamps(config)).toHaveLength(1);
    const stamped = await searchReads(config, ["send", "email"]);
    expect(
      stamped.files.filter((file) => file.includes("/discovery/summaries/")),
      JSON.stringify(stamped.files),
    ).toEqual([]);
    expect(stamped.stderr).toContain('left out server "broken"');
    expect(stamped.stdout).toBe(whole.stdout);
  }, 60_000);

  it("is false once the config file is edited: the answer follows the new config", async () => {
    const { config, value } = await setUp({});
    expect((await mcpx(config, "refresh")).code).toBe(0);
    expect((await mcpx(config, "search", "send", "email")).stdout).toMatch(/^mail__send_email /);
    expect(stamps(config)).toHaveLength(1);
    expect((await mcpx(config, "search", "send", "email")).stdout).toMatch(/^mail__send_email /);
    // the tool denied: unknown everywhere, a stamped search included
    const mail = (value as { mcpServers: { mail: object } }).mcpServers.mail;
    await writeSettled(config.file, { mcpServers: { mail: { ...mail, tools: { deny: ["send_*"] } } } });
    const after = await mcpx(config, "search", "send", "email");
    expect(after.code, after.stderr).toBe(0);
    expect(after.stdout).not.toContain("send_email");
  }, 60_000);

  it("is false once a catalogue is read again: a tool added since is found", async () => {
    const { config, tools } = await setUp({});
    expect((await mcpx(config, "refresh")).code).toBe(0);
    expect((await mcpx(config, "search", "archive", "message")).stdout).not.toContain("archive_message");
    expect(stamps(config)).toHaveLength(1);
    expect((await mcpx(config, "search", "archive", "message")).stdout).not.toContain("archive_message");
    writeFileSync(tools, JSON.stringify(["send_email", "read_inbox", "archive_message"]));
    expect((await mcpx(config, "refresh", "mail")).code).toBe(0);
    const after = await mcpx(config, "search", "archive", "message");
    expect(after.code, after.stderr).toBe(0);
    expect(after.stdout).toMatch(/^mail__archive_message /);
  }, 60_000);

  it("is never made for a config that reads the environment", async () => {
    const { config, tools } = await setUp({});
    // the same server, its arguments naming a variable (the fixture ignores its second)
    await writeSettled(config.file, { mcpServers: { mail: nodeServer("file-tools-server.mjs", [tools, "${HOME}"]) } });
    expect((await mcpx(config, "refresh")).code).toBe(0);
    expect((await mcpx(config, "search", "send", "email")).stdout).toMatch(/^mail__send_email /);
    expect((await mcpx(config, "search", "send", "email")).stdout).toMatch(/^mail__send_email /);
    expect(stamps(config)).toEqual([]);
  }, 60_000);

  it("is never made while a server was never read", async () => {
    const { config } = await setUp({ other: nodeServer("file-tools-server.mjs", ["/nonexistent/tools.json"]) });
    expect((await mcpx(config, "refresh", "mail")).code).toBe(0);
    expect((await mcpx(config, "search", "send", "email", "--cached")).code).toBe(0);
    expect((await mcpx(config, "search", "send", "email", "--cached")).code).toBe(0);
    expect(stamps(config)).toEqual([]);
  }, 60_000);
});

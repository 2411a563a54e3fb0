/**
 * `mcpx ls` and `search` keep their config checked in the state directory (cli/hot-config.ts):
 * a kept config is never served for a file that changed, for a config that reads the
 * environment or another file or holds a secret written in it, or one changed too recently to tell an edit from it by its
 * times; what is kept is 0600 in 0700 folders, and the warnings are said again from it.
 */
import { execFile } from "node:child_process";
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { hotConfig, keptConfigsDir, SETTLED_MS } from "../../src/cli/hot-config.js";
import { CliError } from "../../src/cli/exit.js";
import { fixture, MCPX_BIN, writeConfig } from "../helpers/mcpx.js";
import { runMcpx } from "../helpers/upstreams.js";

const mode = (path: string) => statSync(path).mode & 0o777;
/** A time well after any file written here: every config counts as settled. */
const later = () => Date.now() + 10 * SETTLED_MS;

let dir: string;
let state: string;
let file: string;

/** Write the config, its times set in the past (as an edit made a while ago), so that the next write is told apart by them. */
function writeSettled(text: string, path = file): void {
  writeFileSync(path, text);
  const past = new Date(Date.now() - 60_000);
  utimesSync(path, past, past);
}

const serverUrls = (config: Awaited<ReturnType<typeof hotConfig>>) => config.servers.map((server) => [server.name, server.url]);
const kept = () => readdirSync(keptConfigsDir(state));

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "mcpx-hot-config-"));
  state = join(dir, "state");
  file = join(dir, "mcpx.json");
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

describe("hotConfig", () => {
  it("keeps a settled config checked, 0600 in 0700 folders, and answers from it", async () => {
    writeSettled(JSON.stringify({ mcpServers: { alpha: { url: "http://127.0.0.1:1/a" } } }));
    const first = await hotConfig(file, state, later);
    expect(serverUrls(first)).toEqual([["alpha", "http://127.0.0.1:1/a"]]);
    expect(kept()).toHaveLength(1);
    const keptFile = join(keptConfigsDir(state), kept()[0]!);
    expect(mode(keptFile)).toBe(0o600);
    expect(mode(keptConfigsDir(state))).toBe(0o700);
    // what is kept answers: a kept config changed by hand (a test's way to tell it was used) comes back
    const stored = JSON.parse(readFileSync(keptFile, "utf8")) as { checked: { config: { servers: { url: string }[] } } };
    stored.checked.config.servers[0]!.url = "http://127.0.0.1:1/from-kept";
    writeFileSync(keptFile, JSON.stringify(stored));
    expect(serverUrls(await hotConfig(file, state, later))).toEqual([["alpha", "http://127.0.0.1:1/from-kept"]]);
    expect(await hotConfig(file, state, later)).toEqual({ ...first, servers: [{ ...first.servers[0], url: "http://127.0.0.1:1/from-kept" }] });
  });

  it("reads the file again once it changed, even to a text of the same size", async () => {
    writeSettled(JSON.stringify({ mcpServers: { alpha: { url: "http://127.0.0.1:1/a" } } }));
    await hotConfig(file, state, later);
    writeFileSync(file, JSON.stringify({ mcpServers: { bravo: { url: "http://127.0.0.1:1/b" } } }));
    expect(serverUrls(await hotConfig(file, state, later))).toEqual([["bravo", "http://127.0.0.1:1/b"]]);
  });

  it("never keeps a config that reads the environment: a variable's new value is read", async () => {
    writeSettled(JSON.stringify({ mcpServers: { alpha: { url: "${MCPX_TEST_HOT_URL}" } } }));
    vi.stubEnv("MCPX_TEST_HOT_URL", "http://127.0.0.1:1/one");
    expect(serverUrls(await hotConfig(file, state, later))).toEqual([["alpha", "http://127.0.0.1:1/one"]]);
    vi.stubEnv("MCPX_TEST_HOT_URL", "http://127.0.0.1:1/two");
    expect(serverUrls(await hotConfig(file, state, later))).toEqual([["alpha", "http://127.0.0.1:1/two"]]);
    // and nothing of it, the variable's value least of all, was written
    expect(() => kept()).toThrow(/ENOENT/);
    vi.unstubAllEnvs();
  });

  it("never keeps a config that reads an envFile: the file's new values are read", async () => {
    const envFile = join(dir, "servers.env");
    writeSettled("TOKEN=first\n", envFile);
    writeSettled(JSON.stringify({ mcpServers: { alpha: { command: "node", envFile } } }));
    expect((await hotConfig(file, state, later)).servers[0]!.env).toEqual({ TOKEN: "first" });
    writeSettled("TOKEN=other\n", envFile);
    expect((await hotConfig(file, state, later)).servers[0]!.env).toEqual({ TOKEN: "other" });
    expect(() => kept()).toThrow(/ENOENT/);
  });

  it("never copies a secret written in the config: one with an env or header value, a URL's user info or query, a credential's key or argument is checked each time", async () => {
    const holding = [
      { mcpServers: { alpha: { command: "node", env: { GITHUB_TOKEN: "ghp_literal" } } } },
      { mcpServers: { alpha: { url: "http://127.0.0.1:1/a", headers: { authorization: "Bearer literal" } } } },
      { mcpServers: { alpha: { url: "http://user:pass@127.0.0.1:1/a" } } },
      { mcpServers: { alpha: { url: "http://127.0.0.1:1/a?key=literal" } } },
      { mcpServers: { alpha: { command: "node", args: ["server.js", "--api-key", "literal"] } } },
      { mcpServers: { alpha: { url: "http://127.0.0.1:1/a", oauth: { clientId: "c", clientSecret: "literal" } } } },
    ];
    for (const config of holding) {
      writeSettled(JSON.stringify(config));
      await hotConfig(file, state, later);
      expect(() => kept(), JSON.stringify(config)).toThrow(/ENOENT/);
    }
    // the control: the same servers without it are kept
    writeSettled(JSON.stringify({ mcpServers: { alpha: { command: "node", args: ["server.js", "--verbose"] }, bravo: { url: "http://127.0.0.1:1/b" } } }));
    await hotConfig(file, state, later);
    expect(kept()).toHaveLength(1);
  });

  it("does not keep a config changed moments ago (a second edit within its times' resolution would look the same)", async () => {
    writeFileSync(file, JSON.stringify({ mcpServers: { alpha: { url: "http://127.0.0.1:1/a" } } }));
    await hotConfig(file, state);
    expect(() => kept()).toThrow(/ENOENT/);
    await hotConfig(file, state, later);
    expect(kept()).toHaveLength(1);
  });

  it("keeps one per file: another file (or the same one named from elsewhere) is another config", async () => {
    writeSettled(JSON.stringify({ mcpServers: { alpha: { url: "http://127.0.0.1:1/a" } } }));
    const other = join(dir, "other.json");
    writeSettled(JSON.stringify({ mcpServers: { bravo: { url: "http://127.0.0.1:1/b" } } }), other);
    await hotConfig(file, state, later);
    expect(serverUrls(await hotConfig(other, state, later))).toEqual([["bravo", "http://127.0.0.1:1/b"]]);
    expect(serverUrls(await hotConfig(file, state, later))).toEqual([["alpha", "http://127.0.0.1:1/a"]]);
    expect(kept()).toHaveLength(2);
  });

  it("says a kept config's warnings every time, as a checked one's", async () => {
    // a Claude Desktop file: its app settings are passed by, with a warning
    writeSettled(JSON.stringify({ globalShortcut: "Ctrl+Space", mcpServers: { alpha: { url: "http://127.0.0.1:1/a" } } }));
    const said: string[] = [];
    vi.spyOn(process.stderr, "write").mockImplementation((text) => {
      said.push(String(text));
      return true;
    });
    await hotConfig(file, state, later);
    await hotConfig(file, state, later);
    const warnings = said.filter((line) => line.includes("globalShortcut"));
    expect(warnings).toHaveLength(2);
    expect(warnings[1]).toBe(warnings[0]);
  });

  it("keeps no config with an error, and says the error each time", async () => {
    writeSettled(JSON.stringify({ mcpServers: { alpha: { url: 7 } } }));
    await expect(hotConfig(file, state, later)).rejects.toThrow(CliError);
    await expect(hotConfig(file, state, later)).rejects.toThrow(/mcpServers\.alpha\.url/);
    expect(() => kept()).toThrow(/ENOENT/);
  });

  it("reads the file again when what is kept is damaged", async () => {
    writeSettled(JSON.stringify({ mcpServers: { alpha: { url: "http://127.0.0.1:1/a" } } }));
    await hotConfig(file, state, later);
    writeFileSync(join(keptConfigsDir(state), kept()[0]!), "{ not json");
    expect(serverUrls(await hotConfig(file, state, later))).toEqual([["alpha", "http://127.0.0.1:1/a"]]);
  });
});

describe("mcpx ls with a kept config", () => {
  /** The modules a run loaded (test/fixtures/module-log.mjs), and its output. */
  function ls(config: ReturnType<typeof writeConfig>): Promise<{ stdout: string; modules: string[] }> {
    const log = join(config.dir, "modules.log");
    rmSync(log, { force: true });
    return new Promise((resolve, reject) =>
      execFile(
        process.execPath,
        ["--import", fixture("module-log.mjs"), MCPX_BIN, "ls", "--cached", "--config", config.file],
        { env: { ...config.env, MCPX_MODULE_LOG: log }, timeout: 30_000 },
        (error, stdout) => (error ? reject(error) : resolve({ stdout, modules: readFileSync(log, "utf8").split("\n").filter(Boolean) })),
      ),
    );
  }

  it("checks no config once it is kept, and an edit of the file is seen by the next run", { timeout: 30_000 }, async () => {
    const config = writeConfig({ mcpServers: { alpha: { url: "http://127.0.0.1:1/a" } } });
    try {
      // a file is kept once it has not changed for SETTLED_MS (its change time, which no one can set back, says when)
      await new Promise((resolve) => setTimeout(resolve, SETTLED_MS + 100));
      const checker = (modules: string[]) => modules.filter((module) => /\/dist\/config\/validate\.js$/.test(module));
      const first = await ls(config);
      expect(first.stdout).toContain("alpha");
      const second = await ls(config);
      expect(second.stdout).toContain("alpha");
      // the bundle (when the build made one) holds no checker; without it, the modules would list it on every run
      if (checker(first.modules).length > 0) expect(checker(second.modules)).toEqual([]);
      writeFileSync(config.file, readFileSync(config.file, "utf8").replace('"alpha"', '"bravo"'));
      const edited = await ls(config);
      expect(edited.stdout).toContain("bravo");
      expect(edited.stdout).not.toContain("alpha");
    } finally {
      rmSync(config.dir, { recursive: true, force: true });
    }
  });

  it("leaves the state directory's other files to the commands that sweep it, and makes the directory itself private", async () => {
    const config = writeConfig({ mcpServers: {} });
    try {
      const state = config.env.MCPX_STATE_DIR!;
      const first = await runMcpx(["ls", "--cached", "--config", config.file], config);
      expect(first.code, first.stderr).toBe(0);
      const loose = join(state, "loose.log");
      writeFileSync(loose, "", { mode: 0o644 });
      chmodSync(loose, 0o644);
      chmodSync(state, 0o755);
      const run = await runMcpx(["ls", "--cached", "--config", config.file], config);
      expect(run.code, run.stderr).toBe(0);
      expect(mode(state)).toBe(0o700);
      expect(mode(loose)).toBe(0o644);
      expect(run.stderr).not.toMatch(/private/);
    } finally {
      rmSync(config.dir, { recursive: true, force: true });
    }
  });
});

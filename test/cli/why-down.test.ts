/** `mcpx servers` says why a server is down with the last lines it wrote to stderr. */
import { describe, expect, it } from "vitest";
import { nodeServer, RawStdioHost, writeConfig } from "../helpers/mcpx.js";
import { parseServers, runMcpx } from "../helpers/upstreams.js";
import { StderrTail } from "../../src/upstream/stderr-tail.js";

/** A stand-in for `npx some-package` when the package does not exist: npm's words, then exit 1. */
const NPM_404 = [
  "-e",
  [
    "for (let i = 0; i < 30; i++) console.error('npm http fetch GET 404 line ' + i);",
    "console.error('npm error code E404');",
    "process.stderr.write('npm error 404 Not Found - GET https://registry.npmjs.org/@nope%2fserver - Not found\\x1b[2J');",
    "process.exit(1);",
  ].join("\n"),
];

describe("why a server is down", () => {
  it("--json carries the tail of its stderr (bounded), the last line even without a newline", async () => {
    const config = writeConfig({
      mcpServers: {
        files: { command: process.execPath, args: NPM_404 },
        missing: { command: process.execPath, args: ["/nonexistent/mcpx-test/server.js"] },
        faulty: nodeServer("faulty-server.mjs"),
      },
    });
    const run = await runMcpx(["servers", "--json", "--config", config.file], config);
    expect(run.code, run.stderr + run.stdout).toBe(1);
    const reports = parseServers(run.stdout);
    const files = reports.get("files")!;
    expect(files.state).toBe("down");
    expect(files.stderrTail.length).toBe(20);
    expect(files.stderrTail.at(-2)).toBe("npm error code E404");
    expect(files.stderrTail.at(-1)).toContain("npm error 404 Not Found");
    expect(reports.get("missing")!.stderrTail.join("\n")).toContain("Cannot find module");
    expect(run.stdout).not.toContain("\x1b");
  });

  it("the table shows the last few lines under the reason, indented and inert", async () => {
    const config = writeConfig({ mcpServers: { files: { command: process.execPath, args: NPM_404 } } });
    const run = await runMcpx(["servers", "--config", config.file], config);
    expect(run.code, run.stderr + run.stdout).toBe(1);
    expect(run.stdout).toMatch(
      /^files: down: .*exited with code 1: npm error 404 Not Found .*\n {2}its stderr ended with:\n( {4}.*\n){4} {4}npm error 404 Not Found .*\\x1b\[2J$/m,
    );
    expect(run.stdout).not.toContain("\x1b");
    expect(run.stdout).not.toContain("line 24");
  });
});

describe("the line that says what is wrong", () => {
  const MISSING_MODULE = "/nonexistent/mcpx-test/server.js";
  const PYTHON_STYLE = [
    "-e",
    ["Traceback (most recent call last):", '  File "server.py", line 1, in <module>', "ModuleNotFoundError: No module named 'mcp'"]
      .map((line) => `console.error(${JSON.stringify(line)});`)
      .concat(["console.error('shutting down'); process.exit(1);"])
      .join("\n"),
  ];

  it("comes first in the table and in the reason, not the end of a stack trace", async () => {
    const config = writeConfig({
      mcpServers: { missing: { command: process.execPath, args: [MISSING_MODULE] }, python: { command: process.execPath, args: PYTHON_STYLE } },
    });
    const run = await runMcpx(["servers", "--config", config.file], config);
    expect(run.code, run.stderr + run.stdout).toBe(1);
    expect(run.stdout).toMatch(new RegExp(`^missing: down: the server process exited with code 1: Error: Cannot find module '${MISSING_MODULE}'$`, "m"));
    expect(run.stdout).toMatch(/^python: down: the server process exited with code 1: ModuleNotFoundError: No module named 'mcp'$/m);
    const json = await runMcpx(["servers", "--json", "--config", config.file], config);
    expect(parseServers(json.stdout).get("missing")?.reason).toBe(`the server process exited with code 1: Error: Cannot find module '${MISSING_MODULE}'`);
  });

  it("is the one the startup summary quotes", async () => {
    const config = writeConfig({ mcpServers: { missing: { command: process.execPath, args: [MISSING_MODULE] } } });
    const host = new RawStdioHost(config);
    try {
      await host.running.waitForLog(/^mcpx: \d+ of \d+ servers? up.*$/m);
      expect(host.running.stderr()).toContain(`down: missing (the server process exited with code 1: Error: Cannot find module '${MISSING_MODULE}')`);
    } finally {
      await host.close();
    }
  });
});

describe("StderrTail", () => {
  it("picks the lines that say what is wrong, leaving out stack frames and the runtime's banner", () => {
    const tail = new StderrTail();
    const node = [
      "node:internal/modules/cjs/loader:1210",
      "  throw err;",
      "  ^",
      "Error: Cannot find module '/x/y.js'",
      "    at Module._resolveFilename (node:internal/modules/cjs/loader:1207:15)",
      "    at node:internal/main/run_main_module:28:49 {",
      "  code: 'MODULE_NOT_FOUND',",
      "  requireStack: []",
      "}",
      "Node.js v20.20.2",
    ];
    for (const line of node) tail.push(line);
    expect(tail.errorLines()).toEqual(["Error: Cannot find module '/x/y.js'"]);
    tail.clear();
    for (const line of ["npm http fetch GET 404 https://registry.npmjs.org/x", "npm error code E404", "npm error 404 Not Found - GET x"]) tail.push(line);
    expect(tail.errorLines(1)).toEqual(["npm error 404 Not Found - GET x"]);
    tail.clear();
    for (const line of ["listening on stdio", "TypeError: fetch failed", "    at async main (server.js:3:1)", "panic: runtime error: index out of range"])
      tail.push(line);
    expect(tail.errorLines()).toEqual(["TypeError: fetch failed", "panic: runtime error: index out of range"]);
    tail.clear();
    tail.push("all is well");
    expect(tail.errorLines()).toEqual([]);
  });

  it("keeps the last lines within its line and byte bounds", () => {
    const tail = new StderrTail(3, 10);
    for (const line of ["a", "b", "c", "d"]) tail.push(line);
    expect(tail.lines()).toEqual(["b", "c", "d"]);
    tail.push("0123456789");
    expect(tail.lines()).toEqual(["0123456789"]);
    tail.push("x".repeat(50));
    expect(tail.lines()).toEqual([`${"x".repeat(9)}…`]);
    tail.push("   ");
    expect(tail.lines(1)).toEqual([`${"x".repeat(9)}…`]);
  });
});

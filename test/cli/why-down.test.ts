/** `mcpx servers` says why a server is down with the last lines it wrote to stderr. */
import { describe, expect, it } from "vitest";
import { nodeServer, writeConfig } from "../helpers/mcpx.js";
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
    expect(run.stdout).toMatch(/^files: down: .*exited with code 1\n {2}its stderr ended with:\n( {4}.*\n){4} {4}npm error 404 Not Found .*\\x1b\[2J$/m);
    expect(run.stdout).not.toContain("\x1b");
    expect(run.stdout).not.toContain("line 24");
  });
});

describe("StderrTail", () => {
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

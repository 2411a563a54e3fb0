/**
 * `mcpx client [-o FILE] [--json] [--cached]` over a real upstream (SDK 1.x over stdio): the
 * declarations of the config's servers from the schema cache (a server never read is read once),
 * that compile under `tsc --strict` with lib es2022 alone, carry no upstream control character,
 * leave out what the config hides, and name what the sandbox runs: a script that type-checks
 * against the file runs in the sandbox against the same server and gets the typed values.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_SCRIPT_LIMITS, type ToolCaller } from "../../src/scripts/types.js";
import { startScript } from "../../src/scripts/run-script.js";
import { scriptServers } from "../../src/scripts/script-servers.js";
import { typecheckScript } from "../../src/scripts/typecheck.js";
import { fixture, nodeServer, type TempConfig, writeConfig } from "../helpers/mcpx.js";
import { compile } from "../helpers/typescript-compiler.js";
import { runMcpx } from "../helpers/upstreams.js";

const SERVER = "issue-tracker";
const SANDBOX = { lib: ["lib.es2022.d.ts"], types: [] };
/** What a terminal would act on: C0/C1 controls (tab and newline aside), the bidi controls. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding them is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

const SCRIPT = `const found = await issue_tracker.search_issues({ query: args[0] ?? "billing", limit: 5 });
for (const issue of found.items) {
  const who = textOf(await issue_tracker.get_person({ login: issue.author }));
  console.log(\`\${issue.id} \${issue.title} by \${who}\`);
}
return found.total;
`;

describe("mcpx client", { timeout: 60_000 }, () => {
  let config: TempConfig;
  const mcpx = (...args: string[]) => runMcpx([...args, "--config", config.file], config);

  beforeAll(() => {
    config = writeConfig({
      mcpServers: {
        [SERVER]: nodeServer("client-tools-server.mjs", [], { tools: { deny: ["secret_*"] } }),
        off: nodeServer("long-names-server.mjs", [], { disabled: true }),
      },
    });
  });

  it("--cached starts nothing: the servers never read are left out, said so on stderr; what is printed still compiles", async () => {
    const run = await mcpx("client", "--cached");
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(`mcpx: ${SERVER} is not in the client: never read`);
    expect(run.stderr).toContain("mcpx: off is not in the client: disabled");
    expect(run.stdout).not.toContain("const issue_tracker");
    expect(compile({ "client.d.ts": run.stdout }, SANDBOX).errors).toEqual([]);
  });

  it("reads a server never read once, then prints declarations that compile, without what the config denies or any control character", async () => {
    const run = await mcpx("client");
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(`${SERVER} was never read; reading its catalogue once now`);
    expect(compile({ "client.d.ts": run.stdout }, SANDBOX).errors).toEqual([]);
    expect(run.stdout).toContain(`const issue_tracker: mcpx.issue_tracker;`);
    expect(run.stdout).toMatch(/\bsearch_issues\(args: \{/);
    expect(run.stdout).toContain('(The tool "search-issues".)');
    expect(run.stdout).toMatch(/\bget_person\(args: \{ login: string \}\): Promise<ContentBlock\[\]>;/);
    expect(run.stdout).not.toContain("secret_dump");
    expect(run.stdout).toMatch(new RegExp(`^// ${SERVER}: 2 tools, read \\d{4}-\\d\\d-\\d\\dT`, "m"));
    expect(run.stdout).not.toMatch(CONTROL);
    expect(run.stdout).toContain("Searches issues. *\\/ [31mred[0m \\u202eevil");
  });

  it("-o FILE writes the same declarations (0644, no secrets in it) and says so; a script that type-checks against them runs in the sandbox", async () => {
    const file = join(config.dir, "mcpx-client.d.ts");
    const printed = await mcpx("client", "--cached");
    const run = await mcpx("client", "-o", file, "--cached");
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(`mcpx: wrote the client of 2 servers (2 tools) to ${file}`);
    const text = readFileSync(file, "utf8");
    expect(text).toBe(printed.stdout);
    expect(statSync(file).mode & 0o777).toBe(0o644 & ~process.umask());

    expect(await typecheckScript(SCRIPT, text, "billing.ts")).toEqual([]);
    const wrong = await typecheckScript("const found = await issue_tracker.search_issues({ query: 1 });\nfound.items[0]?.autor;\n", text, "wrong.ts");
    expect(wrong.map((problem) => problem.line)).toEqual([1, 2]);

    // What type-checked runs: the same names and shapes, against the same server.
    const client = new Client({ name: "client-test", version: "1.0.0" });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [fixture("client-tools-server.mjs")], stderr: "ignore" }));
    try {
      const { tools } = await client.listTools();
      const records = tools.map((tool) => ({
        server: SERVER,
        tool: tool.name,
        name: `${SERVER}__${tool.name}`,
        description: tool.description ?? "",
        inputSchema: tool.inputSchema,
        ...(tool.outputSchema ? { outputSchema: tool.outputSchema } : {}),
      }));
      const caller: ToolCaller = async (_server, tool, args) => (await client.callTool({ name: tool, arguments: args })) as never;
      const running = await startScript(
        { code: SCRIPT, language: "ts", filename: "billing.ts", args: [] },
        scriptServers(records),
        caller,
        DEFAULT_SCRIPT_LIMITS,
      );
      const envelope = await running.done;
      expect(envelope.error).toBeUndefined();
      expect(envelope.output).toBe(
        "BILL-1 billing service times out by ada (ada@example.com)\nBILL-2 billing totals off by one by grace (grace@example.com)\n",
      );
      expect(envelope.value).toBe(2);
    } finally {
      await client.close();
    }
  }, 60_000);

  it("--json gives the declarations with each server's global and age", async () => {
    const run = await mcpx("client", "--json", "--cached");
    expect(run.code, run.stderr).toBe(0);
    const json = JSON.parse(run.stdout) as { typescript: string; servers: { server: string; variable: string | null; tools: number; readAt: string | null }[] };
    expect(json.servers).toEqual([
      { server: SERVER, variable: "issue_tracker", tools: 2, readAt: expect.stringMatching(/^\d{4}-/) },
      { server: "off", variable: null, tools: 0, readAt: null },
    ]);
    expect(compile({ "client.d.ts": json.typescript }, SANDBOX).errors).toEqual([]);
  });

  it("-o into a directory that does not exist fails with a clear error and writes nothing", async () => {
    const file = join(config.dir, "missing", "client.d.ts");
    const run = await mcpx("client", "-o", file, "--cached");
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^mcpx: cannot write .*missing\/client\.d\.ts: .*no such file or directory/im);
    expect(existsSync(join(config.dir, "missing"))).toBe(false);
  });
});

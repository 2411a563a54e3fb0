/**
 * `typecheckScript` (`--typecheck`): a script checked against the client's declarations with the
 * real compiler, in memory, strict, lib es2022 alone; its body is an async function's (top-level
 * `await` and `return`), and every problem is reported at the script's own line and column.
 */
import { describe, expect, it } from "vitest";
import { discoveryName, type ToolRecord } from "../../src/discovery/records.js";
import { clientDeclarations } from "../../src/scripts/client-declarations.js";
import { problemLine, typecheckScript } from "../../src/scripts/typecheck.js";
import { liveMcpTools, TOOL_SEARCH_DATA } from "../helpers/tool-search-data.js";

function tool(server: string, name: string, extra: Partial<ToolRecord> = {}): ToolRecord {
  return { server, tool: name, name: discoveryName(server, name), description: "", inputSchema: { type: "object" }, ...extra };
}

const DECLARATIONS = clientDeclarations([
  tool("issues", "search", {
    inputSchema: { type: "object", properties: { query: { type: "string" }, limit: { type: "integer" } }, required: ["query"] },
    outputSchema: {
      type: "object",
      properties: {
        total: { type: "integer" },
        items: { type: "array", items: { type: "object", properties: { id: { type: "string" }, author: { type: "string" } }, required: ["id"] } },
      },
      required: ["total", "items"],
    },
  }),
  tool("my-people", "get-person", { inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] } }),
]);

const GOOD = `// Which issues mention billing, and who filed them.
const found = await issues.search({ query: args[0] ?? "billing", limit: 5 });
if (found.total === 0) return "none";
for (const item of found.items) {
  const person = textOf(await my_people.get_person({ id: item.author ?? "?" }));
  console.log(\`\${item.id}: \${person}\`);
}
onElicit((question) => (question.server === "issues" ? { action: "accept", content: { pick: 1 } } : undefined));
try {
  await my_people.get_person({ id: "x" });
} catch (error) {
  if (error instanceof ToolError) console.error(error.server, error.tool, error.message);
}
return found.items.length;
`;

describe("typecheckScript", { timeout: 60_000 }, () => {
  it("passes a correct script (top-level await and return), and reports how long a check takes", async () => {
    const cold = performance.now();
    expect(await typecheckScript(GOOD, DECLARATIONS, "billing.ts")).toEqual([]);
    const coldMs = performance.now() - cold;
    const warm = performance.now();
    expect(await typecheckScript(GOOD, DECLARATIONS, "billing.ts")).toEqual([]);
    const warmMs = performance.now() - warm;
    console.log(`typecheck: first check ${coldMs.toFixed(0)} ms (typescript loaded, lib parsed), next ${warmMs.toFixed(0)} ms`);
    expect(warmMs).toBeLessThan(coldMs);
  }, 60_000);

  it("reports a wrong argument type, an unknown tool and a typo'd property of a structured result at their lines", async () => {
    const script = `const found = await issues.search({ query: 42 });
console.log(found.totl);
await issues.serch({ query: "x" });
await my_people.get_person();
`;
    const problems = await typecheckScript(script, DECLARATIONS, "wrong.ts");
    expect(problems.map(({ line, column }) => [line, column])).toEqual([
      [1, 37],
      [2, 19],
      [3, 14],
      [4, 17],
    ]);
    expect(problems[0]!.message).toBe("Type 'number' is not assignable to type 'string'.");
    expect(problemLine("wrong.ts", problems[0]!)).toBe("wrong.ts:1:37 Type 'number' is not assignable to type 'string'. (TS2322)");
    expect(problems[1]!.message).toMatch(/^Property 'totl' does not exist on type .*Did you mean 'total'\?/);
    expect(problems[2]!.message).toMatch(/^Property 'serch' does not exist on type 'issues'\. Did you mean 'search'\?/);
    expect(problems[3]!.message).toMatch(/^Expected 1 arguments, but got 0\./);
    expect(problems.every((problem) => !problem.message.includes("\n"))).toBe(true);
  });

  it("knows what the sandbox has besides the tools: its timers and console.trace", async () => {
    const code = `const id = setTimeout((word: string) => console.trace(word), 10, "later");\nclearTimeout(id);\nawait new Promise<void>((done) => setTimeout(done, 5));`;
    expect(await typecheckScript(code, DECLARATIONS, "timers.ts")).toEqual([]);
  });

  it("reports what the sandbox does not have (Node, the DOM, modules) as unknown names", async () => {
    const script = `const file = require("fs");\nprocess.exit(1);\nawait fetch("https://example.com");\nimport x from "y";\n`;
    const problems = await typecheckScript(script, DECLARATIONS, "escape.ts");
    expect([...new Set(problems.map((problem) => problem.line))]).toEqual([1, 2, 3, 4]);
    expect(problems[0]!.message).toMatch(/Cannot find name 'require'/);
    expect(problems[1]!.message).toMatch(/Cannot find name 'process'/);
    expect(problems[2]!.message).toMatch(/Cannot find name 'fetch'/);
  });

  it("reports a syntax error at its line, and an unclosed block at the script's end (never a line of the wrapping)", async () => {
    const problems = await typecheckScript('console.log("a");\nconst = 3;\n', DECLARATIONS, "syntax.ts");
    expect(problems[0]).toMatchObject({ line: 2, column: 7 });
    const unclosed = await typecheckScript("if (args.length > 0) {\n  console.log(args[0]);\n", DECLARATIONS, "unclosed.ts");
    expect(unclosed).toEqual([{ line: 3, column: 1, message: "'}' expected.", code: 1005 }]);
    const early = await typecheckScript("}\nconsole.log(1);\n", DECLARATIONS, "early.ts");
    expect(early).toEqual([{ line: 1, column: 1, message: "Unexpected '}': it closes nothing.", code: 1128 }]);
  });

  it("the wrapping hides no global: a server may have any name", async () => {
    const declarations = clientDeclarations([tool("__mcpxScript", "ping"), tool("default", "ping")]);
    expect(await typecheckScript("await __mcpxScript.ping();\nawait default_.ping();\n", declarations, "names.ts")).toEqual([]);
  });

  it("is strict: an implicit any, a possibly undefined value", async () => {
    const problems = await typecheckScript(
      "const twice = (n) => n * 2;\nconst found = await issues.search({ query: 'a' });\nconsole.log(found.items[0].author.length, twice(2));\n",
      DECLARATIONS,
      "strict.ts",
    );
    expect(problems.map((problem) => [problem.line, problem.code])).toEqual([
      [1, 7006],
      [3, 2532],
    ]);
    expect(problems[0]!.message).toBe("Parameter 'n' implicitly has an 'any' type.");
    expect(problems[1]!.message).toBe("Object is possibly 'undefined'.");
  });
});

describe.skipIf(!TOOL_SEARCH_DATA)("typecheckScript against the 527 LiveMCPTool tools", () => {
  it("checks a script against the whole client, and reports how long it takes", async () => {
    const tools = liveMcpTools().map((row) => ({ ...row, name: discoveryName(row.server, row.tool) }));
    const declarations = clientDeclarations(tools);
    const started = performance.now();
    expect(
      await typecheckScript("const now = await time.get_current_time({ timezone: 'UTC' });\nconsole.log(textOf(now));\n", declarations, "time.ts"),
    ).toEqual([]);
    const firstMs = performance.now() - started;
    const again = performance.now();
    const problems = await typecheckScript("await time.get_current_time({ timezone: 7 });\n", declarations, "time.ts");
    const againMs = performance.now() - again;
    console.log(`typecheck against 527 tools (${declarations.length} characters): ${firstMs.toFixed(0)} ms, then ${againMs.toFixed(0)} ms`);
    expect(problems).toMatchObject([{ line: 1, code: 2322 }]);
  }, 60_000);
});

/**
 * `clientDeclarations`: the typed client a script is written against compiles under
 * `tsc --strict` with lib es2022 alone (what the sandbox has) for all 527 LiveMCPTool tools,
 * declares each server as the global the sandbox gives it (scriptServers' names) with each
 * tool's arguments as its schema says, types results as the sandbox returns them, and holds
 * for names that would clash with the language's own globals.
 */
import { createRequire } from "node:module";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { discoveryName, type ToolRecord } from "../../src/discovery/records.js";
import { clientDeclarations } from "../../src/scripts/client-declarations.js";
import { scriptServers } from "../../src/scripts/script-servers.js";
import { liveMcpTools, TOOL_SEARCH_DATA } from "../helpers/tool-search-data.js";
import { type Compiled, compile } from "../helpers/typescript-compiler.js";

/** What the sandbox has: the language, no DOM, no Node. */
const SANDBOX: ts.CompilerOptions = { lib: ["lib.es2022.d.ts"], types: [], noUncheckedIndexedAccess: false };

function tool(server: string, name: string, extra: Partial<ToolRecord> = {}): ToolRecord {
  return { server, tool: name, name: discoveryName(server, name), description: `${name} of ${server}`, inputSchema: { type: "object" }, ...extra };
}

/** The global variables the declarations' `declare global` block declares, by name. */
function globalVariables(compiled: Compiled, file: string): Map<string, ts.Symbol> {
  const found = new Map<string, ts.Symbol>();
  const visit = (node: ts.Node): void => {
    if (ts.isModuleDeclaration(node) && node.name.getText() === "global" && node.body && ts.isModuleBlock(node.body)) {
      for (const statement of node.body.statements)
        if (ts.isVariableStatement(statement))
          for (const declaration of statement.declarationList.declarations)
            found.set(declaration.name.getText(), compiled.checker.getSymbolAtLocation(declaration.name)!);
    }
    ts.forEachChild(node, visit);
  };
  visit(compiled.file(file));
  return found;
}

function methodSignature(compiled: Compiled, variable: ts.Symbol, method: string): ts.Signature | undefined {
  const type = compiled.checker.getTypeOfSymbol(variable);
  const property = type.getProperty(method);
  return property && compiled.checker.getTypeOfSymbol(property).getCallSignatures()[0];
}

describe.skipIf(!TOOL_SEARCH_DATA)("the client of the 527 LiveMCPTool tools", () => {
  it("compiles under tsc --strict with lib es2022 alone; each server is its sandbox global with each tool's arguments as its schema says", () => {
    const tools = liveMcpTools().map((row) => ({ ...row, name: discoveryName(row.server, row.tool) }));
    expect(tools).toHaveLength(527);
    const text = clientDeclarations(tools, { serverDescriptions: { filesystem: "Files on disk */ and more" } });
    const compiled = compile({ "client.d.ts": text }, SANDBOX);
    expect(compiled.errors).toEqual([]);

    const variables = globalVariables(compiled, "client.d.ts");
    const mismatches: string[] = [];
    for (const server of scriptServers(tools)) {
      const variable = variables.get(server.variable);
      if (!variable) {
        mismatches.push(`${server.server}: no global ${server.variable}`);
        continue;
      }
      for (const scriptTool of server.tools) {
        const record = tools.find((candidate) => candidate.server === server.server && candidate.tool === scriptTool.tool)!;
        const signature = methodSignature(compiled, variable, scriptTool.fn);
        const parameter = signature?.getParameters()[0];
        if (!signature || !parameter) {
          mismatches.push(`${record.name}: no method ${server.variable}.${scriptTool.fn}`);
          continue;
        }
        const args = compiled.checker.getNonNullableType(compiled.checker.getTypeOfSymbol(parameter));
        const declared = args
          .getProperties()
          .map((property) => `${property.name}${property.flags & ts.SymbolFlags.Optional ? "?" : ""}`)
          .sort();
        const schema = record.inputSchema as { properties?: Record<string, unknown>; required?: string[] };
        const expected = Object.keys(schema.properties ?? {})
          .map((key) => `${key}${schema.required?.includes(key) ? "" : "?"}`)
          .sort();
        if (JSON.stringify(declared) !== JSON.stringify(expected)) mismatches.push(`${record.name}: ${declared.join(",")} != ${expected.join(",")}`);
        const result = compiled.checker.typeToString(signature.getReturnType());
        if (result !== "Promise<ContentBlock[]>") mismatches.push(`${record.name}: returns ${result}`);
      }
    }
    expect(mismatches).toEqual([]);
  }, 120_000);
});

describe("clientDeclarations", { timeout: 60_000 }, () => {
  it("types a tool with an outputSchema by it (the structured content), one without as content blocks, and the globals every script has", () => {
    const text = clientDeclarations([
      tool("my-server", "get-file", {
        description: "Reads a file.",
        inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
        outputSchema: { type: "object", properties: { size: { type: "integer" }, lines: { type: "array", items: { type: "string" } } }, required: ["size"] },
      }),
      tool("my-server", "list", { inputSchema: { type: "object", properties: { depth: { type: "number" } } } }),
      tool("my-server", "no-schema", { inputSchema: undefined }),
      tool("my-server", "tree", {
        outputSchema: {
          type: "object",
          properties: { root: { $ref: "#/$defs/Node" } },
          $defs: { Node: { type: "object", properties: { name: { type: "string" }, children: { type: "array", items: { $ref: "#/$defs/Node" } } } } },
        },
      }),
    ]);
    const script = `export {};
const file: { size: number; lines?: string[] } = await my_server.get_file({ path: "a" });
const blocks: ContentBlock[] = await my_server.list();
const none: ContentBlock[] = await my_server.no_schema();
const tree = await my_server.tree();
const leaf: string | undefined = tree.root?.children?.[0]?.children?.[0]?.name;
const text: string = textOf(blocks) + args.join(" ") + String(file.size) + String(none.length) + String(leaf);
console.log(text); console.info(1); console.debug({}); console.error("e"); console.warn([]);
onElicit(async (question) => (question.tool === "get-file" ? { action: "accept", content: { choice: question.message } } : undefined));
onElicit(() => undefined);
try { await my_server.list({ depth: 1 }); } catch (error) { if (error instanceof ToolError) console.log(error.server, error.tool, error.message); }
for (const block of blocks) {
  if (block.type === "text") console.log(block.text);
  else if (block.type === "resource_link") console.log(block.uri, block.name);
  else if (block.type === "resource") console.log("text" in block.resource ? block.resource.text : block.resource.blob);
  else console.log(block.mimeType, block.data.length);
}
`;
    const compiled = compile({ "client.d.ts": text, "script.ts": script }, { ...SANDBOX, module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 });
    expect(compiled.errors).toEqual([]);
    expect(text).toContain('(The tool "get-file".)');
    expect(text).toMatch(/\/\*\* Server "my-server"\. \*\/\n {2}const my_server: mcpx\.my_server;/);

    const wrong = compile(
      {
        "client.d.ts": text,
        "script.ts": `export {};\nconst file = await my_server.get_file({ path: 1 });\nfile.sise;\nawait my_server.get_file();\nawait my_server.nope();\n`,
      },
      SANDBOX,
    );
    expect(wrong.errors.map((error) => error.replace(/:.*/s, ""))).toEqual(["script.ts(2,41)", "script.ts(3,6)", "script.ts(4,17)", "script.ts(5,17)"]);
  });

  it("names each server's global as the sandbox does, whatever the name, and compiles when a name is one of the language's own", () => {
    // The values lib es2022 declares (JSON, Date, NaN, …): a server of that name may not hide them.
    const probe = compile({ "probe.ts": "export {};" }, SANDBOX);
    const builtins = probe.checker
      .getSymbolsInScope(probe.file("probe.ts"), ts.SymbolFlags.Value)
      .map((symbol) => symbol.name)
      .filter((name) => /^[A-Za-z$_][\w$]*$/.test(name));
    expect(builtins).toEqual(expect.arrayContaining(["JSON", "Date", "NaN", "Infinity", "globalThis", "parseInt", "Math", "Promise", "Intl"]));
    const names = new Set([
      ...builtins,
      "eval",
      "arguments",
      "console",
      "args",
      "ToolError",
      "textOf",
      "onElicit",
      "ContentBlock",
      "TextContent",
      "ElicitAnswer",
      "Console",
      "Record",
      "Map",
      "Partial",
      "new",
      "delete",
      "my-server",
      "my_server",
      "12306-mcp",
      "数据",
      "mcpx-client",
    ]);
    const tools = [...names].flatMap((name) => [...new Set(["new", "get-file", "constructor", name])].map((method) => tool(name, method)));
    const text = clientDeclarations(tools);
    const compiled = compile({ "client.d.ts": text }, SANDBOX);
    expect(compiled.errors).toEqual([]);
    const variables = globalVariables(compiled, "client.d.ts");
    const servers = scriptServers(tools);
    expect(servers).toHaveLength(names.size);
    for (const server of servers) {
      expect(builtins, server.server).not.toContain(server.variable);
      expect(["eval", "arguments"]).not.toContain(server.variable);
      const variable = variables.get(server.variable);
      expect(variable, server.server).toBeDefined();
      for (const scriptTool of server.tools) expect(methodSignature(compiled, variable!, scriptTool.fn), `${server.server}.${scriptTool.fn}`).toBeDefined();
    }
  });

  const EDITOR_TEXT = () =>
    clientDeclarations([tool("github", "search_issues", { inputSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] } })]);
  const EDITOR_SCRIPT = `export {};\nconst found = await github.search_issues({ q: "x" });\nconsole.log(textOf(found));\n`;

  it("compiles beside lib.dom, as an editor's project may have it", () => {
    const dom = compile({ "client.d.ts": EDITOR_TEXT(), "script.ts": EDITOR_SCRIPT }, { lib: ["lib.es2022.d.ts", "lib.dom.d.ts"], types: [] });
    expect(dom.errors).toEqual([]);
  }, 120_000);

  it("compiles beside @types/node, as an editor's project may have it", () => {
    const node = createRequire(import.meta.url).resolve("@types/node/index.d.ts");
    const withNode = compile({ "client.d.ts": EDITOR_TEXT(), "script.ts": EDITOR_SCRIPT }, { lib: ["lib.es2022.d.ts"], types: [] }, [node]);
    expect(withNode.errors).toEqual([]);
  }, 120_000);

  it("declares only the globals when there are no tools", () => {
    const compiled = compile(
      { "client.d.ts": clientDeclarations([]), "script.ts": 'export {};\nconsole.log(args.length, textOf([{ type: "text", text: "a" }]));\n' },
      SANDBOX,
    );
    expect(compiled.errors).toEqual([]);
  });
});

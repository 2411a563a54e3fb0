/**
 * `declarations`: the TypeScript `mcpx types` prints compiles under `tsc --strict` for every
 * tool of the 70 LiveMCPTool servers together, and says what their schemas say (the checker
 * reads each tool's arguments back).
 */
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { discoveryName, type ToolRecord } from "../../src/discovery/records.js";
import { typeDeclarations } from "../../src/discovery/typescript.js";
import { liveMcpTools, TOOL_SEARCH_DATA } from "../helpers/tool-search-data.js";
import { compile } from "../helpers/typescript-compiler.js";

function records(): ToolRecord[] {
  return liveMcpTools().map((row) => ({ ...row, name: discoveryName(row.server, row.tool), inputSchema: row.inputSchema }));
}

describe.skipIf(!TOOL_SEARCH_DATA)("declarations of the 527 LiveMCPTool tools", () => {
  it("compile under tsc --strict, all together, and declare each tool's arguments as its schema does", () => {
    const tools = records();
    expect(tools).toHaveLength(527);
    const { text, interfaces } = typeDeclarations(tools, { serverDescriptions: { filesystem: "Files on disk */ and more" } });
    const compiled = compile({ "tools.ts": text });
    expect(compiled.errors).toEqual([]);

    const checker = compiled.checker;
    const module = checker.getSymbolAtLocation(compiled.file("tools.ts"))!;
    const exported = new Map(checker.getExportsOfModule(module).map((symbol) => [symbol.name, symbol]));
    const mismatches: string[] = [];
    for (const tool of tools) {
      const server = exported.get(interfaces.get(tool.server)!);
      const method = server && checker.getDeclaredTypeOfSymbol(server).getProperty(tool.tool);
      const signature = method && checker.getTypeOfSymbol(method).getCallSignatures()[0];
      const parameter = signature?.getParameters()[0];
      if (!parameter) {
        mismatches.push(`${tool.name}: no method`);
        continue;
      }
      const args = checker.getNonNullableType(checker.getTypeOfSymbol(parameter));
      const declared = args
        .getProperties()
        .map((property) => `${property.name}${property.flags & ts.SymbolFlags.Optional ? "?" : ""}`)
        .sort();
      const schema = tool.inputSchema as { properties?: Record<string, unknown>; required?: string[] };
      const expected = Object.keys(schema.properties ?? {})
        .map((key) => `${key}${schema.required?.includes(key) ? "" : "?"}`)
        .sort();
      if (JSON.stringify(declared) !== JSON.stringify(expected)) mismatches.push(`${tool.name}: ${declared.join(",")} != ${expected.join(",")}`);
    }
    expect(mismatches).toEqual([]);
  }, 60_000);
});

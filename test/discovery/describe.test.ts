/** `describe` (what `mcpx__describe` answers): full schemas as MCP Tool definitions, or TypeScript that compiles. */
import { describe, expect, it } from "vitest";
import { describe as describeTools } from "../../src/discovery/describe.js";
import { discoveryName, type ToolRecord } from "../../src/discovery/records.js";
import { validateDefinition } from "../helpers/spec-validator.js";
import { compile } from "../helpers/typescript-compiler.js";

const TOOLS: ToolRecord[] = [
  {
    server: "files",
    tool: "read-file",
    name: discoveryName("files", "read-file"),
    title: "Read a file",
    description: "Reads a file. */ Carefully.",
    inputSchema: { type: "object", properties: { path: { type: "string", description: "Where." } }, required: ["path"] },
    outputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    annotations: { readOnlyHint: true },
  },
  { server: "git", tool: "status", name: discoveryName("git", "status"), description: "Shows the working tree status." },
];

describe("describe", () => {
  it("gives each tool's full schemas as an MCP Tool named SERVER__TOOL, valid by the spec's schema", () => {
    const answer = describeTools(TOOLS, "schema");
    const tools = answer.tools as Array<Record<string, unknown>>;
    expect(tools.map((tool) => tool.name)).toEqual(["files__read-file", "git__status"]);
    expect(tools[0]).toEqual({
      name: "files__read-file",
      title: "Read a file",
      description: "Reads a file. */ Carefully.",
      inputSchema: TOOLS[0]!.inputSchema,
      outputSchema: TOOLS[0]!.outputSchema,
      annotations: { readOnlyHint: true },
    });
    expect(tools[1]!.inputSchema).toEqual({ type: "object" });
    for (const revision of ["2025-06-18", "2025-11-25"] as const) {
      for (const tool of tools) expect(validateDefinition(revision, "Tool", tool).errors).toEqual([]);
    }
  });

  it("gives TypeScript that compiles, with the output schema typing the result", () => {
    const text = describeTools(TOOLS, "typescript", { serverDescriptions: { git: "Git, locally." } });
    expect(text).toContain('"read-file"(args: {');
    expect(text).toContain("Promise<ToolResult<{ text: string }>>");
    expect(text).toContain("/** Git, locally. */\nexport interface git {");
    expect(compile({ "describe.ts": text }).errors).toEqual([]);
  });
});

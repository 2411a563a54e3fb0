/** `signature`: one line per tool, bounded, with the parameters an agent must pass first. */
import { describe, expect, it } from "vitest";
import { discoveryName, type ToolRecord } from "../../src/discovery/records.js";
import { signature } from "../../src/discovery/signature.js";
import { liveMcpTools, TOOL_SEARCH_DATA } from "../helpers/tool-search-data.js";

function tool(inputSchema: Record<string, unknown> | undefined, description = "Does a thing. Then more.", name = "do_thing"): ToolRecord {
  return { server: "srv", tool: name, name: discoveryName("srv", name), description, ...(inputSchema ? { inputSchema } : {}) };
}

/** Bound on everything after the name: parameters (120) and summary (100), with their punctuation. */
const BOUND_AFTER_NAME = 240;

describe("signature", () => {
  it("names the tool as discovery does, its parameters with short types, and the first sentence", () => {
    const line = signature(
      tool({
        type: "object",
        properties: { limit: { type: "integer" }, path: { type: "string" }, mode: { enum: ["a", "b"] }, tags: { type: "array", items: { type: "string" } } },
        required: ["path"],
      }),
    );
    expect(line).toBe('srv__do_thing(path: string, limit?: number, mode?: "a"|"b", tags?: string[]) — Does a thing.');
  });

  it("summarises nested objects, long enums, unions and missing schemas", () => {
    const line = signature(
      tool({
        type: "object",
        properties: {
          where: { type: "object", properties: { deep: { type: "object", properties: { deeper: { type: "string" } } } } },
          colour: { type: "string", enum: ["red", "green", "blue", "cyan", "magenta"] },
          either: { anyOf: [{ type: "string" }, { type: "null" }] },
          loose: {},
        },
        required: ["where"],
      }),
    );
    expect(line).toBe("srv__do_thing(where: {…}, colour?: string, either?: string|null, loose?: any) — Does a thing.");
    expect(signature(tool(undefined, "No schema."))).toBe("srv__do_thing() — No schema.");
    const refs = {
      type: "object",
      properties: { item: { $ref: "#/$defs/Item" }, kind: { $ref: "#/$defs/Kind" }, self: { $ref: "#" }, away: { $ref: "https://x/y" } },
      required: ["item"],
      $defs: { Item: { type: "object", properties: { id: { type: "string" } } }, Kind: { enum: ["a", "b"] } },
    };
    expect(signature(tool(refs, "Refs."))).toBe('srv__do_thing(item: {…}, kind?: "a"|"b", self?: {…}, away?: any) — Refs.');
    expect(signature(tool(undefined, "Finds files, e.g. logs, etc. and more. Then stops."))).toBe("srv__do_thing() — Finds files, e.g. logs, etc. and more.");
    expect(signature(tool(undefined, "适用场景： 1. 查询 2. 列出。后面"))).toBe("srv__do_thing() — 适用场景： 1. 查询 2. 列出。");
  });

  it("never holds a newline or control character, whatever the upstream wrote", () => {
    const line = signature(
      tool(
        { type: "object", properties: { "a\nb": { const: "x\r\ny" }, c: { enum: ["p\u2028q"] } } },
        "First\u2028line\r\nsecond line\u0007. Another.",
        "weird\nname",
      ),
    );
    expect([...line].filter((char) => char.codePointAt(0)! < 0x20 || char === "\u2028" || char === "\u2029")).toEqual([]);
    expect(line).toContain("First line second line.");
  });

  it("stays bounded: parameters past the bound become …, required ones kept first, long sentences cut", () => {
    const properties = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`parameter_number_${i}`, { type: "string" }]));
    const line = signature(tool({ type: "object", properties, required: ["parameter_number_39"] }, `${"word ".repeat(200)}end.`));
    expect(line.length - "srv__do_thing".length).toBeLessThanOrEqual(BOUND_AFTER_NAME);
    expect(line).toMatch(/^srv__do_thing\(parameter_number_39: string, parameter_number_0\?: string, .*, …\) — (word )+word…$/);
  });

  it.skipIf(!TOOL_SEARCH_DATA)("holds for all 527 LiveMCPTool tools", () => {
    const tools = liveMcpTools().map((row) => ({ ...row, name: discoveryName(row.server, row.tool) }));
    expect(tools).toHaveLength(527);
    const bad = tools
      .map((row) => ({ row, line: signature(row) }))
      .filter(({ row, line }) => /[\n\r\u2028\u2029]/u.test(line) || line.length - row.name.length > BOUND_AFTER_NAME);
    expect(bad).toEqual([]);
  });
});

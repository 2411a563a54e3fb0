/**
 * `declarations` on the schemas upstreams really send and the ones they could: every case
 * compiles under strict, and the arguments (and structured results) it declares accept the
 * values the schema allows and reject ones it forbids (`@ts-expect-error` makes a rejection
 * that does not happen an error too). One compile for the whole table.
 */
import { describe, expect, it } from "vitest";
import type { JsonObject } from "../../src/protocol/jsonrpc.js";
import { discoveryName, type ToolRecord } from "../../src/discovery/records.js";
import { declarations, HOW_TO_CALL, typeDeclarations } from "../../src/discovery/typescript.js";
import { compile } from "../helpers/typescript-compiler.js";

interface Case {
  name: string;
  inputSchema?: JsonObject | boolean;
  outputSchema?: JsonObject;
  /** Other tools declared beside the one checked (name collisions). */
  beside?: Array<{ server: string; tool: string }>;
  server?: string;
  tool?: string;
  description?: string;
  accepts?: unknown[];
  rejects?: unknown[];
  /** Values of the structured result. */
  resultAccepts?: unknown[];
  resultRejects?: unknown[];
}

const obj = (properties: JsonObject, required: string[] = [], extra: JsonObject = {}): JsonObject => ({ type: "object", properties, required, ...extra });

const CASES: Case[] = [
  {
    name: "plain properties",
    inputSchema: obj({ path: { type: "string" }, limit: { type: "integer" } }, ["path"]),
    accepts: [{ path: "a" }, { path: "a", limit: 2 }],
    rejects: [{}, { path: 1 }, { path: "a", limit: "2" }],
  },
  {
    name: "server and tool names with dashes, dots, spaces, unicode",
    server: "my-server.v2 ü",
    tool: "get.item now-ñ 日本",
    inputSchema: obj({ "key-with-dash": { type: "string" }, 日本語: { type: "number" } }, ["key-with-dash"]),
    accepts: [{ "key-with-dash": "x", 日本語: 1 }],
    rejects: [{ 日本語: 1 }],
  },
  {
    name: "reserved words as server, tool and property names",
    server: "class",
    tool: "delete",
    inputSchema: obj({ default: { type: "string" }, new: { type: "boolean" }, constructor: { type: "number" }, __proto__x: { type: "string" } }, ["default"]),
    accepts: [{ default: "d", new: true, constructor: 1 }],
    rejects: [{ new: true }],
  },
  {
    name: "a tool called new, a server called string",
    server: "string",
    tool: "new",
    inputSchema: obj({ a: { type: "string" } }),
    accepts: [{ a: "x" }, undefined],
    rejects: [{ a: 1 }],
  },
  {
    name: "servers whose names collide with each other and with the output's own names",
    server: "a-b",
    tool: "t",
    beside: [
      { server: "a_b", tool: "t" },
      { server: "ToolResult", tool: "t" },
      { server: "Promise", tool: "t" },
      { server: "a_b_2", tool: "t" },
    ],
    inputSchema: obj({ x: { type: "number" } }, ["x"]),
    accepts: [{ x: 1 }],
    rejects: [{ x: "1" }],
  },
  {
    name: "*/ and control characters in descriptions",
    description: "Ends a comment */ early?\r\nline two\u2028line three\u0007 /* nested",
    inputSchema: obj({ a: { type: "string", description: "no */ escape", default: "*/" } }),
    accepts: [{ a: "x" }],
    rejects: [{ a: 2 }],
  },
  {
    name: "property keys with quotes, backslashes and newlines",
    inputSchema: obj({ 'a"b': { type: "string" }, "c\\d": { type: "number" }, "e\nf": { type: "boolean" } }, ['a"b']),
    accepts: [{ 'a"b': "x", "c\\d": 1, "e\nf": true }],
    rejects: [{ "c\\d": 1 }],
  },
  {
    name: "$ref into $defs",
    inputSchema: { ...obj({ item: { $ref: "#/$defs/Item" } }, ["item"]), $defs: { Item: obj({ id: { type: "string" } }, ["id"]) } },
    accepts: [{ item: { id: "x" } }],
    rejects: [{ item: { id: 1 } }, { item: {} }],
  },
  {
    name: "$ref into definitions with an escaped pointer",
    inputSchema: { ...obj({ item: { $ref: "#/definitions/a~1b%20c" } }, ["item"]), definitions: { "a/b c": { type: "integer" } } },
    accepts: [{ item: 3 }],
    rejects: [{ item: "3" }],
  },
  {
    name: "recursive $ref (a tree, as zod-to-json-schema writes it)",
    inputSchema: obj(
      {
        data: obj(
          {
            name: { type: "string" },
            children: {
              type: "array",
              items: obj({ name: { type: "string" }, children: { type: "array", items: { $ref: "#/properties/data/properties/children/items" } } }, ["name"]),
            },
          },
          ["name"],
        ),
      },
      ["data"],
    ),
    accepts: [{ data: { name: "r", children: [{ name: "a", children: [{ name: "b" }] }] } }],
    rejects: [{ data: { name: "r", children: [{ name: "a", children: [{ name: 1 }] }] } }],
  },
  {
    name: "$ref to the root",
    inputSchema: obj({ value: { type: "number" }, next: { $ref: "#" } }, ["value"]),
    accepts: [{ value: 1, next: { value: 2, next: { value: 3 } } }],
    rejects: [{ value: 1, next: { value: "2" } }],
  },
  {
    name: "unions that refer to each other",
    inputSchema: {
      ...obj({ x: { $ref: "#/$defs/A" } }, ["x"]),
      $defs: {
        A: { anyOf: [{ $ref: "#/$defs/B" }, { type: "string" }] },
        B: { anyOf: [{ $ref: "#/$defs/A" }, { type: "array", items: { $ref: "#/$defs/A" } }] },
      },
    },
    accepts: [{ x: "s" }, { x: ["s", ["t"]] }],
    rejects: [{ x: 1 }],
  },
  {
    name: "dangling and external $refs",
    inputSchema: obj({ a: { $ref: "#/$defs/Missing" }, b: { $ref: "https://example.com/schema.json" }, c: { $ref: "#anchor" } }),
    accepts: [{ a: 1, b: "x", c: {} }],
  },
  {
    name: "anyOf and oneOf",
    inputSchema: obj({
      a: { anyOf: [{ type: "string" }, { type: "number" }] },
      b: { oneOf: [obj({ kind: { const: "x" } }, ["kind"]), obj({ kind: { const: "y" }, n: { type: "number" } }, ["kind", "n"])] },
    }),
    accepts: [
      { a: "s", b: { kind: "x" } },
      { a: 1, b: { kind: "y", n: 1 } },
    ],
    rejects: [{ a: true }, { b: { kind: "z" } }],
  },
  {
    name: "allOf",
    inputSchema: { allOf: [obj({ a: { type: "string" } }, ["a"]), obj({ b: { type: "number" } }, ["b"])] },
    accepts: [{ a: "x", b: 1 }],
    rejects: [{ a: "x" }],
  },
  {
    name: "allOf beside properties, oneOf of bare requireds",
    inputSchema: { ...obj({ a: { type: "string" }, b: { type: "string" } }), oneOf: [{ required: ["a"] }, { required: ["b"] }] },
    accepts: [{ a: "x" }],
  },
  {
    name: "enums of strings, numbers, null and mixed",
    inputSchema: obj({ s: { type: "string", enum: ["a", "b"] }, n: { enum: [1, -2, 3.5] }, m: { enum: ["x", 1, null, true] }, none: { enum: [] } }),
    accepts: [{ s: "a", n: -2, m: null }, { m: true }],
    rejects: [{ s: "c" }, { n: 4 }, { m: "y" }, { none: "a" }],
  },
  {
    name: "const",
    inputSchema: obj({ k: { const: "fixed" }, o: { const: { a: 1 } } }, ["k"]),
    accepts: [{ k: "fixed", o: { a: 1 } }],
    rejects: [{ k: "other" }],
  },
  {
    name: "nullable types (type arrays, OpenAPI nullable, anyOf null)",
    inputSchema: obj({
      a: { type: ["string", "null"] },
      b: { type: "integer", nullable: true },
      c: { anyOf: [{ type: "number" }, { not: {} }, { type: "null" }] },
    }),
    accepts: [
      { a: null, b: null, c: null },
      { a: "s", b: 1, c: 2 },
    ],
    rejects: [{ a: 1 }, { c: "x" }],
  },
  {
    name: "arrays, tuples (items array and prefixItems), nested",
    inputSchema: obj({
      list: { type: "array", items: { type: "string" } },
      any: { type: "array" },
      pair: { type: "array", items: [{ type: "string" }, { type: "number" }], minItems: 2, additionalItems: false },
      open: { type: "array", prefixItems: [{ type: "boolean" }] },
      grid: { type: "array", items: { type: "array", items: { type: ["number", "string"] } } },
    }),
    accepts: [{ list: ["a"], any: [1, "x"], pair: ["a", 1], open: [], grid: [[1, "a"]] }, { open: [true, "extra"] }],
    rejects: [{ list: [1] }, { pair: [1, "a"] }, { pair: ["a", 1, 2] }, { open: ["x"] }, { grid: [[true]] }],
  },
  {
    name: "additionalProperties beside properties",
    inputSchema: obj({ a: { type: "string" } }, [], { additionalProperties: { type: "number" } }),
    accepts: [{ a: "x", b: 1 }, { b: 2 }],
    rejects: [{ b: true }],
  },
  {
    name: "additionalProperties alone, false, true",
    inputSchema: obj({
      m: { type: "object", additionalProperties: { type: "boolean" } },
      closed: { type: "object", properties: {}, additionalProperties: false },
      free: { type: "object", additionalProperties: true },
    }),
    accepts: [{ m: { x: true }, closed: {}, free: { y: 1 } }],
    rejects: [{ m: { x: 1 } }],
  },
  {
    name: "patternProperties",
    inputSchema: obj({ p: { type: "object", patternProperties: { "^S_": { type: "string" }, "^N_": { type: "number" } }, additionalProperties: false } }),
    accepts: [{ p: { S_a: "x", N_b: 1 } }],
    rejects: [{ p: { S_a: true } }],
  },
  {
    name: "required names a property it does not describe",
    inputSchema: obj({ a: { type: "string" } }, ["a", "ghost"]),
    accepts: [{ a: "x", ghost: 1 }],
    rejects: [{ a: "x" }],
  },
  { name: "no inputSchema at all", inputSchema: undefined, accepts: [undefined, { anything: 1 }] },
  { name: "an empty object schema (no arguments)", inputSchema: { type: "object", properties: {} }, accepts: [undefined, {}] },
  { name: "a non-object root schema", inputSchema: { type: "string" }, accepts: ["x"], rejects: [1] },
  { name: "boolean schemas", inputSchema: obj({ yes: true, no: false }), accepts: [{ yes: { any: 1 } }], rejects: [{ no: 1 }] },
  {
    name: "unknown type names and garbage keywords",
    inputSchema: obj({ a: { type: "frobnicate" }, b: { type: 42 }, c: { items: 7 }, d: { properties: [1, 2] }, e: "not a schema" }),
    accepts: [{ a: 1, b: "x", c: [1], d: {}, e: null }],
  },
  {
    name: "a schema nested 200 deep",
    inputSchema: (() => {
      let node: JsonObject = { type: "string" };
      for (let i = 0; i < 200; i++) node = obj({ n: node });
      return node;
    })(),
    accepts: [{ n: { n: {} } }],
  },
  {
    name: "defaults, formats and bounds in doc comments",
    inputSchema: obj({
      n: { type: "integer", minimum: 1, maximum: 100, default: 10, description: "How many." },
      when: { type: "string", format: "date-time", pattern: "^\\d{4}" },
    }),
    accepts: [{ n: 5, when: "2026" }],
  },
  {
    name: "an outputSchema types the structured result",
    inputSchema: obj({}),
    outputSchema: obj({ count: { type: "integer" }, items: { type: "array", items: { $ref: "#/$defs/Item" } } }, ["count"], {
      $defs: { Item: obj({ id: { type: "string" } }, ["id"]) },
    }),
    accepts: [{}],
    resultAccepts: [{ count: 1, items: [{ id: "a" }] }],
    resultRejects: [{ count: "1" }, { count: 1, items: [{}] }],
  },
];

function record(server: string, tool: string, schema: JsonObject | boolean | undefined, extra: Partial<ToolRecord> = {}): ToolRecord {
  return {
    server,
    tool,
    name: discoveryName(server, tool),
    description: `The ${tool} tool.`,
    ...(schema === undefined ? {} : { inputSchema: schema as JsonObject }),
    ...extra,
  };
}

function literal(value: unknown): string {
  return value === undefined ? "undefined" : JSON.stringify(value);
}

describe("declarations of edge-case schemas", () => {
  const files: Record<string, string> = {};
  CASES.forEach((testCase, i) => {
    const server = testCase.server ?? "srv";
    const tool = testCase.tool ?? "tool";
    const checked = record(server, tool, testCase.inputSchema, {
      ...(testCase.description !== undefined ? { description: testCase.description } : {}),
      ...(testCase.outputSchema ? { outputSchema: testCase.outputSchema } : {}),
    });
    const beside = (testCase.beside ?? []).map((other) => record(other.server, other.tool, { type: "object" }));
    const { text, interfaces } = typeDeclarations([checked, ...beside], { serverDescriptions: { [server]: "A server */ that ends comments." } });
    files[`case${i}.ts`] = text;
    const access = `T.${interfaces.get(server)}[${JSON.stringify(tool)}]`;
    const lines = [
      `import type * as T from "./case${i}";`,
      `type Args = Parameters<${access}>[0];`,
      `type Out = NonNullable<Awaited<ReturnType<${access}>>["structuredContent"]>;`,
    ];
    const declare = (values: unknown[] | undefined, type: string, name: string, rejected: boolean): void => {
      for (const [j, value] of (values ?? []).entries()) {
        if (rejected) lines.push("// @ts-expect-error the schema forbids it");
        lines.push(`export const ${name}${j}: ${type} = ${literal(value)};`);
      }
    };
    declare(testCase.accepts, "Args", "accept", false);
    declare(testCase.rejects, "Args", "reject", true);
    declare(testCase.resultAccepts, "Out", "out", false);
    declare(testCase.resultRejects, "Out", "badOut", true);
    files[`check${i}.ts`] = `${lines.join("\n")}\n`;
  });

  it("each compiles, accepting what its schema allows and rejecting what it forbids", () => {
    const errors = compile(files).errors.map((error) => {
      const index = Number(/^(?:case|check)(\d+)/.exec(error)?.[1]);
      return `[${CASES[index]?.name}] ${error}`;
    });
    expect(errors).toEqual([]);
  }, 30_000);

  it("keeps upstream text from ending a comment, and one-line descriptions on one line", () => {
    const text = declarations([record("srv", "tool", obj({ a: { type: "string", description: "x */ y" } }), { description: "Ends */ here\nand /* there" })]);
    expect(text).not.toMatch(/\*\/ (y|here)/);
    expect(text).toContain("x *\\/ y");
    expect(text).toContain("/** x *\\/ y */");
    expect(text).toContain(" * Ends *\\/ here\n");
  });

  it("names a server's interface after the server, and says the server's name when it had to change it", () => {
    const text = declarations([record("git", "status", obj({})), record("12306-mcp", "get-tickets", obj({}))]);
    expect(text).toContain("export interface git {");
    expect(text).toContain('/** Server "12306-mcp". */\nexport interface _12306_mcp {');
    expect(text).toContain('  "get-tickets"(args?: {}): Promise<ToolResult>;');
  });

  it("names servers without an ASCII letter server, server_2, …, with their names in the comment", () => {
    const text = declarations([record("天气", "查询", obj({})), record("股票", "查询", obj({}))]);
    expect(text).toContain('/** Server "天气". */\nexport interface server {\n');
    expect(text).toContain('/** Server "股票". */\nexport interface server_2 {\n');
    expect(text).toContain('  "查询"(args?: {}): Promise<ToolResult>;');
    expect(compile({ "cjk.ts": text }).errors).toEqual([]);
  });

  it("opens with how to call the tools, on one comment line, as the caller words it", () => {
    const tools = [record("git", "status", obj({}))];
    expect(declarations(tools).split("\n")[0]).toBe(`// ${HOW_TO_CALL}`);
    const custom = declarations(tools, { howToCall: "Use mcpx__call\n{name, arguments}" });
    expect(custom.split("\n")[0]).toBe("// Use mcpx__call {name, arguments}");
    expect(compile({ "custom.ts": custom }).errors).toEqual([]);
    expect(declarations(tools, { howToCall: "" }).startsWith("/** What a tool call returns")).toBe(true);
  });
});

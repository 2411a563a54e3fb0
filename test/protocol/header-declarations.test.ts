/** `x-mcp-header` declarations a 2026-07-28 client must reject (SEP-2243), and those it keeps. */
import { describe, expect, it } from "vitest";
import { headerDeclarationProblem } from "../../src/protocol/modern-headers.js";

const schema = (properties: object): object => ({ type: "object", properties });

describe("x-mcp-header declarations", () => {
  it("are fine on string, integer and boolean properties, nested ones included, and when absent", () => {
    expect(headerDeclarationProblem(schema({ region: { type: "string", "x-mcp-header": "Region" } }))).toBeUndefined();
    expect(
      headerDeclarationProblem(
        schema({
          count: { type: "integer", "x-mcp-header": "Count" },
          deep: { type: "object", properties: { flag: { type: "boolean", "x-mcp-header": "Flag" } } },
        }),
      ),
    ).toBeUndefined();
    expect(headerDeclarationProblem(schema({ plain: { type: "number" } }))).toBeUndefined();
    expect(headerDeclarationProblem(undefined)).toBeUndefined();
  });

  it.each([
    ["empty", schema({ value: { type: "string", "x-mcp-header": "" } }), "is not a header name"],
    ["not a string", schema({ value: { type: "string", "x-mcp-header": 7 } }), "is not a header name"],
    ["a space", schema({ value: { type: "string", "x-mcp-header": "My Region" } }), "is not a header name"],
    ["a colon", schema({ value: { type: "string", "x-mcp-header": "Region:Primary" } }), "is not a header name"],
    ["non-ASCII", schema({ value: { type: "string", "x-mcp-header": "Région" } }), "is not a header name"],
    ["a control character", schema({ value: { type: "string", "x-mcp-header": "Region\t1" } }), "is not a header name"],
    ["declared twice", schema({ a: { type: "string", "x-mcp-header": "Zone" }, b: { type: "string", "x-mcp-header": "Zone" } }), "declared twice"],
    [
      "declared twice in another case",
      schema({ a: { type: "string", "x-mcp-header": "MyField" }, b: { type: "string", "x-mcp-header": "myfield" } }),
      "declared twice",
    ],
    [
      "twice across nesting",
      schema({ a: { type: "string", "x-mcp-header": "Zone" }, o: { type: "object", properties: { b: { type: "string", "x-mcp-header": "ZONE" } } } }),
      "declared twice",
    ],
    ["on a number", schema({ score: { type: "number", "x-mcp-header": "Score" } }), 'type "number"'],
    ["on an object", schema({ data: { type: "object", "x-mcp-header": "Data" } }), 'type "object"'],
    ["on an array", schema({ items: { type: "array", items: { type: "string" }, "x-mcp-header": "Items" } }), 'type "array"'],
    ["on null", schema({ nil: { type: "null", "x-mcp-header": "Nil" } }), 'type "null"'],
    ["on a property without a type", schema({ any: { "x-mcp-header": "Any" } }), "type null"],
  ])("are refused when %s", (_, inputSchema, why) => {
    expect(headerDeclarationProblem(inputSchema)).toContain(why);
  });
});

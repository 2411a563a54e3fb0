import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/config/errors.js";
import { parseJsonc } from "../../src/config/jsonc.js";
import { orderedEntries } from "../../src/config/ordered.js";

/** The ConfigError message parseJsonc throws for `text`. */
function syntaxError(text: string): string {
  try {
    parseJsonc(text, "f.json");
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).message;
  }
  throw new Error("expected a syntax error");
}

describe("parseJsonc", () => {
  it("parses plain JSON exactly as JSON.parse does", () => {
    const text = '{"a": [1, -2.5e3, true, false, null, "x\\n\\u00e9\\"y"], "b": {"c": {}}, "d": []}';
    expect(parseJsonc(text, "f.json")).toEqual(JSON.parse(text));
  });

  it("accepts line and block comments", () => {
    const text = `// leading
    {
      /* block
         over lines */ "a": 1, // trailing
      "b": /* inline */ 2
    } // after`;
    expect(parseJsonc(text, "f.json")).toEqual({ a: 1, b: 2 });
  });

  it("accepts trailing commas in objects and arrays", () => {
    expect(parseJsonc('{ "a": [1, 2, ], "b": { "c": 3, }, }', "f.json")).toEqual({ a: [1, 2], b: { c: 3 } });
  });

  it("never treats comment markers inside strings as comments", () => {
    const text = '{ "url": "http://host/mcp", "c": "/* not a comment */", "q": "say \\"//hi\\"", "bs": "\\\\" // real\n }';
    expect(parseJsonc(text, "f.json")).toEqual({
      url: "http://host/mcp",
      c: "/* not a comment */",
      q: 'say "//hi"',
      bs: "\\",
    });
  });

  it("keeps a trailing comma inside a string as text", () => {
    expect(parseJsonc('["a,]", "b,}",]', "f.json")).toEqual(["a,]", "b,}"]);
  });

  it("reports a syntax error with file, line and column", () => {
    expect(syntaxError('{\n  "a": 1\n  "b": 2\n}')).toBe(`f.json:3:3: unexpected "\\""; expected ',' or '}'`);
    expect(syntaxError('{\n  "a": ,\n}')).toBe('f.json:2:8: unexpected ","; expected a value');
    expect(syntaxError("{ a: 1 }")).toBe('f.json:1:3: unexpected "a"; expected a "quoted" key');
  });

  it("counts columns after comments that contain quotes", () => {
    expect(syntaxError('// "quoted"\n/* " */ { "a": tru }')).toMatch(/^f\.json:2:16: /);
  });

  it("reports unterminated strings and comments where they start", () => {
    expect(syntaxError('{\n  "a": "open\n}')).toBe("f.json:2:13: line break inside a string");
    expect(syntaxError('{ "a": "open')).toBe("f.json:1:8: unterminated string");
    expect(syntaxError('{ "a": 1 }\n  /* never closed')).toBe("f.json:2:3: unterminated /* comment");
  });

  it("rejects invalid escapes, leading commas and content after the document", () => {
    expect(syntaxError('{ "a": "\\x" }')).toBe("f.json:1:9: invalid escape sequence in string");
    expect(syntaxError("[,]")).toBe('f.json:1:2: unexpected ","; expected a value');
    expect(syntaxError("{} {}")).toBe('f.json:1:4: unexpected "{" after the end of the document');
    expect(syntaxError("[01]")).toBe("f.json:1:3: unexpected \"1\"; expected ',' or ']'");
  });

  it("rejects an empty file", () => {
    expect(syntaxError("  // nothing here\n")).toBe("f.json:2:1: the file is empty; expected a JSON object");
  });

  it("rejects duplicate keys at the second occurrence", () => {
    expect(syntaxError('{\n "files": {},\n "files": {}\n}')).toBe('f.json:3:2: duplicate key "files"');
  });

  it("keeps written key order, even for integer-like keys", () => {
    const obj = parseJsonc('{ "zeta": 1, "10": 2, "alpha": 3, "2": 4 }', "f.json") as object;
    expect(orderedEntries(obj).map(([k]) => k)).toEqual(["zeta", "10", "alpha", "2"]);
  });

  it("keeps a __proto__ key as data", () => {
    const obj = parseJsonc('{ "__proto__": { "polluted": true } }', "f.json") as Record<string, unknown>;
    expect(Object.keys(obj)).toEqual(["__proto__"]);
    expect((obj as { polluted?: boolean }).polluted).toBeUndefined();
  });

  it("ignores a byte-order mark", () => {
    expect(parseJsonc('\uFEFF{"a": 1}', "f.json")).toEqual({ a: 1 });
  });

  it("stops absurd nesting with a message instead of a stack overflow", () => {
    expect(syntaxError("[".repeat(10_000))).toMatch(/^f\.json:1:\d+: nested too deeply$/);
  });
});

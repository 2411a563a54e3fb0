/**
 * `inert`, `inertLines` and `inertJson`: upstream text printed to a terminal shows every
 * control character (C0, DEL, C1, bidi controls, line separators) as an escape; multi-line
 * text keeps its lines but indents every continuation; JSON stays the same JSON value.
 */
import { describe, expect, it } from "vitest";
import { inert, inertJson, inertLines } from "../../src/cli/inert.js";

describe("inert", () => {
  it.each<[string, string, string]>([
    ["plain text", "Hello, wörld 密码 🙂", "Hello, wörld 密码 🙂"],
    ["ESC (clear screen)", "a\x1b[2Jb", "a\\x1b[2Jb"],
    ["OSC title with BEL", "\x1b]0;pwned\x07", "\\x1b]0;pwned\\x07"],
    ["OSC 8 link with ST", "\x1b]8;;https://evil.example\x1b\\x\x1b]8;;\x1b\\", "\\x1b]8;;https://evil.example\\x1b\\x\\x1b]8;;\\x1b\\"],
    ["carriage return", "ok\rmcpx: fake", "ok\\rmcpx: fake"],
    ["newline", "one\nmcpx: fake", "one\\nmcpx: fake"],
    ["tab", "a\tb", "a\\tb"],
    ["NUL and backspace", "\x00\x08", "\\x00\\x08"],
    ["DEL", "\x7f", "\\x7f"],
    ["C1 CSI (0x9b) and NEL (0x85)", "\x9b31m\x85", "\\x9b31m\\x85"],
    ["bidi override and pop", "\u202eevil\u202c", "\\u202eevil\\u202c"],
    ["bidi embeddings", "\u202a\u202b\u202d", "\\u202a\\u202b\\u202d"],
    ["bidi isolates", "\u2066\u2067\u2068\u2069", "\\u2066\\u2067\\u2068\\u2069"],
    ["bidi marks", "\u200e\u200f\u061c", "\\u200e\\u200f\\u061c"],
    ["line and paragraph separators", "\u2028\u2029", "\\u2028\\u2029"],
  ])("%s", (_what, text, shown) => {
    expect(inert(text)).toBe(shown);
  });

  it("takes any value", () => {
    expect(inert(42)).toBe("42");
  });
});

describe("inertLines", () => {
  it("keeps lines, indenting every continuation so none can pass for mcpx's own", () => {
    expect(inertLines("first\nmcpx: fake\r\nthird", "    ")).toBe("first\n    mcpx: fake\n    third");
  });

  it("still shows a lone CR and other controls", () => {
    expect(inertLines("a\rmcpx: b\n\x1b[1A", "  ")).toBe("a\\rmcpx: b\n  \\x1b[1A");
  });
});

describe("inertJson", () => {
  it("escapes what JSON.stringify leaves raw, and it is the same JSON", () => {
    const value = { message: "\x1b[2J \x9b \u202e \u2028 \x7f", list: ["\u2066"] };
    const text = inertJson(JSON.stringify(value, null, 2));
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]/u);
    expect(text).toContain("\\u009b");
    expect(text).toContain("\\u202e");
    expect(JSON.parse(text)).toEqual(value);
  });
});

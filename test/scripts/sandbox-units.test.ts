/**
 * The sandbox's pure parts: the main thread's check of what a worker sends, an onElicit answer's
 * shape, the output cap and its marker, and the script's line read off a QuickJS stack.
 */
import { describe, expect, it } from "vitest";
import { answerOf } from "../../src/scripts/sandbox/answer.js";
import { CappedText, cutToBytes } from "../../src/scripts/sandbox/capped-text.js";
import { failureOf, lineOf } from "../../src/scripts/sandbox/failure.js";
import { fromWorker } from "../../src/scripts/sandbox/messages.js";

describe("what the main thread takes from a worker", () => {
  it("takes messages of exactly the expected shape and copies only their known fields", () => {
    const call = fromWorker({ type: "call", id: 3, server: "s", tool: "t", args: "{}", extra: { evil: true } });
    expect(call).toEqual({ type: "call", id: 3, server: "s", tool: "t", args: "{}" });
    expect(fromWorker({ type: "done", dropped: [0, 5], value: "1", failure: { kind: "thrown", message: "m", line: 2, more: 1 } })).toEqual({
      type: "done",
      dropped: [0, 5],
      value: "1",
      failure: { kind: "thrown", message: "m", line: 2 },
    });
  });

  it("refuses anything else", () => {
    const junk: unknown[] = [
      null,
      "call",
      [],
      { type: "eval", code: "process.exit()" },
      { type: "call", id: -1, server: "s", tool: "t", args: "{}" },
      { type: "call", id: 1, server: "s", tool: "t", args: {} },
      { type: "call", id: 1.5, server: "s", tool: "t", args: "{}" },
      { type: "print", stream: 3, text: "x" },
      { type: "print", stream: 1, text: { toString: () => "x" } },
      { type: "done", dropped: [0] },
      { type: "done", dropped: [0, 0], failure: { kind: "root", message: "m" } },
      { type: "done", dropped: [0, 0], value: { not: "a string" } },
      { type: "answer", id: 1, answer: { action: "accept" } },
    ];
    for (const data of junk) expect(fromWorker(data)).toBeUndefined();
  });
});

describe("an onElicit answer", () => {
  it("is {action, content} with content of primitives and string arrays (accept only)", () => {
    expect(answerOf('{"action":"accept","content":{"a":"x","b":1,"c":true,"d":["p"]}}')).toEqual({
      action: "accept",
      content: { a: "x", b: 1, c: true, d: ["p"] },
    });
    expect(answerOf('{"action":"accept"}')).toEqual({ action: "accept" });
    expect(answerOf('{"action":"cancel","content":{"a":1}}')).toEqual({ action: "cancel" });
  });

  it("is nothing when it is anything else", () => {
    for (const json of [
      undefined,
      "not json",
      "null",
      '"accept"',
      '{"action":"yes"}',
      '{"action":"accept","content":{"a":{"b":1}}}',
      '{"action":"accept","content":{"a":[1]}}',
    ]) {
      expect(answerOf(json)).toBeUndefined();
    }
    expect(answerOf(JSON.stringify({ action: "accept", content: { a: "x".repeat(300_000) } }))).toBeUndefined();
  });
});

describe("the output cap", () => {
  it("keeps up to the cap in UTF-8 bytes, never cutting a character, and says how much it left out", () => {
    const text = new CappedText(10);
    expect(text.add("héllo\n")).toBe("héllo\n");
    expect(text.add("wörld€\n")).toBe("wö");
    text.leaveOut(1_000_000);
    expect(text.text()).toBe("héllo\nwö\n… 1,000,007 more bytes left out\n");
    expect(cutToBytes("€€", 5)).toBe("€");
    expect(cutToBytes("😀x", 3)).toBe("");
  });

  it("adds no marker when nothing was left out", () => {
    const text = new CappedText(100);
    text.add("all of it\n");
    expect(text.text()).toBe("all of it\n");
  });
});

describe("a failure's line", () => {
  it("is the first frame in the script's file", () => {
    const stack = "    at toolFunction (<mcpx>:70:5)\n    at f (script.ts:3:30)\n    at <anonymous> (script.ts:4:2)\n";
    expect(lineOf(stack, "script.ts")).toBe(3);
    expect(lineOf("    at script.ts:7:1\n", "script.ts")).toBe(7);
    expect(lineOf("    at <mcpx>:1:1\n", "script.ts")).toBeUndefined();
  });

  it("prefers where a tool's call was made, for a ToolError", () => {
    const failure = failureOf(
      {
        name: "ToolError",
        message: "s.t: no",
        stack: "    at <anonymous> (<mcpx>:80:7)\n",
        callSite: "    at <anonymous> (<mcpx>:76:23)\n    at <anonymous> (script.ts:5:9)\n",
        server: "s",
        tool: "t",
      },
      "script.ts",
      64 * 1024 * 1024,
    );
    expect(failure).toEqual({ kind: "thrown", message: "no", server: "s", tool: "t", line: 5 });
  });
});

/**
 * What a script sees and how it ends (issue 15 items 1-3): the servers as globals calling a real
 * MCP server, structured results, tool errors as ToolError, console kept apart by stream, JSON
 * printing, the returned value, TypeScript stripped with its lines kept, errors by the script's
 * own line, timers.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runScript, type ScriptTools, scriptTools, SERVER } from "./sandbox-peer.js";

let tools: ScriptTools;
beforeAll(async () => {
  tools = await scriptTools();
});
afterAll(async () => {
  await tools.close();
});

describe("a script's tools", () => {
  it("calls a tool and gets its content blocks; a tool with an outputSchema returns its structured content", async () => {
    const envelope = await runScript(
      tools,
      `const echoed = await script_tools.echo({ word: "hi" });
console.log(textOf(echoed));
const record = await script_tools.lookup({ id: 7 });
return record.name;`,
    );
    expect(envelope.error).toBeUndefined();
    expect(envelope).toMatchObject({ ok: true, output: '{"word":"hi"}\n', stderr: "", value: "record 7" });
    expect(envelope.calls.map(({ server, tool, outcome }) => ({ server, tool, outcome }))).toEqual([
      { server: SERVER, tool: "echo", outcome: "ok" },
      { server: SERVER, tool: "lookup", outcome: "ok" },
    ]);
  });

  it("reaches a tool whose name is not an identifier by its name made one", async () => {
    const envelope = await runScript(tools, "return textOf(await script_tools.get_file());");
    expect(envelope).toMatchObject({ ok: true, value: "file body" });
    expect(tools.received.at(-1)).toMatchObject({ tool: "get-file", args: {} });
  });

  it("throws a ToolError with server, tool and the upstream's message for an error result, and one the script can catch", async () => {
    const caught = await runScript(
      tools,
      `try { await script_tools.fail({}); } catch (error) {
  return { isToolError: error instanceof ToolError, server: error.server, tool: error.tool, message: error.message };
}`,
    );
    expect(caught.value).toEqual({ isToolError: true, server: SERVER, tool: "fail", message: `${SERVER}.fail: no such record` });
    expect(caught.calls[0]).toMatchObject({ tool: "fail", outcome: "tool error" });
  });

  it("fails a run with an uncaught ToolError as thrown, with server, tool and the line of the call", async () => {
    const envelope = await runScript(tools, `console.log("before");\n\nconst r = await script_tools.fail({});\nconsole.log("after");`);
    expect(envelope).toMatchObject({ ok: false, output: "before\n" });
    expect(envelope.error).toEqual({ kind: "thrown", message: "no such record", server: SERVER, tool: "fail", line: 3 });
  });

  it("throws a ToolError with the upstream's message for a call that fails as a request (JSON-RPC error)", async () => {
    const envelope = await runScript(tools, "await script_tools.broken({});");
    expect(envelope.error).toMatchObject({ kind: "thrown", server: SERVER, tool: "broken", line: 1 });
    expect(envelope.error?.message).toContain("broken on purpose");
    expect(envelope.calls[0]).toMatchObject({ tool: "broken", outcome: "failed" });
  });

  it("rejects arguments that are not an object in the script, before any call", async () => {
    const before = tools.received.length;
    const envelope = await runScript(tools, "await script_tools.echo([1, 2]);");
    expect(envelope.error).toMatchObject({ kind: "thrown", line: 1 });
    expect(envelope.error?.message).toContain("must be an object");
    expect(tools.received.length).toBe(before);
  });
});

describe("what a script prints and returns", () => {
  it("keeps log, info and debug as output and error and warn as stderr; objects as JSON, cycles and errors shown", async () => {
    const envelope = await runScript(
      tools,
      `const cyclic: any = { name: "a" }; cyclic.self = cyclic;
console.log("text", 1, { a: [1, 2] }, null, undefined);
console.info(cyclic);
console.debug(new Map([["k", 1]]), new Set([1]), 10n);
console.error(new TypeError("bad"));
console.warn({ error: new Error("inner") });`,
    );
    expect(envelope.output).toBe('text 1 {"a":[1,2]} null undefined\n{"name":"a","self":"[Circular]"}\n{"k":1} [1] "10n"\n');
    expect(envelope.stderr).toBe('TypeError: bad\n{"error":{"name":"Error","message":"inner"}}\n');
    expect(envelope.value).toBeUndefined();
  });

  it("returns what the script returns at the top level, as JSON", async () => {
    const envelope = await runScript(tools, "const rows = [{ a: 1 }, { a: 2 }];\nreturn { count: rows.length, rows };");
    expect(envelope.value).toEqual({ count: 2, rows: [{ a: 1 }, { a: 2 }] });
  });

  it("sees its arguments as args", async () => {
    const envelope = await runScript(tools, "return args;", {}, ["one", "two"]);
    expect(envelope.value).toEqual(["one", "two"]);
  });

  it("runs TypeScript (types stripped) with top-level await, and keeps the script's line numbers", async () => {
    const envelope = await runScript(
      tools,
      `interface Row {
  id: number;
  name: string;
}
type Rows = Row[];
const rows: Rows = [await script_tools.lookup({ id: 1 }) as Row];
enum Colour { Red, Green }
function check(row: Row): void {
  if (row.id === 1) throw new RangeError("row " + row.name + " " + Colour.Green);
}
check(rows[0]!);`,
    );
    expect(envelope.error).toEqual({ kind: "thrown", message: "RangeError: row record 1 1", line: 9 });
  });

  it("reports a syntax error with its line, in TypeScript and in JavaScript", async () => {
    const ts = await runScript(tools, "const a: number = 1;\nconst b = ;\n");
    expect(ts.error).toMatchObject({ kind: "syntax", line: 2 });
    expect(ts.calls).toEqual([]);
    const { startScript } = await import("../../src/scripts/run-script.js");
    const { DEFAULT_SCRIPT_LIMITS } = await import("../../src/scripts/types.js");
    const js = await (
      await startScript({ code: "let x = 1;\n\nlet = = 2;", language: "js", filename: "s.js", args: [] }, tools.servers, tools.caller, DEFAULT_SCRIPT_LIMITS)
    ).done;
    expect(js.error).toMatchObject({ kind: "syntax", line: 3 });
  });

  it("says plainly that a script imports nothing", async () => {
    const envelope = await runScript(tools, `import { readFileSync } from "node:fs";\nconsole.log(readFileSync("/etc/passwd", "utf8"));`);
    expect(envelope.error).toMatchObject({ kind: "syntax", line: 1 });
    expect(envelope.error?.message).toContain("cannot import");
  });

  it("shows a thrown value that is no Error", async () => {
    const envelope = await runScript(tools, "\nthrow { code: 42 };");
    expect(envelope.error).toEqual({ kind: "thrown", message: '{"code":42}' });
  });

  it("has setTimeout and clearTimeout, bounded by the deadline", async () => {
    const envelope = await runScript(
      tools,
      `const order: string[] = [];
const cleared = setTimeout(() => order.push("cleared"), 10);
clearTimeout(cleared);
await new Promise((resolve) => setTimeout(() => { order.push("fired"); resolve(undefined); }, 20));
return order;`,
    );
    expect(envelope.value).toEqual(["fired"]);
    const beyond = await runScript(tools, "await new Promise((resolve) => setTimeout(resolve, 60_000));", { timeoutMs: 1_000 });
    expect(beyond.error).toMatchObject({ kind: "timeout" });
  });

  it("ends at once a script that awaits what nothing can settle, rather than at its deadline", async () => {
    const started = Date.now();
    const envelope = await runScript(tools, "await new Promise(() => {});", { timeoutMs: 20_000 });
    expect(envelope.error?.kind).toBe("thrown");
    expect(envelope.error?.message).toContain("nothing can settle");
    expect(Date.now() - started).toBeLessThan(15_000);
  });
});

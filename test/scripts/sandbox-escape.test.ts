/**
 * Scripts that try to get out (issue 15 item 3): each test fails if the sandbox lets one reach
 * anything but the tools it was given, or lets one stall this process's event loop.
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

describe("a script reaches nothing but its tools", () => {
  it("has no process, require, fetch, sockets, file or OS modules, nor a way to load a module", async () => {
    const envelope = await runScript(
      tools,
      `const names = ["process", "require", "module", "fetch", "XMLHttpRequest", "WebSocket", "Deno", "Bun", "std", "os", "Buffer",
  "setInterval", "setImmediate", "queueMicrotask", "WebAssembly", "Worker", "importScripts", "__call", "__print", "host"];
const present = names.filter((name) => typeof (globalThis as any)[name] !== "undefined");
let imported = "nothing";
try { await import("fs"); imported = "fs"; } catch (error) { imported = String(error); }
let passwd = "unread";
try { passwd = (globalThis as any).std.loadFile("/etc/passwd"); } catch (error) { passwd = "no std"; }
return { present, imported, passwd };`,
    );
    expect(envelope.error).toBeUndefined();
    const value = envelope.value as { present: string[]; imported: string; passwd: string };
    expect(value.present).toEqual([]);
    expect(value.imported).toContain("could not load module");
    expect(value.passwd).toBe("no std");
    expect(envelope.output).not.toContain("root:");
  });

  it("finds nothing more through the Function constructor or constructor.constructor than its own globals", async () => {
    const envelope = await runScript(
      tools,
      `const viaFunction = Function("return this")();
const viaConstructor = (() => {}).constructor.constructor("return globalThis")();
const asyncGlobal = (async () => {}).constructor("return this");
return {
  same: viaFunction === globalThis && viaConstructor === globalThis,
  process: viaConstructor.process === undefined && typeof viaFunction.require === "undefined",
  globals: Object.getOwnPropertyNames(globalThis).filter((name) => !/^[A-Z]/.test(name)).sort(),
  evalProcess: eval("typeof process"),
  asyncType: typeof asyncGlobal,
};`,
    );
    expect(envelope.error).toBeUndefined();
    const value = envelope.value as { same: boolean; process: boolean; globals: string[]; evalProcess: string };
    expect(value.same).toBe(true);
    expect(value.process).toBe(true);
    expect(value.evalProcess).toBe("undefined");
    // The lowercase globals: the language's own, and what the prelude adds; nothing of Node or of the bridge.
    const prelude = ["args", "clearTimeout", "console", "onElicit", "script_tools", "setTimeout", "textOf"];
    const language = [
      "decodeURI",
      "decodeURIComponent",
      "encodeURI",
      "encodeURIComponent",
      "escape",
      "eval",
      "globalThis",
      "isFinite",
      "isNaN",
      "parseFloat",
      "parseInt",
      "undefined",
      "unescape",
    ];
    expect(value.globals.filter((name) => !language.includes(name))).toEqual(prelude);
  });

  it("cannot make the bridge do anything but calls of its own tools with JSON arguments, whatever it overwrites", async () => {
    const before = tools.received.length;
    const envelope = await runScript(
      tools,
      `const original = JSON.stringify;
(Object.prototype as any).server = "evil";
(Object.prototype as any).toJSON = function () { return { injected: true }; };
JSON.stringify = (() => '{"__proto__": {"polluted": true}, "nested": {"constructor": {"prototype": {"x": 1}}}}') as any;
JSON.parse = (() => ({ forged: true })) as any;
(script_tools as any).echo = script_tools.lookup;
const results: unknown[] = [];
for (const attempt of [() => script_tools.echo({ id: 1 }), () => (script_tools as any).nothing?.({})]) {
  try { results.push(await attempt()); } catch (error) { results.push(String(error)); }
}
// A fake "host" object, and a forged tool of a server it was never given.
(globalThis as any).host = { call: () => "forged" };
const made = (script_tools as any).constructor.constructor("return this")();
results.push(typeof made.host.call);
return original(results);`,
    );
    // Whatever it sent went only to a tool it was given, with JSON arguments as the main thread parsed them.
    const calls = tools.received.slice(before);
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls) {
      expect(call.server).toBe(SERVER);
      expect(tools.servers[0]!.tools.map((tool) => tool.tool)).toContain(call.tool);
      expect(Object.getPrototypeOf(call.args)).toBe(Object.prototype);
    }
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty("server");
    expect(envelope.ok).toBe(true);
  });

  it("calls no tool it was not given, whatever server and tool names it sends", async () => {
    const before = tools.received.length;
    const { startScript } = await import("../../src/scripts/run-script.js");
    const { DEFAULT_SCRIPT_LIMITS } = await import("../../src/scripts/types.js");
    // The script is given a server whose tools the caller does not have: "other.secret" must not reach the caller.
    const servers = [...tools.servers, { variable: "other", server: "other", tools: [{ fn: "visible", tool: "visible", structured: false }] }];
    const run = await startScript(
      {
        code: `(other as any).secret = (other as any).visible.bind(null);
try { await other.visible({}); } catch (error) { console.log(String(error)); }`,
        language: "ts",
        filename: "script.ts",
        args: [],
      },
      servers,
      tools.caller,
      DEFAULT_SCRIPT_LIMITS,
    );
    const envelope = await run.done;
    expect(envelope.output).toContain('no server named \\"other\\"'.replace(/\\/g, ""));
    expect(tools.received.slice(before).map((call) => `${call.server}.${call.tool}`)).toEqual(["other.visible"]);
  });
});

describe("a script that will not stop", () => {
  it("is ended at its deadline while this process's event loop keeps ticking on time", async () => {
    const ticks: number[] = [];
    let last = Date.now();
    const timer = setInterval(() => {
      const now = Date.now();
      ticks.push(now - last);
      last = now;
    }, 50);
    const started = Date.now();
    const envelope = await runScript(tools, "let n = 0;\nwhile (true) { n++; }", { timeoutMs: 2_000 });
    clearInterval(timer);
    expect(envelope.error?.kind).toBe("timeout");
    expect(Date.now() - started).toBeLessThan(2_000 + 5_000);
    // The loop ran on another thread: this one ticked all along (gaps well under the 2 s the script ran).
    expect(ticks.length).toBeGreaterThan(10);
    expect(Math.max(...ticks)).toBeLessThan(1_000);
  });

  it("cannot catch its deadline", async () => {
    const envelope = await runScript(tools, "for (;;) { try { while (true) {} } catch (error) { console.log('caught'); } }", { timeoutMs: 1_000 });
    expect(envelope.error?.kind).toBe("timeout");
    expect(envelope.output).toBe("");
  });

  it("ends a memory bomb with a memory failure", async () => {
    const envelope = await runScript(tools, "const hoard: string[] = [];\nwhile (true) hoard.push('x'.repeat(1024) + hoard.length);", {
      memoryBytes: 16 * 1024 * 1024,
    });
    expect(envelope.error).toMatchObject({ kind: "memory", line: 2 });
    expect(envelope.error?.message).toContain("16 MB");
  });

  it("ends a bomb of big strings at the memory limit too (QuickJS's own count misses strings: the wasm memory's maximum holds)", async () => {
    const envelope = await runScript(tools, "const hoard: string[] = [];\nconst mega = 'x'.repeat(1 << 20);\nwhile (true) hoard.push(mega + hoard.length);", {
      memoryBytes: 16 * 1024 * 1024,
    });
    expect(envelope.error).toMatchObject({ kind: "memory", line: 3 });
  });

  it("ends a deep recursion with a clear failure, the worker intact", async () => {
    const envelope = await runScript(tools, "function deeper(n: number): number {\n  return deeper(n + 1) + 1;\n}\ndeeper(0);");
    expect(envelope.error).toMatchObject({ kind: "memory", line: 2 });
    expect(envelope.error?.message).toContain("stack");
  });

  it("cuts a flood of output at the limit and says how much was left out", async () => {
    const envelope = await runScript(tools, "for (let i = 0; i < 200_000; i++) console.log('line ' + i);\nconsole.error('done');", {
      outputBytes: 1_000,
    });
    expect(envelope.ok).toBe(true);
    const [kept, marker] = envelope.output.split("… ");
    // What was kept (cut inside a line), a newline, then the marker.
    expect(kept!.endsWith("\n")).toBe(true);
    expect(Buffer.byteLength(kept!.slice(0, -1))).toBe(1_000);
    expect(kept!.startsWith("line 0\nline 1\n")).toBe(true);
    // 200,000 lines of "line N\n" are 2,288,890 bytes; all but the first 1,000 were left out.
    expect(marker).toBe("2,287,890 more bytes left out\n");
    expect(envelope.stderr).toBe("done\n");
  });

  it("ends a script that makes a million tool calls at its limit of calls", async () => {
    const before = tools.received.length;
    const envelope = await runScript(tools, "for (let i = 0; i < 1_000_000; i++) script_tools.echo({ i });", { maxCalls: 50 });
    expect(envelope.error).toMatchObject({ kind: "calls" });
    expect(envelope.error?.message).toContain("50");
    expect(tools.received.length - before).toBeLessThanOrEqual(50);
    expect(envelope.calls.length).toBeLessThanOrEqual(50);
  });
});

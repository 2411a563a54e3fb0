/**
 * `mcpx__exec` for hosts (issue 15, item 1): offered in both expose modes, naming the servers;
 * a script's calls reach the real upstreams; the host gets what it printed and returned (never
 * its source), a failure as `isError` with its kind, server and tool, and a bad request as a
 * tool error. Frames mcpx sends the host are validated against its revision's schema.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nodeServer, RawStdioHost, writeConfig, type TempConfig } from "../helpers/mcpx.js";
import { expectValidToClient } from "../helpers/spec-validator.js";
import { askingStdio, stdioHost, toolJson, type Frame, type RecordingHost } from "../relay/support.js";

const SERVERS = { rich: nodeServer("rich-server.mjs"), v2: nodeServer("sdk2-server.mjs"), ask: askingStdio() };

type ToolResult = { content: Array<{ type: string; text: string }>; structuredContent?: Record<string, unknown>; isError?: boolean };

const exec = async (host: RecordingHost, code: string): Promise<ToolResult> =>
  (await host.client.callTool({ name: "mcpx__exec", arguments: { code } })) as ToolResult;

/** Every frame mcpx sent this host, valid for its revision (a response as the result of the request it answers). */
function expectFramesValid(host: RecordingHost, revision: "2025-11-25" | "2025-06-18"): void {
  for (const frame of host.frames as Frame[]) {
    const result = (frame.result ?? {}) as Record<string, unknown>;
    const method = "protocolVersion" in result ? "initialize" : "tools" in result ? "tools/list" : "content" in result ? "tools/call" : undefined;
    expectValidToClient(revision, frame, method);
  }
}

describe('expose "all": an SDK 1.x host on stdio', () => {
  let config: TempConfig;
  let host: RecordingHost;
  beforeAll(async () => {
    config = writeConfig({ mcpServers: SERVERS });
    host = await stdioHost(config);
  });
  afterAll(async () => {
    expectFramesValid(host, "2025-11-25");
    await host?.close();
  });

  it("lists mcpx__exec after the upstreams' tools, naming the servers and the limits", async () => {
    const { tools } = await host.client.listTools();
    const names = tools.map((tool) => tool.name);
    // After the upstreams' tools; mcpx's question tools (this host takes no forms) come last.
    expect(names.slice(names.indexOf("mcpx__exec"))).toEqual(["mcpx__exec", "mcpx__pending_questions", "mcpx__answer_question"]);
    expect(names.indexOf("rich__rich_tool")).toBeLessThan(names.indexOf("mcpx__exec"));
    const definition = tools.find((tool) => tool.name === "mcpx__exec")!;
    expect(definition.description).toContain("(rich, v2, ask)");
    expect(definition.description).toMatch(/30 s, 64 MB, 1000 calls, 64 KB/);
    expect(definition.inputSchema).toMatchObject({ required: ["code"] });
  });

  it("runs a script against two servers: what it printed and returned comes back, never its source", async () => {
    const code = [
      "const rich_answer: { answer: number } = await rich.rich_tool({});",
      "const greeting = textOf(await v2.greet({ name: 'Ada' }));",
      "console.log(`answer ${rich_answer.answer}`);",
      "console.log(greeting);",
      "console.error('a warning');",
      "return { doubled: rich_answer.answer * 2 };",
    ].join("\n");
    const result = await exec(host, code);
    expect(result.isError).toBeUndefined();
    expect(result.content).toEqual([{ type: "text", text: 'answer 42\nHello, Ada, from SDK 2\nreturned: {"doubled":84}\nstderr:\na warning' }]);
    expect(JSON.stringify(result)).not.toContain("rich_answer");
    expect(result.structuredContent).toMatchObject({
      ok: true,
      value: { doubled: 84 },
      calls: [
        { server: "rich", tool: "rich_tool", outcome: "ok" },
        { server: "v2", tool: "greet", outcome: "ok" },
      ],
    });
    expect(result.structuredContent).not.toHaveProperty("output");
  });

  it("says a script failed: isError, its kind, and the server and tool whose error it threw", async () => {
    const result = await exec(host, "await rich.rich_tool({}); await v2.greet({});\nconsole.log('unreached');");
    expect(result.isError).toBe(true);
    // The line is where the script made the failing call; the message is the tool's own.
    expect(result.content[0]!.text).toMatch(/^the program failed \(thrown, at exec\.ts:1, in v2\.greet\): Input validation error/);
    expect(result.structuredContent).toMatchObject({ ok: false, error: { kind: "thrown", server: "v2", tool: "greet" } });
    expect(JSON.stringify(result)).not.toContain("unreached");
  });

  it("cancelling the mcpx__exec stops the script, and the call it was waiting on is cancelled upstream", async () => {
    const stop = new AbortController();
    const pending = host.client
      .callTool({ name: "mcpx__exec", arguments: { code: "await ask.wait_for_cancel({}); console.log('unreached')" } }, undefined, { signal: stop.signal })
      .catch((error: unknown) => error);
    const events = async () => toolJson(await host.client.callTool({ name: "ask__events", arguments: {} })) as Array<{ tool: string; aborted?: string }>;
    const deadline = Date.now() + 10_000;
    while (!(await events()).some((event) => event.tool === "wait_for_cancel")) {
      if (Date.now() > deadline) throw new Error("wait_for_cancel never started");
    }
    stop.abort("the user pressed stop");
    await expect(pending).resolves.toBeInstanceOf(Error);
    for (;;) {
      if ((await events()).some((event) => event.tool === "wait_for_cancel" && event.aborted !== undefined)) break;
      if (Date.now() > deadline) throw new Error("wait_for_cancel was never cancelled upstream");
    }
  });

  it("answers a call without code with a tool error saying what to send", async () => {
    const result = (await host.client.callTool({ name: "mcpx__exec", arguments: {} })) as ToolResult;
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toContain('give "code"');
  });
});

describe('expose "discovery": a 2025-06-18 host', () => {
  let raw: RawStdioHost;
  beforeAll(async () => {
    raw = new RawStdioHost(writeConfig({ mcpServers: SERVERS, expose: "discovery" }));
    await raw.initialize("2025-06-18");
  });
  afterAll(async () => raw?.close());

  it("lists mcpx__exec beside the gateway tools, and its instructions say when to use it", async () => {
    const list = await raw.request("list", "tools/list");
    expectValidToClient("2025-06-18", list, "tools/list");
    const tools = (list.result as { tools: Array<{ name: string; description: string }> }).tools;
    expect(tools.map((tool) => tool.name).slice(0, 5)).toEqual(["mcpx__search", "mcpx__describe", "mcpx__call", "mcpx__servers", "mcpx__exec"]);
    expect(tools[4]!.description).toContain("(rich, v2, ask)");
    expect(tools[4]!.description).toContain("mcpx__describe's TypeScript");
    const init = raw.frames.find((frame) => frame.id === "init") as { result: { instructions: string } };
    expect(init.result.instructions).toContain('mcpx__exec {"code"');
  });

  it("runs a script whose calls reach tools no tools/list shows", async () => {
    const answer = await raw.request("run", "tools/call", {
      name: "mcpx__exec",
      arguments: { code: "const r = await rich.rich_tool({}); console.log(r.answer)" },
    });
    expectValidToClient("2025-06-18", answer, "tools/call");
    expect(answer.result).toMatchObject({ content: [{ type: "text", text: "42" }] });
  });
});

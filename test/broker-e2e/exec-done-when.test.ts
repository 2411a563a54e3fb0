/**
 * Issue 15's "Done when", end to end: an SDK 1.x host in discovery mode answers "which of my
 * open issues mention the billing service, and who filed them" with one mcpx__exec whose code
 * asks the issue tracker (SDK 1.x, a tool with an outputSchema, and a tool that stops to ask
 * for a choice) and the people directory (SDK 2.x), and prints five lines; the choice is asked
 * of the same host inline and its answer reaches the tool; a script that reads a file, opens a
 * socket or loops forever fails with a clear error while mcpx keeps serving (another call
 * succeeds meanwhile). Every frame mcpx sends the host is valid for its revision.
 */
import { createServer, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { nodeServer, writeConfig } from "../helpers/mcpx.js";
import { expectValidToClient } from "../helpers/spec-validator.js";
import { until } from "../helpers/until.js";
import { stdioHost, type RecordingHost } from "../relay/support.js";

type ToolResult = { content: Array<{ type: string; text: string }>; structuredContent?: Record<string, any>; isError?: boolean };

const QUESTION_CODE = `
const { repository } = await issues.choose_repository({});
const { issues: found } = await issues.search_issues({ repository, query: "billing service", state: "open" });
const authors = await Promise.all(found.map((issue) => people.get_user({ login: issue.author })));
found.forEach((issue, i) => console.log(\`#\${issue.number} \${issue.title} (filed by \${authors[i].name})\`));
`;

let host: RecordingHost & { log(): string };
const asked: string[] = [];
let socketServer: Server;
let connections = 0;

beforeAll(async () => {
  const config = writeConfig({
    mcpServers: { issues: nodeServer("exec-issues-server.mjs"), people: nodeServer("exec-people-server.mjs") },
    expose: "discovery",
    scripts: { timeoutSeconds: 3 },
    elicitation: { ttlSeconds: 60 },
  });
  host = await stdioHost(config, {
    name: "done-when-host",
    capabilities: { elicitation: { form: {} } },
    setup: (client) =>
      client.setRequestHandler(ElicitRequestSchema, async (request) => {
        asked.push(request.params.message);
        return { action: "accept", content: { repository: "payments" } };
      }),
  });
  socketServer = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => socketServer.listen(0, "127.0.0.1", resolve));
});

afterAll(async () => {
  for (const frame of host?.frames ?? []) {
    const result = (frame.result ?? {}) as Record<string, unknown>;
    const method = "protocolVersion" in result ? "initialize" : "tools" in result ? "tools/list" : "content" in result ? "tools/call" : undefined;
    expectValidToClient("2025-11-25", frame, method);
  }
  await host?.close();
  socketServer?.close();
});

const exec = async (code: string): Promise<ToolResult> => (await host.client.callTool({ name: "mcpx__exec", arguments: { code } })) as ToolResult;

describe("one mcpx__exec answers the question", () => {
  it("searches, calls both servers and prints five lines; the tool's choice is asked of this host inline", async () => {
    const { tools } = await host.client.listTools();
    expect(tools.map((tool) => tool.name)).toContain("mcpx__exec");
    const result = await exec(QUESTION_CODE);
    expect(result.isError).toBeUndefined();
    expect(result.content).toHaveLength(1);
    expect(result.content[0]!.text.split("\n")).toEqual([
      "#101 Billing service double-charges on retry (filed by Ada Lovelace)",
      "#102 Invoice PDF missing VAT line (billing service) (filed by Grace Hopper)",
      "#103 Billing service timeouts at month end (filed by Ada Lovelace)",
      "#104 Refunds skip the billing service audit log (filed by Linus Torvalds)",
      "#105 Billing service: currency rounding (filed by Grace Hopper)",
    ]);
    expect(asked).toEqual(["[issues] Which repository should I look in?"]);
    expect(host.requests("elicitation/create")).toHaveLength(1);
    expect(JSON.stringify(result)).not.toContain("choose_repository({})");
    expect(result.structuredContent?.calls.map((call: { server: string; tool: string }) => `${call.server}.${call.tool}`)).toEqual([
      "issues.choose_repository",
      "issues.search_issues",
      ...Array(5).fill("people.get_user"),
    ]);
  });
});

describe("a script that tries to escape fails with a clear error, and mcpx keeps serving", () => {
  it("reading a file", async () => {
    const result = await exec('const fs = require("node:fs");\nconsole.log(fs.readFileSync("/etc/passwd", "utf8"));');
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toMatch(/^the program failed \(thrown.*require/);
    expect(result.content[0]!.text).not.toContain("root:");
  });

  it("opening a socket", async () => {
    const port = (socketServer.address() as { port: number }).port;
    const result = await exec(`const r = await fetch("http://127.0.0.1:${port}/"); console.log(await r.text());`);
    expect(result.isError).toBe(true);
    expect(result.content[0]!.text).toMatch(/^the program failed \(thrown.*fetch/);
    expect(connections).toBe(0);
  });

  it("looping forever: ended at the deadline, while another call is served meanwhile", async () => {
    const runningBefore = host.log().split("a host's script is running").length;
    const settled: string[] = [];
    const looping = exec("while (true) {}").finally(() => settled.push("loop"));
    await until(() => host.log().split("a host's script is running").length > runningBefore, "the looping script to start");
    // Served while the loop runs (scripts.timeoutSeconds is 3): the loop is not mcpx's event loop.
    const other = (await host.client.callTool({ name: "mcpx__call", arguments: { name: "people__get_user", arguments: { login: "ada" } } })) as ToolResult;
    settled.push("other call");
    expect(other.structuredContent).toEqual({ login: "ada", name: "Ada Lovelace", team: "payments" });
    const result = await looping;
    expect(settled).toEqual(["other call", "loop"]);
    expect(result.isError).toBe(true);
    expect(result.structuredContent?.error).toMatchObject({ kind: "timeout" });
    expect(result.content[0]!.text).toMatch(/^the program failed \(timeout/);
    // And mcpx still runs scripts.
    expect((await exec("return 1 + 1")).content[0]!.text).toBe("returned: 2");
  });
});

/**
 * 2025-11-25 core tasks relayed by `mcpx serve --http`, legacy host to legacy upstream: the
 * task-capable SDK 1.x fixture (test/fixtures/tasks-server.mjs) over stdio and over Streamable
 * HTTP, SDK 1.x hosts that record every frame mcpx sends them (each validated against the
 * 2025-11-25 schema). A host sees mcpx's ids, never the upstream's; another host cannot see or
 * touch its tasks; a question the task raises reaches its owner with the related-task metadata.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CallToolResultSchema, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { CreateTaskResultSchema } from "@modelcontextprotocol/sdk/experimental/tasks/types.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { nodeServer, startMcpxHttp, writeConfig, type RunningMcpx } from "../helpers/mcpx.js";
import { stdioHost } from "../relay/support.js";
import { startHttpFixture, type HttpFixture } from "../helpers/upstreams.js";
import { post } from "../helpers/raw-http.js";
import { expectValidToClient, validateDefinition } from "../helpers/spec-validator.js";
import { type Frame, httpHost, type RecordingHost } from "../relay/support.js";
import { recordingSentMethods, type SentMethods } from "./support.js";

const RELATED = "io.modelcontextprotocol/related-task";
const SERVERS = ["stdio", "http"] as const;

let upstreamHttp: HttpFixture;
let mcpx: RunningMcpx & { url: URL };
type Host = SentMethods<RecordingHost>;
/** A and B declare tasks and take forms; C declares neither. */
const hosts = {} as Record<"A" | "B" | "C", Host>;

/** An SDK host that answers forms with its own label, and remembers the method of each request it sent (to validate the results). */
async function answeringHost(label: string, capabilities: object): Promise<Host> {
  const host = await httpHost(mcpx.url, {
    name: `host-${label}`,
    capabilities,
    setup: (client) => {
      if ("elicitation" in capabilities)
        client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: { name: `Ada of ${label}` } }));
    },
  });
  return recordingSentMethods(host);
}

beforeAll(async () => {
  upstreamHttp = await startHttpFixture("tasks-server.mjs", {}, ["--http"]);
  mcpx = await startMcpxHttp(
    writeConfig({
      mcpServers: {
        stdio: nodeServer("tasks-server.mjs", ["--stdio"]),
        http: { url: upstreamHttp.url },
        // A request to it times out after a second; a task's result is worth waiting for longer.
        short: nodeServer("tasks-server.mjs", ["--stdio"], { timeoutSeconds: 1 }),
      },
      elicitation: { ttlSeconds: 10 },
    }),
  );
  const taskHost = { elicitation: { form: {} }, tasks: {} };
  hosts.A = await answeringHost("A", taskHost);
  hosts.B = await answeringHost("B", taskHost);
  hosts.C = await answeringHost("C", {});
});
afterAll(async () => {
  await Promise.all(Object.values(hosts).map((host) => host.close()));
  await mcpx?.close();
  await upstreamHttp?.close();
});

/** Every frame mcpx sent a host, valid for a 2025-11-25 client (results checked against what their request was). */
function expectFramesValid(host: Host): void {
  for (const frame of host.frames) {
    const method = "result" in frame ? host.sent.get(frame.id) : undefined;
    if (method === "tools/call" && isCreateTaskResult(frame.result)) {
      expect(validateDefinition("2025-11-25", "CreateTaskResult", frame.result).errors).toEqual([]);
      continue;
    }
    expectValidToClient("2025-11-25", frame, method);
  }
}

function isCreateTaskResult(result: unknown): boolean {
  return typeof result === "object" && result !== null && "task" in result;
}

async function startTask(host: Host, name: string, args: object = {}): Promise<string> {
  const created = await host.client.request({ method: "tools/call", params: { name, arguments: args, task: { ttl: 60_000 } } }, CreateTaskResultSchema);
  return created.task.taskId;
}

async function errorOf(promise: Promise<unknown>): Promise<McpError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof McpError)) throw new Error(`expected an MCP error, got ${String(error)}`);
  return error;
}

describe("what mcpx declares", () => {
  it("offers a 2025-11-25 host tasks (list, cancel, tools/call) when its upstreams run tool tasks", () => {
    expect(hosts.A.client.getServerCapabilities()?.tasks).toEqual({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
  });

  it("offers a 2025-06-18 host no tasks, and tasks/get does not exist for it", async () => {
    const init = await post(mcpx.url, {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "old", version: "1" } },
    });
    const result = init.messages[0]?.result as { capabilities: Record<string, unknown> };
    expect(result.capabilities.tasks).toBeUndefined();
    const session = init.headers.get("mcp-session-id")!;
    const headers = { "mcp-session-id": session, "mcp-protocol-version": "2025-06-18" };
    await post(mcpx.url, { jsonrpc: "2.0", method: "notifications/initialized" }, headers);
    const get = await post(mcpx.url, { jsonrpc: "2.0", id: 2, method: "tasks/get", params: { taskId: "stdio/anything" } }, headers);
    expect(get.messages[0]).toMatchObject({ id: 2, error: { code: -32601 } });
  });

  it("lists a tool that requires a task only to hosts that declared tasks", async () => {
    const listed = async (host: Host): Promise<string[]> => (await host.client.listTools()).tools.map((tool) => tool.name);
    expect(await listed(hosts.A)).toEqual(expect.arrayContaining(["stdio__required_job", "http__required_job", "stdio__slow_echo"]));
    const forC = await listed(hosts.C);
    expect(forC).toContain("stdio__slow_echo");
    expect(forC).not.toContain("stdio__required_job");
    expect(forC).not.toContain("http__required_job");
  });
});

describe.each(SERVERS)("a task on the %s upstream", (server) => {
  it("is relayed under mcpx's id: created, polled, its status notified to its owner, its result collected", async () => {
    const id = await startTask(hosts.A, `${server}__slow_echo`, { text: "done slowly", ms: 300 });
    expect(id).toMatch(new RegExp(`^${server}/[0-9a-f-]{36}$`));
    const working = await hosts.A.client.experimental.tasks.getTask(id);
    expect(working.taskId).toBe(id);
    expect(["working", "completed"]).toContain(working.status);
    const result = await hosts.A.client.experimental.tasks.getTaskResult(id, CallToolResultSchema);
    expect(result.content).toEqual([{ type: "text", text: "done slowly" }]);
    expect(result._meta?.[RELATED]).toEqual({ taskId: id });
    // The upstream's status notification, under the host's id, to the owner.
    const status = await hosts.A.waitFor((frame) => frame.method === "notifications/tasks/status" && (frame.params as Frame).taskId === id);
    expect((status.params as Frame).status).toBe("completed");
    expect((await hosts.A.client.experimental.tasks.getTask(id)).status).toBe("completed");
  });

  it("a question the task raises reaches its owner with the related-task metadata naming mcpx's id", async () => {
    const id = await startTask(hosts.A, `${server}__ask_name`);
    const result = await hosts.A.client.experimental.tasks.getTaskResult(id, CallToolResultSchema);
    expect(result.content).toEqual([{ type: "text", text: "Hello, Ada of A!" }]);
    const related = (frame: Frame): unknown => ((frame.params as Frame)._meta as Frame | undefined)?.[RELATED];
    const asked = hosts.A.requests("elicitation/create").filter((frame) => related(frame) !== undefined);
    // Asked once, under mcpx's id (the upstream's own id never reaches the host).
    expect(asked.filter((frame) => (related(frame) as Frame).taskId === id)).toHaveLength(1);
    expect(asked.every((frame) => /^(stdio|http)\//.test(String((related(frame) as Frame).taskId)))).toBe(true);
    expectValidToClient("2025-11-25", asked.at(-1));
  });

  it("a failed task fails for its owner", async () => {
    const id = await startTask(hosts.A, `${server}__failing_job`, { ms: 50 });
    const result = await hosts.A.client.experimental.tasks.getTaskResult(id, CallToolResultSchema);
    expect(result.isError).toBe(true);
    expect((await hosts.A.client.experimental.tasks.getTask(id)).status).toBe("failed");
  });

  it("is cancelled by its owner", async () => {
    const id = await startTask(hosts.A, `${server}__slow_compute`, { seconds: 5 });
    const cancelled = await hosts.A.client.experimental.tasks.cancelTask(id);
    expect(cancelled).toMatchObject({ taskId: id, status: "cancelled" });
    expect((await hosts.A.client.experimental.tasks.getTask(id)).status).toBe("cancelled");
  });

  it("runs a tool that requires a task", async () => {
    const id = await startTask(hosts.A, `${server}__required_job`);
    const result = await hosts.A.client.experimental.tasks.getTaskResult(id, CallToolResultSchema);
    expect(result.content).toEqual([{ type: "text", text: "job done" }]);
  });
});

describe("tasks/result", () => {
  it("waits for the task beyond the server's timeoutSeconds", async () => {
    const id = await startTask(hosts.A, "short__slow_echo", { text: "worth the wait", ms: 1300 });
    const result = await hosts.A.client.experimental.tasks.getTaskResult(id, CallToolResultSchema);
    expect(result.content).toEqual([{ type: "text", text: "worth the wait" }]);
  });
});

describe("a host on stdio (mcpx serve)", () => {
  it("is offered tasks, and the question its task raises reaches it", async () => {
    const config = writeConfig({ mcpServers: { work: nodeServer("tasks-server.mjs", ["--stdio"]) } });
    const host = await stdioHost(config, {
      capabilities: { elicitation: { form: {} }, tasks: {} },
      setup: (client) => client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: { name: "Stdio Ada" } })),
    });
    try {
      expect(host.client.getServerCapabilities()?.tasks).toMatchObject({ requests: { tools: { call: {} } } });
      const created = await host.client.request({ method: "tools/call", params: { name: "work__ask_name", arguments: {}, task: {} } }, CreateTaskResultSchema);
      const result = await host.client.experimental.tasks.getTaskResult(created.task.taskId, CallToolResultSchema);
      expect(result.content).toEqual([{ type: "text", text: "Hello, Stdio Ada!" }]);
      const asked = host.requests("elicitation/create");
      expect(asked).toHaveLength(1);
      expect(((asked[0]!.params as Frame)._meta as Frame)[RELATED]).toEqual({ taskId: created.task.taskId });
    } finally {
      await host.close();
    }
  });
});

describe("another host", () => {
  it("cannot see or touch a host's task: unknown to it, absent from its list, and it hears nothing of it", async () => {
    const id = await startTask(hosts.A, "stdio__slow_echo", { text: "A's", ms: 400 });
    // one at a time: a request made before the one ahead of it is awaited rejects with nothing yet listening (an unhandled rejection)
    for (const attempt of [
      () => hosts.B.client.experimental.tasks.getTask(id),
      () => hosts.B.client.experimental.tasks.getTaskResult(id, CallToolResultSchema),
      () => hosts.B.client.experimental.tasks.cancelTask(id),
    ]) {
      const error = await errorOf(attempt());
      expect(error.code).toBe(-32602);
    }
    const theirs = await hosts.B.client.experimental.tasks.listTasks();
    expect(theirs.tasks.map((task) => task.taskId)).not.toContain(id);
    const mine = await hosts.A.client.experimental.tasks.listTasks();
    expect(mine.tasks.map((task) => task.taskId)).toContain(id);
    await hosts.A.client.experimental.tasks.getTaskResult(id, CallToolResultSchema);
    await hosts.A.waitFor((frame) => frame.method === "notifications/tasks/status" && (frame.params as Frame).taskId === id);
    expect(hosts.B.frames.filter((frame) => frame.method === "notifications/tasks/status")).toEqual([]);
  });

  it("with a call of its own in flight on the same stdio upstream, does not get the task's question", async () => {
    // Two hosts' calls in flight on one stdio connection: only the related-task metadata proves whose the question is.
    const busy = hosts.B.client.callTool({ name: "stdio__slow_echo", arguments: { text: "B's", ms: 800 } });
    const id = await startTask(hosts.A, "stdio__ask_name");
    const result = await hosts.A.client.experimental.tasks.getTaskResult(id, CallToolResultSchema);
    expect(result.content).toEqual([{ type: "text", text: "Hello, Ada of A!" }]);
    expect(await busy).toMatchObject({ content: [{ type: "text", text: "B's" }] });
    expect(hosts.B.requests("elicitation/create")).toEqual([]);
  });
});

describe("every frame mcpx sent the hosts", () => {
  it("is valid for a 2025-11-25 client", () => {
    expect(hosts.A.frames.length).toBeGreaterThan(10);
    for (const host of Object.values(hosts)) expectFramesValid(host);
  });
});

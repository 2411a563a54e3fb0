/**
 * The 2026-07-28 tasks extension (`io.modelcontextprotocol/tasks`) through `mcpx serve --http`,
 * in front of the hand-served fixture (test/fixtures/tasks-modern-server.mjs) over stdio and
 * over Streamable HTTP. A modern host that declares the extension gets the upstream's task under
 * an id of mcpx's and follows it with tasks/get, tasks/update and tasks/cancel; a host that
 * cannot take a task (a 2025-11-25 host, a modern host without the extension) gets an ordinary
 * result, mcpx waiting for the task on its behalf and asking the task's questions the host's
 * way. Every frame a modern host gets is validated against the 2026-07-28 schema (the
 * extension's own shapes, which the core schema does not define, as results).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CallToolResultSchema, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { SqliteStore } from "../../src/broker/sqlite/sqlite-store.js";
import { nodeServer, startMcpxHttp, writeConfig, type RunningMcpx, type TempConfig } from "../helpers/mcpx.js";
import { post } from "../helpers/raw-http.js";
import { expectValidToClient, validateDefinition } from "../helpers/spec-validator.js";
import { startHttpFixture, textOf, type HttpFixture } from "../helpers/upstreams.js";
import { httpHost, type RecordingHost } from "../relay/support.js";

const V = "2026-07-28";
const TASKS = "io.modelcontextprotocol/tasks";
const SERVERS = ["stdio", "http"] as const;

let upstreamHttp: HttpFixture;
let config: TempConfig;
let mcpx: RunningMcpx & { url: URL };
let legacyHost: RecordingHost;

beforeAll(async () => {
  upstreamHttp = await startHttpFixture("tasks-modern-server.mjs", {}, ["--http"]);
  config = writeConfig({
    mcpServers: {
      stdio: nodeServer("tasks-modern-server.mjs", ["--stdio"]),
      http: { url: upstreamHttp.url },
      // Its calls time out after a second: so does waiting for one of its tasks.
      short: nodeServer("tasks-modern-server.mjs", ["--stdio"], { timeoutSeconds: 1 }),
    },
    elicitation: { ttlSeconds: 10 },
  });
  mcpx = await startMcpxHttp(config);
  legacyHost = await httpHost(mcpx.url, {
    name: "legacy-host",
    capabilities: { elicitation: { form: {} } },
    setup: (client) => client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: { confirm: true } })),
  });
});
afterAll(async () => {
  await legacyHost?.close();
  await mcpx?.close();
  await upstreamHttp?.close();
});

type Reply = { result?: Record<string, unknown>; error?: { code: number; message: string; data?: unknown } };
let nextId = 1;

/** One modern request; `tasks` says whether its client capabilities declare the extension. */
function envelope(tasks: boolean): Record<string, unknown> {
  const capabilities = { elicitation: {}, ...(tasks ? { extensions: { [TASKS]: {} } } : {}) };
  return { "io.modelcontextprotocol/protocolVersion": V, "io.modelcontextprotocol/clientCapabilities": capabilities };
}

async function modern(method: string, params: Record<string, unknown>, tasks = true): Promise<Reply> {
  const name = method === "tools/call" ? String(params.name) : typeof params.taskId === "string" ? params.taskId : undefined;
  const reply = await post(
    mcpx.url,
    {
      jsonrpc: "2.0",
      id: nextId++,
      method,
      params: { _meta: envelope(tasks), ...params },
    },
    { "mcp-protocol-version": V, "mcp-method": method, ...(name ? { "mcp-name": name } : {}) },
  );
  for (const frame of reply.messages) expectValid(method, frame as Reply);
  return reply.messages[0] as Reply;
}

/** The core schema for what it defines; the extension's results (a task, tasks/*) as results, with what they inline checked too. */
function expectValid(method: string, frame: Reply): void {
  const result = frame.result;
  if (!result || !(result.resultType === "task" || method.startsWith("tasks/"))) {
    expectValidToClient(V, frame, method);
    return;
  }
  expect(validateDefinition(V, "Result", result).errors).toEqual([]);
  if (result.result !== undefined) expect(validateDefinition(V, "CallToolResult", result.result).errors).toEqual([]);
}

async function until(taskId: string, done: (task: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const task = (await modern("tasks/get", { taskId })).result!;
    if (done(task) || Date.now() > deadline) return task;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const ended = (task: Record<string, unknown>): boolean => ["completed", "failed", "cancelled"].includes(String(task.status));

describe("what mcpx declares to a 2026-07-28 host", () => {
  it("the tasks extension in server/discover, as an upstream offers it", async () => {
    const discovered = await modern("server/discover", {});
    expect(discovered.result?.capabilities).toMatchObject({ extensions: { [TASKS]: {} } });
  });
});

describe.each(SERVERS)("a 2026-07-28 host's task on the %s upstream", (server) => {
  it("comes back under an id of mcpx's, and tasks/get inlines the result once it completes", async () => {
    const created = (await modern("tools/call", { name: `${server}__slow_compute`, arguments: { seconds: 0.3, label: "relay" } })).result!;
    expect(created).toMatchObject({ resultType: "task", status: "working" });
    expect(created.taskId).toMatch(new RegExp(`^${server}/[0-9a-f-]{36}$`));
    const task = await until(String(created.taskId), ended);
    expect(task).toMatchObject({ resultType: "complete", taskId: created.taskId, status: "completed" });
    expect(textOf(task.result)).toBe("Computed relay after 0.3s");
  });

  it("a task that asks: inputRequests on tasks/get, answered with tasks/update", async () => {
    const created = (await modern("tools/call", { name: `${server}__confirm_delete`, arguments: { filename: `${server}.txt` } })).result!;
    const taskId = String(created.taskId);
    const asking = await until(taskId, (task) => task.status === "input_required");
    expect(asking.inputRequests).toMatchObject({ confirm: { method: "elicitation/create" } });
    const ack = await modern("tasks/update", { taskId, inputResponses: { confirm: { action: "accept", content: { confirm: true } } } });
    expect(ack.result).toEqual({ resultType: "complete" });
    const task = await until(taskId, ended);
    expect(textOf(task.result)).toBe(`Deleted ${server}.txt`);
  });

  it("tasks/cancel reaches the task: it ends cancelled", async () => {
    const created = (await modern("tools/call", { name: `${server}__slow_compute`, arguments: { seconds: 60, label: "cancel" } })).result!;
    const ack = await modern("tasks/cancel", { taskId: created.taskId });
    expect(ack.result).toEqual({ resultType: "complete" });
    expect((await until(String(created.taskId), ended)).status).toBe("cancelled");
  });

  it("a request about tasks without the extension is -32021; an id mcpx never gave (the upstream's own) is unknown", async () => {
    const created = (await modern("tools/call", { name: `${server}__slow_compute`, arguments: { seconds: 60, label: "ids" } })).result!;
    const refused = await modern("tasks/get", { taskId: created.taskId }, false);
    expect(refused.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { [TASKS]: {} } } } });
    const upstreamId = String(created.taskId).slice(server.length + 1);
    expect((await modern("tasks/get", { taskId: upstreamId })).error?.code).toBe(-32602);
    // SEP-2663: Mcp-Name carries the taskId of tasks/* requests; one that does not match is -32020 (HTTP 400).
    const mismatched = await post(
      mcpx.url,
      { jsonrpc: "2.0", id: nextId++, method: "tasks/get", params: { _meta: envelope(true), taskId: created.taskId } },
      { "mcp-protocol-version": V, "mcp-method": "tasks/get", "mcp-name": "someone-else/task" },
    );
    expect(mismatched.status).toBe(400);
    expect(mismatched.messages[0]).toMatchObject({ error: { code: -32020 } });
    await modern("tasks/cancel", { taskId: created.taskId });
  });
});

describe("a host that cannot take a task gets the task's result (mcpx waits for it)", () => {
  it.each(SERVERS)("a 2026-07-28 host without the extension, a tool that requires a task (%s)", async (server) => {
    const reply = await modern("tools/call", { name: `${server}__failing_job`, arguments: {} }, false);
    expect(reply.result).toMatchObject({ resultType: "complete", isError: true });
    expect(textOf(reply.result)).toBe("failing_job failed, as it always does");
  });

  it.each(SERVERS)("a 2025-11-25 host: the result, and the task's question asked inline (%s)", async (server) => {
    const plain = await legacyHost.client.callTool({ name: `${server}__slow_compute`, arguments: { seconds: 0.2, label: "legacy" } }, CallToolResultSchema);
    expect(textOf(plain)).toBe("Computed legacy after 0.2s");
    const asked = await legacyHost.client.callTool({ name: `${server}__confirm_delete`, arguments: { filename: "legacy.txt" } }, CallToolResultSchema);
    expect(textOf(asked)).toBe("Deleted legacy.txt");
    expect(legacyHost.frames.some((frame) => frame.method === "elicitation/create")).toBe(true);
    for (const frame of legacyHost.frames) {
      if ("method" in frame) expectValidToClient("2025-11-25", frame);
      else if (typeof frame.result === "object" && frame.result !== null && "content" in frame.result) expectValidToClient("2025-11-25", frame, "tools/call");
    }
  });

  it("a task that outlasts the call's timeout is cancelled, and the call fails saying so", async () => {
    const reply = await modern("tools/call", { name: "short__slow_compute", arguments: { seconds: 5, label: "late" } }, false);
    const said = /task (\S+) did not finish within the call's timeout; mcpx cancelled it/.exec(reply.error?.message ?? "");
    expect(said, reply.error?.message).not.toBeNull();
    // The upstream heard the tasks/cancel (the fixture says so on its stderr, which mcpx logs).
    await mcpx.waitForLog(`cancelled task ${said![1]} while it was working`, 5_000);
  });

  it("a protocol error of the task is the host's error", async () => {
    const reply = await modern("tools/call", { name: "http__protocol_error_job", arguments: {} }, false);
    expect(reply.error).toMatchObject({ code: -32603, message: "protocol_error_job broke on purpose" });
  });
});

describe("the store", () => {
  it("records a relayed 2026 task, its owner and its status as last heard", async () => {
    const created = (await modern("tools/call", { name: "http__slow_compute", arguments: { seconds: 0.1, label: "stored" } })).result!;
    await until(String(created.taskId), ended);
    const store = SqliteStore.open(config.env.MCPX_STATE_DIR!);
    try {
      const record = (await store.tasks.all()).find((task) => task.id === created.taskId);
      // Owned by the identity (the operator's, without a token): a 2026 request has no session of its own.
      expect(record).toMatchObject({ server: "http", tool: "slow_compute", status: "completed", identity: "local" });
      expect(record?.hostSession).toBeUndefined();
    } finally {
      await store.close();
    }
  });
});

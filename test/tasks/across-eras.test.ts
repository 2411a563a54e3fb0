/**
 * Tasks across eras through one `mcpx serve --http` (issue 17 item 2): a 2026-07-28 host that
 * declares the tasks extension gets a 2025-11-25 upstream's task (the SDK 1.x fixture, over
 * stdio and over Streamable HTTP) in the extension's shape, and a 2025-11-25 host's
 * task-augmented call to a 2026-07-28 upstream that offers the extension (the hand-served
 * fixture) gets a 2025 task; mcpx follows each underneath. A tool that requires a task is
 * callable by a host that cannot take one: mcpx makes the task and waits for it. Every frame
 * mcpx sends is validated against the host's revision.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CallToolResultSchema, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { CreateTaskResultSchema } from "@modelcontextprotocol/sdk/experimental/tasks/types.js";
import { nodeServer, startMcpxHttp, writeConfig, type RunningMcpx } from "../helpers/mcpx.js";
import { expectValidToClient, validateDefinition } from "../helpers/spec-validator.js";
import { startHttpFixture, textOf, type HttpFixture } from "../helpers/upstreams.js";
import { type Frame, httpHost, type RecordingHost } from "../relay/support.js";
import { recordingSentMethods, type SentMethods } from "./support.js";
import { ended, modernHost, RELATED, type ModernHost } from "./support.js";

const LEGACY = ["legacy", "legacyhttp"] as const;

let legacyHttp: HttpFixture;
let mcpx: RunningMcpx & { url: URL };
let modern: ModernHost;
type Host = SentMethods<RecordingHost>;
/** A 2025-11-25 host that takes tasks and answers forms; and one that declares neither. */
let taskHost: Host;
let plainHost: Host;

async function legacyHost(name: string, capabilities: object): Promise<Host> {
  const host = await httpHost(mcpx.url, {
    name,
    capabilities,
    setup: (client) => {
      if ("elicitation" in capabilities) client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: { confirm: true } }));
    },
  });
  return recordingSentMethods(host);
}

beforeAll(async () => {
  legacyHttp = await startHttpFixture("tasks-server.mjs", {}, ["--http"]);
  mcpx = await startMcpxHttp(
    writeConfig({
      mcpServers: {
        legacy: nodeServer("tasks-server.mjs", ["--stdio"]),
        legacyhttp: { url: legacyHttp.url },
        modern: nodeServer("tasks-modern-server.mjs", ["--stdio"]),
      },
      elicitation: { ttlSeconds: 20 },
    }),
  );
  modern = modernHost(mcpx.url);
  taskHost = await legacyHost("task-host", { elicitation: { form: {} }, tasks: {} });
  plainHost = await legacyHost("plain-host", {});
});
afterAll(async () => {
  await taskHost?.close();
  await plainHost?.close();
  await mcpx?.close();
  await legacyHttp?.close();
});

describe.each(LEGACY)("a 2026-07-28 host's task on a 2025-11-25 upstream (%s)", (server) => {
  it("is listed the tools that run as tasks, and gets a task in the extension's shape whose tasks/get inlines the result", async () => {
    const listed = (await modern.request("tools/list", {})).result!.tools as Array<{ name: string }>;
    expect(listed.map((tool) => tool.name)).toContain(`${server}__required_job`);
    const created = (await modern.request("tools/call", { name: `${server}__slow_echo`, arguments: { text: "across", ms: 300 } })).result!;
    expect(created).toMatchObject({ resultType: "task", status: "working" });
    expect(created.taskId).toMatch(new RegExp(`^${server}/[0-9a-f-]{36}$`));
    expect(typeof created.ttlMs === "number" || created.ttlMs === null).toBe(true);
    expect(created).not.toHaveProperty("task");
    const task = await modern.until(String(created.taskId), ended);
    expect(task).toMatchObject({ resultType: "complete", taskId: created.taskId, status: "completed" });
    expect(textOf(task.result)).toBe("across");
    expect((task.result as Frame)._meta?.[RELATED as never]).toBeUndefined();
  });

  it("a question the task raises is among its inputRequests, answered with tasks/update", async () => {
    const created = (await modern.request("tools/call", { name: `${server}__ask_name`, arguments: {} })).result!;
    const taskId = String(created.taskId);
    const asking = await modern.until(taskId, (task) => task.status === "input_required");
    const requests = asking.inputRequests as Record<string, { method: string; params: { message: string } }>;
    const [key] = Object.keys(requests);
    expect(requests[key!]).toMatchObject({ method: "elicitation/create", params: { message: `[${server}] What is your name?` } });
    const ack = await modern.request("tasks/update", { taskId, inputResponses: { [key!]: { action: "accept", content: { name: "Grace" } } } });
    expect(ack.result).toEqual({ resultType: "complete" });
    const task = await modern.until(taskId, ended);
    expect(textOf(task.result)).toBe("Hello, Grace!");
  });

  it("a tool error is the extension's completed task with isError; tasks/cancel ends a working one cancelled", async () => {
    const failing = (await modern.request("tools/call", { name: `${server}__failing_job`, arguments: { ms: 50 } })).result!;
    const failed = await modern.until(String(failing.taskId), ended);
    expect(failed).toMatchObject({ status: "completed", result: { isError: true } });
    const long = (await modern.request("tools/call", { name: `${server}__slow_compute`, arguments: { seconds: 30 } })).result!;
    expect((await modern.request("tasks/cancel", { taskId: long.taskId })).result).toEqual({ resultType: "complete" });
    expect((await modern.until(String(long.taskId), ended)).status).toBe("cancelled");
  });
});

describe("a 2026-07-28 host's legacy `task` param", () => {
  it("is ignored, as the extension says: the server decides (a tool that runs no task answers plainly)", async () => {
    const plain = await modern.request("tools/call", { name: "legacy__greet", arguments: { name: "Ed" }, task: { ttl: 1_000 } });
    expect(plain.result).toMatchObject({ resultType: "complete" });
    expect(textOf(plain.result)).toBe("Hello, Ed!");
    const asTask = await modern.request("tools/call", { name: "legacy__slow_echo", arguments: { text: "t", ms: 10 }, task: { ttl: 1_000 } });
    expect(asTask.result).toMatchObject({ resultType: "task" });
    expect(asTask.result).not.toHaveProperty("task");
  });
});

describe("server/discover with only a 2025-11-25 upstream that runs tool tasks", () => {
  it("names the tasks extension: mcpx gives its tasks in the extension's shape", async () => {
    const alone = await startMcpxHttp(writeConfig({ mcpServers: { legacy: nodeServer("tasks-server.mjs", ["--stdio"]) } }));
    try {
      const discovered = await modernHost(alone.url).request("server/discover", {});
      expect(discovered.result?.capabilities).toMatchObject({ extensions: { "io.modelcontextprotocol/tasks": {} } });
      expect(discovered.result?.capabilities).not.toHaveProperty("tasks");
    } finally {
      await alone.close();
    }
  });
});

describe("initialize with only a 2026-07-28 upstream that offers the extension", () => {
  it("offers a 2025-11-25 host tasks: mcpx gives it that upstream's tasks as 2025 ones", async () => {
    const alone = await startMcpxHttp(writeConfig({ mcpServers: { modern: nodeServer("tasks-modern-server.mjs", ["--stdio"]) } }));
    const host = await httpHost(alone.url, { capabilities: { tasks: {} } });
    try {
      expect(host.client.getServerCapabilities()?.tasks).toEqual({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
    } finally {
      await host.close();
      await alone.close();
    }
  });
});

describe("a 2025-11-25 host's task on a 2026-07-28 upstream", () => {
  it("is a 2025 task: created, polled, its status notified, its result collected with the related-task metadata", async () => {
    const created = await taskHost.client.request(
      { method: "tools/call", params: { name: "modern__slow_compute", arguments: { seconds: 0.3, label: "legacy" }, task: { ttl: 60_000 } } },
      CreateTaskResultSchema,
    );
    const id = created.task.taskId;
    expect(id).toMatch(/^modern\/[0-9a-f-]{36}$/);
    expect(created.task).toMatchObject({ status: "working", ttl: expect.any(Number) });
    expect(["working", "completed"]).toContain((await taskHost.client.experimental.tasks.getTask(id)).status);
    const result = await taskHost.client.experimental.tasks.getTaskResult(id, CallToolResultSchema);
    expect(textOf(result)).toBe("Computed legacy after 0.3s");
    expect(result._meta?.[RELATED]).toEqual({ taskId: id });
    const status = await taskHost.waitFor(
      (frame) => frame.method === "notifications/tasks/status" && (frame.params as Frame).status === "completed" && (frame.params as Frame).taskId === id,
    );
    expect(status).toBeDefined();
    const listed = await taskHost.client.experimental.tasks.listTasks();
    expect(listed.tasks.find((task) => task.taskId === id)?.status).toBe("completed");
  });

  it("the task's question is asked inline on tasks/result, with the related-task metadata naming mcpx's id", async () => {
    const created = await taskHost.client.request(
      { method: "tools/call", params: { name: "modern__confirm_delete", arguments: { filename: "old.txt" }, task: {} } },
      CreateTaskResultSchema,
    );
    const id = created.task.taskId;
    const result = await taskHost.client.experimental.tasks.getTaskResult(id, CallToolResultSchema);
    expect(textOf(result)).toBe("Deleted old.txt");
    const asked = taskHost.requests("elicitation/create").at(-1)!;
    expect(((asked.params as Frame)._meta as Frame)[RELATED]).toEqual({ taskId: id });
  });

  it("tasks/cancel cancels it upstream and answers the cancelled Task", async () => {
    const created = await taskHost.client.request(
      { method: "tools/call", params: { name: "modern__slow_compute", arguments: { seconds: 30, label: "x" }, task: {} } },
      CreateTaskResultSchema,
    );
    const cancelled = await taskHost.client.experimental.tasks.cancelTask(created.task.taskId);
    expect(cancelled).toMatchObject({ taskId: created.task.taskId, status: "cancelled" });
  });
});

describe("a tool that requires a task, from a caller that cannot take one", () => {
  it.each(LEGACY)("a 2025-11-25 host without tasks gets the result: mcpx made the task and waited for it (%s)", async (server) => {
    const result = await plainHost.client.callTool({ name: `${server}__required_job`, arguments: { ms: 100 } }, CallToolResultSchema);
    expect(textOf(result)).toBe("job done");
    expect(result._meta?.[RELATED]).toBeUndefined();
  });

  it("a 2026-07-28 host without the extension likewise", async () => {
    const reply = await modern.request("tools/call", { name: "legacy__required_job", arguments: { ms: 100 } }, false);
    expect(reply.result).toMatchObject({ resultType: "complete" });
    expect(textOf(reply.result)).toBe("job done");
  });
});

describe("every frame mcpx sent the 2025-11-25 hosts", () => {
  it("is valid for a 2025-11-25 client", () => {
    for (const host of [taskHost, plainHost]) {
      expect(host.frames.length).toBeGreaterThan(1);
      for (const frame of host.frames) {
        const method = "result" in frame ? host.sent.get(frame.id) : undefined;
        if (method === "tools/call" && typeof frame.result === "object" && frame.result !== null && "task" in frame.result) {
          expect(validateDefinition("2025-11-25", "CreateTaskResult", frame.result).errors).toEqual([]);
          continue;
        }
        expectValidToClient("2025-11-25", frame, method);
      }
    }
  });
});

/**
 * Durable tasks (issue 17 item 4) through `mcpx serve --http`: `mcpx tasks show` and `mcpx tasks
 * cancel` from another process (the serving process sees the cancel in the store and cancels
 * the task upstream), and a 2025-11-25 host that disconnects and comes back in a new session
 * finding its tasks by their ids, then in its tasks/list, and collecting them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CallToolResultSchema, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { CreateTaskResultSchema } from "@modelcontextprotocol/sdk/experimental/tasks/types.js";
import type { TaskRecord } from "../../src/broker/task-store.js";
import { nodeServer, startMcpxHttp, writeConfig, type RunningMcpx, type TempConfig } from "../helpers/mcpx.js";
import { runMcpx, textOf } from "../helpers/upstreams.js";
import { httpHost } from "../relay/support.js";
import { ended, modernHost, type ModernHost } from "./support.js";

let config: TempConfig;
let mcpx: RunningMcpx & { url: URL };
let modern: ModernHost;

beforeAll(async () => {
  config = writeConfig({
    mcpServers: { modern: nodeServer("tasks-modern-server.mjs", ["--stdio"]), legacy: nodeServer("tasks-server.mjs", ["--stdio"]) },
    elicitation: { ttlSeconds: 30 },
  });
  mcpx = await startMcpxHttp(config);
  modern = modernHost(mcpx.url);
});
afterAll(async () => {
  await mcpx?.close();
});

function legacyHost(name: string): ReturnType<typeof httpHost> {
  return httpHost(mcpx.url, {
    name,
    capabilities: { tasks: {}, elicitation: { form: {} } },
    setup: (client) => client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: { name: "Back Again", confirm: true } })),
  });
}

describe("mcpx tasks show and cancel", () => {
  it("show prints a task; cancel cancels a relayed 2026 task upstream, through the process that follows it", async () => {
    const created = (await modern.request("tools/call", { name: "modern__slow_compute", arguments: { seconds: 60, label: "cli" } })).result!;
    const id = String(created.taskId);
    const shown = await runMcpx(["tasks", "show", id], config);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(new RegExp(`^id\\s+${id}$`, "m"));
    expect(shown.stdout).toMatch(/^tool\s+slow_compute$/m);
    expect(shown.stdout).toMatch(/^status\s+working$/m);
    const cancelled = await runMcpx(["tasks", "cancel", id], config);
    expect(cancelled.code, cancelled.stderr).toBe(0);
    expect(cancelled.stdout).toContain(`cancelled task ${id}`);
    expect((await modern.until(id, ended)).status).toBe("cancelled");
    const record = JSON.parse((await runMcpx(["tasks", "show", id, "--json"], config)).stdout) as TaskRecord;
    expect(record).toMatchObject({ id, status: "cancelled", statusMessage: expect.stringContaining("mcpx tasks cancel") });
    // The upstream heard it (the fixture says so on its stderr, which mcpx logs).
    await mcpx.waitForLog(`cancelled task ${record.upstreamTaskId} while it was working`, 5_000);
    const again = await runMcpx(["tasks", "cancel", id], config);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("already ended (cancelled");
    const unknown = await runMcpx(["tasks", "show", "modern/nothing"], config);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("no task modern/nothing");
  });

  it("cancel reaches a 2025-11-25 task a 2025-11-25 host follows itself", async () => {
    const host = await legacyHost("cancelled-host");
    try {
      const created = await host.client.request(
        { method: "tools/call", params: { name: "legacy__slow_compute", arguments: { seconds: 60 }, task: {} } },
        CreateTaskResultSchema,
      );
      expect((await runMcpx(["tasks", "cancel", created.task.taskId], config)).code).toBe(0);
      const deadline = Date.now() + 10_000;
      let status = "";
      while (status !== "cancelled" && Date.now() < deadline) {
        status = (await host.client.experimental.tasks.getTask(created.task.taskId)).status;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(status).toBe("cancelled");
    } finally {
      await host.close();
    }
  });
});

describe("a 2025-11-25 host that disconnects and comes back", () => {
  it("finds its tasks by id in its new session, then in its tasks/list, answers their questions and collects them", async () => {
    const first = await legacyHost("leaving-host");
    const start = async (name: string, args: object): Promise<string> =>
      (await first.client.request({ method: "tools/call", params: { name, arguments: args, task: {} } }, CreateTaskResultSchema)).task.taskId;
    const onLegacy = await start("legacy__ask_name", {});
    const onModern = await start("modern__confirm_delete", { filename: "later.txt" });
    // Ends the session (DELETE), as a host that goes away does.
    await first.transport.terminateSession();
    await first.close();

    const back = await legacyHost("returning-host");
    try {
      const stranger = await legacyHost("stranger");
      expect((await stranger.client.experimental.tasks.listTasks()).tasks).toEqual([]);
      await stranger.close();
      expect((await back.client.experimental.tasks.getTask(onLegacy)).taskId).toBe(onLegacy);
      expect((await back.client.experimental.tasks.getTask(onModern)).status).toBe("input_required");
      expect((await back.client.experimental.tasks.listTasks()).tasks.map((task) => task.taskId).sort()).toEqual([onLegacy, onModern].sort());
      const legacyResult = await back.client.experimental.tasks.getTaskResult(onLegacy, CallToolResultSchema);
      expect(textOf(legacyResult)).toBe("Hello, Back Again!");
      const modernResult = await back.client.experimental.tasks.getTaskResult(onModern, CallToolResultSchema);
      expect(textOf(modernResult)).toBe("Deleted later.txt");
      expect(back.requests("elicitation/create")).toHaveLength(2);
    } finally {
      await back.close();
    }
  });
});

describe("mcpx stopping while it follows tasks", () => {
  it("ends each task it can no longer follow failed, saying why; the next mcpx does not know their ids", async () => {
    const started = await Promise.all(
      ["modern__slow_compute", "legacy__slow_compute"].map(async (name) =>
        String((await modern.request("tools/call", { name, arguments: { seconds: 60 } })).result!.taskId),
      ),
    );
    const pid = mcpx.child.pid;
    await mcpx.close();
    const listed = JSON.parse((await runMcpx(["tasks", "list", "--all", "--json"], config)).stdout) as TaskRecord[];
    for (const id of started) {
      expect(listed.find((task) => task.id === id)).toMatchObject({
        status: "failed",
        statusMessage: `mcpx stopped while it followed this task (process ${pid}); it can no longer be reached through mcpx`,
      });
    }
    const next = await startMcpxHttp(config);
    try {
      const reply = await modernHost(next.url).request("tasks/get", { taskId: started[0]! });
      expect(reply.error?.code).toBe(-32602);
    } finally {
      await next.close();
    }
  });
});

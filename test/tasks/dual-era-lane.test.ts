/**
 * A task on the legacy lane of a server that speaks both eras (issue 17): mcpx reaches the
 * server as 2026-07-28 and gives a 2025-11-25 host's calls a legacy connection of their own
 * (upstream/legacy-lane.ts). A 2025-11-25 host that asks for a task gets one from that legacy
 * connection, relayed under mcpx's id and followed there (tasks/get, tasks/result), as from a
 * 2025-11-25 server (test/fixtures/tasks-dual-server.mjs tells which era answered).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { CreateTaskResultSchema } from "@modelcontextprotocol/sdk/experimental/tasks/types.js";
import type { QuestionView } from "../../src/broker/view.js";
import { nodeServer, startMcpxHttp, writeConfig, type RunningMcpx } from "../helpers/mcpx.js";
import { Rest } from "../broker-e2e/support.js";
import { textOf } from "../helpers/upstreams.js";
import { httpHost, type RecordingHost } from "../relay/support.js";

let mcpx: RunningMcpx & { url: URL };
let host: RecordingHost;
let rest: Rest;

beforeAll(async () => {
  mcpx = await startMcpxHttp(writeConfig({ mcpServers: { dual: nodeServer("tasks-dual-server.mjs", []) } }));
  host = await httpHost(mcpx.url, { name: "legacy-host", capabilities: { tasks: {} } });
  rest = Rest.fromLog(mcpx.stderr());
});
afterAll(async () => {
  await host?.close();
  await mcpx?.close();
});

describe("a 2025-11-25 host's task on a dual-era server", () => {
  it("is the legacy lane's task, relayed under mcpx's id: polled and collected there", async () => {
    const created = await host.client.request(
      { method: "tools/call", params: { name: "dual__slow_compute", arguments: { seconds: 0.3 }, task: {} } },
      CreateTaskResultSchema,
    );
    const id = created.task.taskId;
    expect(id).toMatch(/^dual\/[0-9a-f-]{36}$/);
    expect(["working", "completed"]).toContain((await host.client.experimental.tasks.getTask(id)).status);
    const result = await host.client.experimental.tasks.getTaskResult(id, CallToolResultSchema);
    // The 2025-11-25 side's words: the task ran on the legacy connection.
    expect(textOf(result)).toBe("computed in 0.3 s");
    expect((await host.client.experimental.tasks.getTask(id)).status).toBe("completed");
    expect((await host.client.experimental.tasks.listTasks()).tasks.map((task) => task.taskId)).toContain(id);
  });

  it("raises its question through the broker while the host does not wait; answered over REST, the host collects the result", async () => {
    const created = await host.client.request(
      { method: "tools/call", params: { name: "dual__confirm_delete", arguments: { filename: "lane.txt" }, task: {} } },
      CreateTaskResultSchema,
    );
    const deadline = Date.now() + 10_000;
    let question: QuestionView | undefined;
    while (!question && Date.now() < deadline) {
      const listed = (await rest.get("/v1/questions")).body as QuestionView[];
      question = listed.find((view) => view.state === "pending" && view.server === "dual" && view.message === "Delete lane.txt?");
      if (!question) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(question?.tool).toBe("confirm_delete");
    expect((await rest.answer(question!.id, { action: "accept", content: { confirm: true } })).status).toBe(200);
    const result = await host.client.experimental.tasks.getTaskResult(created.task.taskId, CallToolResultSchema);
    expect(textOf(result)).toBe("Deleted lane.txt (the 2025 way)");
  });
});

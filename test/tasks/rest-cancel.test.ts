/**
 * Cancelling a task from REST (issue 17): `POST /v1/tasks/:id/cancel` on `mcpx serve --http`,
 * the process that follows the task. The store says cancelled at once and that process cancels
 * the task upstream, which the owner then hears from the upstream itself (`tasks/get`). A task
 * that ended cannot be cancelled (409 TASK_ENDED); an id mcpx never gave is unknown (404).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CreateTaskResultSchema } from "@modelcontextprotocol/sdk/experimental/tasks/types.js";
import { nodeServer, startMcpxHttp, writeConfig, type RunningMcpx } from "../helpers/mcpx.js";
import { Rest } from "../broker-e2e/support.js";
import { httpHost, type RecordingHost } from "../relay/support.js";

let mcpx: RunningMcpx & { url: URL };
let rest: Rest;
let host: RecordingHost;

beforeAll(async () => {
  mcpx = await startMcpxHttp(writeConfig({ mcpServers: { legacy: nodeServer("tasks-server.mjs", ["--stdio"]) } }));
  rest = Rest.fromLog(mcpx.stderr());
  host = await httpHost(mcpx.url, { name: "legacy-host", capabilities: { tasks: {} } });
});
afterAll(async () => {
  await host?.close();
  await mcpx?.close();
});

async function cancel(id: string): Promise<{ status: number; body: any }> {
  const response = await fetch(new URL(`/v1/tasks/${encodeURIComponent(id)}/cancel`, rest.base), {
    method: "POST",
    headers: { authorization: `Bearer ${rest.token}` },
    signal: AbortSignal.timeout(10_000),
  });
  return { status: response.status, body: await response.json() };
}

describe("POST /v1/tasks/:id/cancel", () => {
  it("cancels a running task upstream; cancelling it again is 409 TASK_ENDED; an unknown id is 404", async () => {
    const created = await host.client.request(
      { method: "tools/call", params: { name: "legacy__slow_compute", arguments: { seconds: 30 }, task: {} } },
      CreateTaskResultSchema,
    );
    const id = created.task.taskId;
    // Past the store watcher's first look (250 ms): this process's own write does not move
    // SQLite's data_version, so only the broker's word reaches the follower.
    await new Promise((resolve) => setTimeout(resolve, 700));
    const cancelled = await cancel(id);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ id, status: "cancelled" });
    // The upstream itself says so: mcpx sent it tasks/cancel.
    const deadline = Date.now() + 5_000;
    let status = "";
    while (Date.now() < deadline && status !== "cancelled") {
      status = (await host.client.experimental.tasks.getTask(id)).status;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toBe("cancelled");
    const again = await cancel(id);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe("TASK_ENDED");
    const unknown = await cancel("legacy/never");
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe("UNKNOWN_TASK");
  });
});

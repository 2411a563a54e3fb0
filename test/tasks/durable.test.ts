/**
 * The store's record of the tasks mcpx relays (migration 7): written as a host's task is relayed
 * and as mcpx hears how it stands; and when the mcpx that followed a task dies, the next mcpx on
 * the same state dir marks the task failed, saying why, rather than leave it "working".
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { CreateTaskResultSchema } from "@modelcontextprotocol/sdk/experimental/tasks/types.js";
import { SqliteStore } from "../../src/broker/sqlite/sqlite-store.js";
import type { TaskRecord } from "../../src/broker/task-store.js";
import { startMcpxHttp, writeConfig, type RunningMcpx, type TempConfig } from "../helpers/mcpx.js";
import { runMcpx, startHttpFixture, type HttpFixture } from "../helpers/upstreams.js";
import { type Frame, httpHost, type RecordingHost } from "../relay/support.js";

let upstream: HttpFixture;
let config: TempConfig;
const running: Array<RunningMcpx & { url: URL }> = [];
let host: RecordingHost;

beforeAll(async () => {
  upstream = await startHttpFixture("tasks-server.mjs", {}, ["--http"]);
  config = writeConfig({ mcpServers: { work: { url: upstream.url } } });
  running.push(await startMcpxHttp(config));
  host = await httpHost(running[0]!.url, { capabilities: { tasks: {} } });
});
afterAll(async () => {
  await host?.close().catch(() => {});
  for (const mcpx of running) await mcpx.close();
  await upstream?.close();
});

async function storedTasks(): Promise<TaskRecord[]> {
  const store = SqliteStore.open(config.env.MCPX_STATE_DIR!);
  try {
    return await store.tasks.all();
  } finally {
    await store.close();
  }
}

async function startTask(name: string, args: object): Promise<string> {
  const created = await host.client.request({ method: "tools/call", params: { name, arguments: args, task: { ttl: 60_000 } } }, CreateTaskResultSchema);
  return created.task.taskId;
}

describe("tasks in the store", () => {
  let slow: string;
  let quick: string;

  it("records each relayed task: its owner, upstream, the upstream's id, and its status as last heard", async () => {
    slow = await startTask("work__slow_compute", { seconds: 20 });
    quick = await startTask("work__slow_echo", { text: "quick", ms: 50 });
    await host.client.experimental.tasks.getTaskResult(quick, CallToolResultSchema);
    await host.waitFor((frame) => frame.method === "notifications/tasks/status" && (frame.params as Frame).taskId === quick);
    const byId = new Map((await storedTasks()).map((task) => [task.id, task]));
    expect(byId.get(slow)).toMatchObject({ identity: "local", server: "work", tool: "slow_compute", status: "working", followerPid: running[0]!.child.pid });
    expect(byId.get(slow)?.upstreamTaskId).not.toBe(slow);
    expect(byId.get(slow)?.hostSession).toMatch(/\S/);
    expect(byId.get(quick)).toMatchObject({ tool: "slow_echo", status: "completed" });
    // `mcpx tasks list` shows the one still running.
    const listed = await runMcpx(["tasks", "list", "--json"], config);
    expect(listed.code).toBe(0);
    expect((JSON.parse(listed.stdout) as TaskRecord[]).map((task) => [task.id, task.status])).toEqual([[slow, "working"]]);
  });

  it("a task whose mcpx died is marked failed by the next mcpx, saying why; an ended one stays as it ended", async () => {
    const first = running[0]!;
    const pid = first.child.pid;
    const exited = new Promise<void>((resolve) => first.child.once("exit", () => resolve()));
    first.child.kill("SIGKILL");
    await exited;
    running.push(await startMcpxHttp(config));
    const byId = new Map((await storedTasks()).map((task) => [task.id, task]));
    expect(byId.get(slow)?.status).toBe("failed");
    expect(byId.get(slow)?.statusMessage).toBe(`the mcpx process that followed this task (process ${pid}) is gone; it can no longer be reached through mcpx`);
    expect(byId.get(quick)?.status).toBe("completed");
    const listed = await runMcpx(["tasks", "list", "--all"], config);
    expect(listed.stdout).toMatch(new RegExp(`${slow}\\s+slow_compute\\s+failed .*is gone`));
    expect((await runMcpx(["tasks", "list"], config)).stdout).toBe("no tasks running (--all shows ended ones)\n");
  });
});

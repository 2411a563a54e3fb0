/**
 * The store's record of relayed tasks (migration 7, broker/task-store.ts): what is kept of each,
 * and a task whose following process stopped or is gone is marked failed with a status message
 * saying so, never left "working"; a task that had ended stays as it ended.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { NewTask } from "../../src/broker/task-store.js";
import { deadPid, openBroker, type OpenBroker } from "./support.js";

const opened: OpenBroker[] = [];
afterEach(async () => {
  for (const open of opened.splice(0)) await open.close();
});

function fresh(dir?: string): OpenBroker {
  const open = openBroker(dir);
  opened.push(open);
  return open;
}

function task(id: string, status = "working"): NewTask {
  return {
    id,
    identity: "local",
    hostSession: "host-1",
    server: "work",
    tool: "slow_compute",
    upstreamTaskId: `upstream-${id}`,
    status,
    createdMs: Date.now(),
    expiresMs: Date.now() + 60_000,
  };
}

describe("the task store", () => {
  it("keeps whose a task is, where it runs and how it stood when last heard of", async () => {
    const { broker, store } = fresh();
    await broker.recordTask(task("work/1"));
    await broker.taskHeard("work/1", "input_required", "waiting for a name");
    expect(await store.tasks.get("work/1")).toMatchObject({
      id: "work/1",
      identity: "local",
      hostSession: "host-1",
      server: "work",
      tool: "slow_compute",
      upstreamTaskId: "upstream-work/1",
      status: "input_required",
      statusMessage: "waiting for a name",
      followerPid: process.pid,
      followerInstance: broker.instance,
    });
  });

  it("marks the tasks of a follower that is gone failed, saying why, at the next sweep of any process", async () => {
    const { broker, store } = fresh();
    const pid = await deadPid();
    await store.tasks.record(task("work/gone"), { pid, instance: "a-gone-instance" });
    await store.tasks.record(task("work/ended", "completed"), { pid, instance: "a-gone-instance" });
    await broker.recordTask(task("work/mine"));
    await broker.sweep();
    const gone = await store.tasks.get("work/gone");
    expect(gone?.status).toBe("failed");
    expect(gone?.statusMessage).toMatch(new RegExp(`process ${pid}\\) is gone; it can no longer be reached through mcpx`));
    expect((await store.tasks.get("work/ended"))?.status).toBe("completed");
    expect((await store.tasks.get("work/mine"))?.status).toBe("working");
  });

  it("marks the tasks a process followed failed when it stops, and what it hears after that changes nothing", async () => {
    const { broker, store } = fresh();
    await broker.recordTask(task("work/followed"));
    await broker.stop();
    const stopped = await store.tasks.get("work/followed");
    expect(stopped?.status).toBe("failed");
    expect(stopped?.statusMessage).toMatch(/mcpx stopped while it followed this task/);
    await broker.taskHeard("work/followed", "completed", undefined);
    expect((await store.tasks.get("work/followed"))?.status).toBe("failed");
  });
});

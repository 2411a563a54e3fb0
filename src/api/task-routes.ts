/**
 * The tasks mcpx relayed for hosts, on the REST API (broker/task-store.ts), scoped as questions
 * are: each caller sees its own identity's tasks only; another identity's is unknown (404).
 *
 *   GET /v1/tasks[?all=1]   → [task record] (running ones; with all=1 ended ones too), oldest first
 *   GET /v1/tasks/:id       → task record | 404 UNKNOWN_TASK
 *   POST /v1/tasks/:id/cancel → task record (cancelled) | 404 UNKNOWN_TASK | 409 TASK_ENDED
 *     the store says cancelled at once; the mcpx process that follows the task cancels it
 *     upstream (this one, or another watching the store), as `mcpx tasks cancel` does.
 */
import type { ServerResponse } from "node:http";
import type { Broker } from "../broker/broker.js";
import type { TaskRecord } from "../broker/task-store.js";
import { sendApiError, sendJson } from "./http.js";

const ENDED = ["completed", "failed", "cancelled"];

export async function cancelTask(response: ServerResponse, broker: Broker, identity: string, id: string): Promise<void> {
  const task = await broker.store.tasks.get(id);
  if (task === undefined || task.identity !== identity) {
    sendApiError(response, 404, "UNKNOWN_TASK", `no task ${JSON.stringify(id)}`);
    return;
  }
  const why = `cancelled through the REST API; the mcpx process that follows it (process ${task.followerPid}) cancels it upstream`;
  if (ENDED.includes(task.status) || !(await broker.cancelTask(id, why))) {
    // Ended before, or meanwhile: say how, as `mcpx tasks cancel` does.
    const now = (await broker.store.tasks.get(id)) ?? task;
    const message = now.statusMessage ? `: ${now.statusMessage}` : "";
    sendApiError(response, 409, "TASK_ENDED", `task ${JSON.stringify(id)} already ended (${now.status}${message})`);
    return;
  }
  sendJson(response, 200, (await broker.store.tasks.get(id)) ?? task);
}

export async function serveTasks(response: ServerResponse, broker: Broker, identity: string, url: URL, id?: string): Promise<void> {
  const own = (task: TaskRecord | undefined): task is TaskRecord => task !== undefined && task.identity === identity;
  if (id !== undefined) {
    const task = await broker.store.tasks.get(id);
    if (own(task)) sendJson(response, 200, task);
    else sendApiError(response, 404, "UNKNOWN_TASK", `no task ${JSON.stringify(id)}`);
    return;
  }
  const all = ["1", "true"].includes(url.searchParams.get("all") ?? "");
  sendJson(
    response,
    200,
    (await broker.store.tasks.all()).filter((task) => own(task) && (all || !ENDED.includes(task.status))),
  );
}

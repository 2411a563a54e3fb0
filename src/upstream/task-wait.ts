/**
 * A 2026-07-28 upstream's task, waited for on behalf of a caller that cannot take one (a legacy
 * host, a modern host that did not declare the tasks extension, a command, a script): mcpx polls
 * `tasks/get` and gives the caller the task's result as an ordinary result, as a direct
 * connection's SDK would. The task's questions (`inputRequests`) are asked as any input request
 * is (the broker, the calling host), each answer sent back with `tasks/update`. The wait has the
 * call's timeout, paused while a question waits for a person; a caller that gives up cancels
 * the task.
 */
import { GatewayError, RpcError } from "../protocol/errors.js";
import { isObject, type JsonObject } from "../protocol/jsonrpc.js";
import { contentOf, inputResponse } from "../protocol/modern.js";
import { isTerminalStatus, pendingInputRequests } from "../protocol/modern-tasks.js";
import { withoutRelatedTask } from "../protocol/related-task.js";
import { sleep } from "../util/sleep.js";

export interface TaskWait {
  server: string;
  /** The CreateTaskResult. */
  created: JsonObject;
  /** How long the wait may take, questions aside (the call's timeout). */
  timeoutMs: number;
  signal: AbortSignal | undefined;
  /** One request about the task to the server (the envelope is the sender's); its raw result. */
  send(method: string, params: JsonObject): Promise<JsonObject>;
  /** Ask one input request and give back the answer; stop asking when `signal` aborts. */
  ask(key: string, request: JsonObject, signal: AbortSignal): Promise<JsonObject>;
}

const MIN_POLL_MS = 50;
const MAX_POLL_MS = 5_000;

export async function waitForTask(wait: TaskWait): Promise<JsonObject> {
  const { server, created } = wait;
  const taskId = String(created.taskId);
  const interval = Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, typeof created.pollIntervalMs === "number" ? created.pollIntervalMs : 500));
  const stop = new AbortController();
  const abort = (): void => stop.abort(wait.signal?.reason);
  wait.signal?.addEventListener("abort", abort, { once: true });
  /** Keys being asked now: asked once each, however many polls see them. */
  const asking = new Set<string>();
  let deadline = Date.now() + wait.timeoutMs;
  let ended = false;
  try {
    let task = created;
    for (;;) {
      if (isTerminalStatus(task.status)) {
        ended = true;
        return finished(server, taskId, task);
      }
      for (const [key, request] of Object.entries(pendingInputRequests(task))) {
        if (asking.has(key)) continue;
        asking.add(key);
        void wait
          .ask(key, request, stop.signal)
          .then((answer) => wait.send("tasks/update", { taskId, inputResponses: { [key]: inputResponse(String(request.method), answer) } }))
          .catch((error: unknown) => {
            if (!stop.signal.aborted) stop.abort(error);
          })
          .finally(() => asking.delete(key));
      }
      // A question waiting for a person does not use up the call's time.
      if (asking.size > 0) deadline = Math.max(deadline, Date.now() + interval * 2);
      if (Date.now() > deadline) {
        throw new GatewayError("UPSTREAM_TIMEOUT", `upstream "${server}" task ${taskId} did not finish within the call's timeout; mcpx cancelled it`, {
          server,
          taskId,
        });
      }
      await sleep(interval, stop.signal);
      if (stop.signal.aborted) throw stop.signal.reason instanceof Error ? stop.signal.reason : new GatewayError("CANCELLED", "the call was cancelled");
      task = contentOf(await wait.send("tasks/get", { taskId }));
    }
  } catch (error) {
    stop.abort(error);
    if (!ended) void wait.send("tasks/cancel", { taskId }).catch(() => {});
    throw error;
  } finally {
    wait.signal?.removeEventListener("abort", abort);
  }
}

/** A task that ended: its result (completed), its error (failed), or an error saying it was cancelled. */
function finished(server: string, taskId: string, task: JsonObject): JsonObject {
  if (task.status === "completed" && isObject(task.result)) return contentOf(task.result);
  if (task.status === "failed" && isObject(task.error)) {
    const { code, message, data } = task.error;
    throw new RpcError(typeof code === "number" ? code : -32603, typeof message === "string" ? message : `upstream "${server}" task ${taskId} failed`, data);
  }
  throw new GatewayError("UPSTREAM_PROTOCOL", `upstream "${server}" task ${taskId} ended ${String(task.status)} without a result`, {
    server,
    taskId,
    status: task.status,
  });
}

/**
 * A 2025-11-25 upstream's tool call that runs as a task although its caller asked for none:
 * mcpx asked for the task itself (a tool whose `execution.taskSupport` is "required", called by
 * a caller that cannot take a task), or the server made one unasked. The caller gets the task's
 * result as an ordinary result: mcpx waits on `tasks/result` (where a 2025 server delivers the
 * task's questions, asked of the caller as any of its call's), within the call's timeout
 * (paused while a question waits for a person); a wait that fails or is given up cancels the
 * task where the server takes `tasks/cancel`.
 */
export interface LegacyTaskWait {
  server: string;
  /** The CreateTaskResult (`{task}`). */
  created: JsonObject;
  /** The server takes `tasks/cancel`. */
  cancels: boolean;
  /** One request about the task to the server, as the caller's call (its owner, timeout, cancellation). */
  send(method: string, params: JsonObject): Promise<JsonObject>;
}

/** The server's tools that must run as a task (`execution.taskSupport` "required"). */
export function requiresTask(tools: readonly JsonObject[], name: unknown): boolean {
  const tool = tools.find((candidate) => candidate.name === name);
  return isObject(tool?.execution) && tool.execution.taskSupport === "required";
}

/** A 2025-11-25 CreateTaskResult (a task, no tool result). */
export function isLegacyCreatedTask(result: JsonObject): boolean {
  return isObject(result.task) && typeof result.task.taskId === "string" && !("content" in result);
}

export async function waitForLegacyTask(wait: LegacyTaskWait): Promise<JsonObject> {
  const taskId = String((wait.created.task as JsonObject).taskId);
  try {
    return withoutRelatedTask(await wait.send("tasks/result", { taskId }));
  } catch (error) {
    if (wait.cancels) void wait.send("tasks/cancel", { taskId }).catch(() => {});
    if (error instanceof GatewayError && error.code === "UPSTREAM_TIMEOUT") {
      throw new GatewayError("UPSTREAM_TIMEOUT", `upstream "${wait.server}" task ${taskId} did not finish within the call's timeout; mcpx cancelled it`, {
        server: wait.server,
        taskId,
      });
    }
    throw error;
  }
}

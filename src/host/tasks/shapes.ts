/**
 * A task in each era's shape. 2025-11-25 core tasks: a `Task` (`ttl`, `pollInterval`, the
 * result apart, on `tasks/result`), created as `{task: Task}`. The 2026 extension: a flat
 * CreateTaskResult (`resultType: "task"`, `ttlMs`, `pollIntervalMs`) and a DetailedTask on
 * `tasks/get` that inlines the result or error once the task ends and the `inputRequests` while
 * it waits. A task mcpx relays across eras is shown to its owner in the owner's shape. Pure.
 */
import { isObject, type JsonObject } from "../../protocol/jsonrpc.js";
import { withoutRelatedTask } from "../../protocol/related-task.js";

/** The statuses both eras share. */
const STATUSES: readonly string[] = ["working", "input_required", "completed", "failed", "cancelled"];

function statusOf(fields: JsonObject): string {
  return typeof fields.status === "string" && STATUSES.includes(fields.status) ? fields.status : "working";
}

function integerOrUndefined(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? Math.max(1, Math.round(value)) : undefined;
}

/** A 2025-11-25 Task from either era's fields, under `taskId`. */
export function legacyTask(fields: JsonObject, taskId: string, status = statusOf(fields)): JsonObject {
  const ttl = fields.ttl !== undefined ? fields.ttl : fields.ttlMs;
  const pollInterval = integerOrUndefined(fields.pollInterval ?? fields.pollIntervalMs);
  const now = new Date().toISOString();
  return {
    taskId,
    status,
    ...(typeof fields.statusMessage === "string" ? { statusMessage: fields.statusMessage } : {}),
    createdAt: typeof fields.createdAt === "string" ? fields.createdAt : now,
    lastUpdatedAt: typeof fields.lastUpdatedAt === "string" ? fields.lastUpdatedAt : now,
    ttl: typeof ttl === "number" ? Math.round(ttl) : null,
    ...(pollInterval !== undefined ? { pollInterval } : {}),
  };
}

/** The 2026 extension's Task fields (no resultType, no result) from either era's, under `taskId`. */
export function modernTask(fields: JsonObject, taskId: string, status = statusOf(fields)): JsonObject {
  const ttl = fields.ttlMs !== undefined ? fields.ttlMs : fields.ttl;
  const pollIntervalMs = integerOrUndefined(fields.pollIntervalMs ?? fields.pollInterval);
  const now = new Date().toISOString();
  return {
    taskId,
    status,
    ...(typeof fields.statusMessage === "string" ? { statusMessage: fields.statusMessage } : {}),
    createdAt: typeof fields.createdAt === "string" ? fields.createdAt : now,
    lastUpdatedAt: typeof fields.lastUpdatedAt === "string" ? fields.lastUpdatedAt : now,
    ttlMs: typeof ttl === "number" ? Math.max(1, Math.round(ttl)) : null,
    ...(pollIntervalMs !== undefined ? { pollIntervalMs } : {}),
  };
}

/** The 2026 CreateTaskResult for a task of either era. */
export function modernCreated(fields: JsonObject, taskId: string): JsonObject {
  return { resultType: "task", ...modernTask(fields, taskId) };
}

/** How a task ended, in neither era's shape: the tool's result, or a protocol error. */
export type TaskEnd = { status: "completed"; result: JsonObject } | { status: "failed"; error: JsonObject } | { status: "cancelled" };

/**
 * A 2025-11-25 task's end, from its `tasks/result` (the tool's result) and its status. The
 * extension keeps "failed" for protocol errors: a 2025 tool task that failed with a tool result
 * (`isError`) ended as the extension's "completed" with that result.
 */
export function legacyEnd(result: JsonObject): TaskEnd {
  return { status: "completed", result: withoutRelatedTask(result) };
}

/** A 2026 DetailedTask's end (undefined while it runs). */
export function modernEnd(task: JsonObject): TaskEnd | undefined {
  if (task.status === "completed" && isObject(task.result)) return { status: "completed", result: withoutResultType(task.result) };
  if (task.status === "failed") return { status: "failed", error: isObject(task.error) ? task.error : { code: -32603, message: "the task failed" } };
  if (task.status === "cancelled") return { status: "cancelled" };
  return undefined;
}

/** The DetailedTask of the extension for a task mcpx follows: its fields, and what it ended with or waits for. */
export function detailedTask(fields: JsonObject, taskId: string, end: TaskEnd | undefined, inputRequests: Record<string, JsonObject>): JsonObject {
  if (end) {
    const base = modernTask(fields, taskId, end.status);
    // The inlined result is a 2026 CallToolResult, which names its resultType.
    if (end.status === "completed") return { resultType: "complete", ...base, result: { resultType: "complete", ...end.result } };
    if (end.status === "failed") return { resultType: "complete", ...base, error: end.error };
    return { resultType: "complete", ...base };
  }
  const waiting = Object.keys(inputRequests).length > 0;
  // A task the upstream says is waiting for input whose questions mcpx has all answered (the answers on their way) works.
  const status = waiting ? "input_required" : statusOf(fields) === "input_required" || isTerminalStatus(fields) ? "working" : statusOf(fields);
  return { resultType: "complete", ...modernTask(fields, taskId, status), ...(waiting ? { inputRequests } : {}) };
}

/** A terminal status mcpx has not yet got the end of (its result is on its way): shown as working. */
function isTerminalStatus(fields: JsonObject): boolean {
  return ["completed", "failed", "cancelled"].includes(statusOf(fields));
}

function withoutResultType(result: JsonObject): JsonObject {
  const { resultType: _type, ...rest } = result;
  return rest;
}

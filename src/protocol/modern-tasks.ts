/**
 * The 2026-07-28 tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663): a server may
 * answer a `tools/call` with `resultType: "task"` (a flat CreateTaskResult) when the request
 * declared the extension; the client polls `tasks/get` (the result or error inlined once the
 * task ends, `inputRequests` while it waits for input), answers with `tasks/update` and may
 * `tasks/cancel`. Pure: the names and shapes both sides of mcpx read.
 */
import { isObject, type JsonObject } from "./jsonrpc.js";

export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

/** The extension's methods (2025-11-25's `tasks/result` and `tasks/list` are gone from it). */
export const MODERN_TASK_METHODS: readonly string[] = ["tasks/get", "tasks/update", "tasks/cancel"];

const TERMINAL: readonly string[] = ["completed", "failed", "cancelled"];

/** Capabilities (a server's, or a request's client capabilities) that name the extension. */
export function declaresTasksExtension(capabilities: unknown): boolean {
  const extensions = isObject(capabilities) ? capabilities.extensions : undefined;
  return isObject(extensions) && isObject(extensions[TASKS_EXTENSION]);
}

/** Client capabilities with the extension added. */
export function withTasksExtension(capabilities: JsonObject): JsonObject {
  const extensions = isObject(capabilities.extensions) ? capabilities.extensions : {};
  return { ...capabilities, extensions: { ...extensions, [TASKS_EXTENSION]: {} } };
}

/** What a server that requires a task answers a client that did not declare the extension (the data of -32021). */
export const TASKS_REQUIRED = { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } };

/** A result that created a task (a CreateTaskResult: the Task's fields at the top level). */
export function isCreatedTask(result: JsonObject): boolean {
  return result.resultType === "task" && typeof result.taskId === "string";
}

export function isTerminalStatus(status: unknown): boolean {
  return typeof status === "string" && TERMINAL.includes(status);
}

/** A DetailedTask's pending input requests (`tasks/get` on an `input_required` task). */
export function pendingInputRequests(task: JsonObject): Record<string, JsonObject> {
  if (task.status !== "input_required" || !isObject(task.inputRequests)) return {};
  const pending: Record<string, JsonObject> = {};
  for (const [key, request] of Object.entries(task.inputRequests)) if (isObject(request) && typeof request.method === "string") pending[key] = request;
  return pending;
}

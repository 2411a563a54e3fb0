/**
 * The `io.modelcontextprotocol/related-task` metadata of 2025-11-25 tasks: every request,
 * notification and result about a task carries the task's id there. Pure.
 */
import { isObject, type JsonObject } from "./jsonrpc.js";

export const RELATED_TASK = "io.modelcontextprotocol/related-task";

/** The task id a message's related-task metadata names, if any. */
export function relatedTaskId(params: unknown): string | undefined {
  const meta = isObject(params) && isObject(params._meta) ? params._meta : undefined;
  const related = meta && isObject(meta[RELATED_TASK]) ? meta[RELATED_TASK] : undefined;
  return typeof related?.taskId === "string" ? related.taskId : undefined;
}

/** The same params or result with its related-task metadata naming `id` instead. */
export function withRelatedTask(params: JsonObject, id: string): JsonObject {
  const meta = isObject(params._meta) ? params._meta : {};
  const related = isObject(meta[RELATED_TASK]) ? meta[RELATED_TASK] : {};
  return { ...params, _meta: { ...meta, [RELATED_TASK]: { ...related, taskId: id } } };
}

/** The same params or result without related-task metadata (for one who never heard of the task). */
export function withoutRelatedTask(params: JsonObject): JsonObject {
  if (!isObject(params._meta) || !(RELATED_TASK in params._meta)) return params;
  const { [RELATED_TASK]: _dropped, ...meta } = params._meta;
  const { _meta: _old, ...rest } = params;
  return Object.keys(meta).length > 0 ? { ...rest, _meta: meta } : rest;
}

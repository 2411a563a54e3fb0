/**
 * The tasks mcpx relayed for hosts (2025-11-25 tasks, host/tasks/), as the store keeps them:
 * whose each is, the upstream and its id there, how it stood when last heard of, and which
 * process follows it. Only the process that relayed a task can reach it (it holds the upstream
 * connection), so a task whose process is gone, or stopped, can no longer be followed: it is
 * marked failed, saying so, rather than left "working" for ever.
 * The record's shape; each store keeps it its own way (SQLite: sqlite/task-table.ts).
 */

export type StoredTaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";
/** The statuses a task does not leave. */
export const TERMINAL_TASK_STATUSES: readonly string[] = ["completed", "failed", "cancelled"];

export interface TaskRecord {
  /** mcpx's id for it, the one its host knows. */
  id: string;
  identity: string;
  hostSession?: string;
  server: string;
  tool: string;
  upstreamTaskId: string;
  status: string;
  statusMessage?: string;
  createdAt: string;
  lastPolledAt: string;
  expiresAt?: string;
  followerPid: number;
  followerInstance: string;
}

/** What a process records when it relays a task. */
export interface NewTask {
  id: string;
  identity: string;
  /** Undefined when no session owns it (its identity does). */
  hostSession: string | undefined;
  server: string;
  tool: string;
  upstreamTaskId: string;
  status: string;
  createdMs: number;
  expiresMs: number | undefined;
}

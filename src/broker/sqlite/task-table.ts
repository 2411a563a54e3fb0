/** The tasks mcpx relayed for hosts (broker/task-store.ts) in the SQLite store's `tasks` table. */
import type Database from "better-sqlite3";
import type { Owner, TaskTable } from "../store-api.js";
import { type NewTask, TERMINAL_TASK_STATUSES, type TaskRecord } from "../task-store.js";

interface Row {
  id: string;
  identity: string;
  host_session: string | null;
  server: string;
  tool: string;
  upstream_task_id: string;
  status: string;
  status_message: string | null;
  created_ms: number;
  last_poll_ms: number;
  expires_ms: number | null;
  owner_pid: number;
  owner_instance: string;
}

const NOT_TERMINAL = `status NOT IN (${TERMINAL_TASK_STATUSES.map((status) => `'${status}'`).join(", ")})`;

export class SqliteTaskTable implements TaskTable {
  readonly #insert;
  readonly #heard;
  readonly #get;
  readonly #all;
  readonly #followers;
  readonly #unfollow;
  readonly #old;
  readonly #cancel;

  constructor(db: Database.Database) {
    this.#insert = db.prepare(
      `INSERT INTO tasks (id, identity, host_session, server, tool, upstream_task_id, status, created_ms, last_poll_ms, expires_ms, owner_pid, owner_instance)
       VALUES (@id, @identity, @host_session, @server, @tool, @upstream_task_id, @status, @created_ms, @last_poll_ms, @expires_ms, @owner_pid, @owner_instance)`,
    );
    // What the follower heard; a task already ended (by the upstream, or as unfollowable) stays as it ended.
    this.#heard = db.prepare(`UPDATE tasks SET status = ?, status_message = ?, last_poll_ms = ? WHERE id = ? AND ${NOT_TERMINAL}`);
    this.#get = db.prepare(`SELECT * FROM tasks WHERE id = ?`);
    this.#all = db.prepare(`SELECT * FROM tasks ORDER BY created_ms`);
    this.#followers = db.prepare(`SELECT DISTINCT owner_pid, owner_instance FROM tasks WHERE ${NOT_TERMINAL}`);
    this.#unfollow = db.prepare(`UPDATE tasks SET status = 'failed', status_message = ?, last_poll_ms = ? WHERE owner_instance = ? AND ${NOT_TERMINAL}`);
    this.#cancel = db.prepare(`UPDATE tasks SET status = 'cancelled', status_message = ?, last_poll_ms = ? WHERE id = ? AND ${NOT_TERMINAL}`);
    this.#old = db.prepare(`DELETE FROM tasks WHERE created_ms < ? AND (${TERMINAL_TASK_STATUSES.map((status) => `status = '${status}'`).join(" OR ")})`);
  }

  async record(task: NewTask, follower: Owner): Promise<void> {
    this.#insert.run({
      id: task.id,
      identity: task.identity,
      host_session: task.hostSession ?? null,
      server: task.server,
      tool: task.tool,
      upstream_task_id: task.upstreamTaskId,
      status: task.status,
      created_ms: task.createdMs,
      last_poll_ms: Date.now(),
      expires_ms: task.expiresMs ?? null,
      owner_pid: follower.pid,
      owner_instance: follower.instance,
    });
  }

  /** The follower heard how the task stands. */
  async heard(id: string, status: string, statusMessage: string | undefined): Promise<void> {
    this.#heard.run(status, statusMessage ?? null, Date.now(), id);
  }

  async get(id: string): Promise<TaskRecord | undefined> {
    const row = this.#get.get(id) as Row | undefined;
    return row && recordOf(row);
  }

  /** Every task, oldest first. */
  async all(): Promise<TaskRecord[]> {
    return (this.#all.all() as Row[]).map(recordOf);
  }

  /** The processes following tasks not yet ended. */
  async followers(): Promise<Owner[]> {
    return (this.#followers.all() as Array<{ owner_pid: number; owner_instance: string }>).map((row) => ({ pid: row.owner_pid, instance: row.owner_instance }));
  }

  /** The tasks `instance` followed and that had not ended: failed, with `why` as their status message. Returns how many. */
  async unfollowable(instance: string, why: string): Promise<number> {
    return this.#unfollow.run(why, Date.now(), instance).changes;
  }

  /**
   * A person cancels the task from another process (`mcpx tasks cancel`): the store says so at
   * once, and the process that follows it, which watches the store, cancels it upstream. Whether
   * it was still running.
   */
  async requestCancel(id: string, why: string): Promise<boolean> {
    return this.#cancel.run(why, Date.now(), id).changes > 0;
  }

  /** Remove ended tasks created before `beforeMs`. */
  async prune(beforeMs: number): Promise<void> {
    this.#old.run(beforeMs);
  }
}

function recordOf(row: Row): TaskRecord {
  return {
    id: row.id,
    identity: row.identity,
    ...(row.host_session !== null ? { hostSession: row.host_session } : {}),
    server: row.server,
    tool: row.tool,
    upstreamTaskId: row.upstream_task_id,
    status: row.status,
    ...(row.status_message !== null ? { statusMessage: row.status_message } : {}),
    createdAt: new Date(row.created_ms).toISOString(),
    lastPolledAt: new Date(row.last_poll_ms).toISOString(),
    ...(row.expires_ms !== null ? { expiresAt: new Date(row.expires_ms).toISOString() } : {}),
    followerPid: row.owner_pid,
    followerInstance: row.owner_instance,
  };
}

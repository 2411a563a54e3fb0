/**
 * The tasks mcpx relayed for hosts (2025-11-25 core tasks): which upstream connection runs each,
 * under which id there, and who owns it.
 *
 * A host sees an id mcpx minted (`<server>/<uuid>`), never the upstream's: ids are unique across
 * upstreams, and an id is only ever looked up together with its owner, so a host that learns or
 * guesses another's id is told the task is unknown, as for an id that never existed (design
 * rule 5: a thing goes only to who may see it). The owner is the host session that created the
 * task, or, for a host that signed in as an identity, that identity (any of its sessions).
 */
import { randomUUID } from "node:crypto";
import { isObject, type JsonObject } from "../../protocol/jsonrpc.js";
import type { Upstream } from "../../upstream/upstream.js";
import { LOCAL_IDENTITY } from "../../broker/identity.js";
import type { CallerContext, HostSession } from "../session.js";

/** The statuses 2025-11-25 defines; the last three are terminal. */
export type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";
const TERMINAL: readonly string[] = ["completed", "failed", "cancelled"];

export function isTerminal(status: unknown): boolean {
  return typeof status === "string" && TERMINAL.includes(status);
}

/** One task a host created through mcpx. */
export interface RelayedTask {
  /** The id the owning host knows it by. */
  readonly id: string;
  /** Who may see and touch it (`ownerKey`). */
  readonly owner: string;
  /** The session that created it, or the owner's latest one to touch it: where its status notifications go. */
  session: HostSession;
  /** The connection the task runs on: every request about it goes there. */
  readonly upstream: Upstream;
  readonly server: string;
  readonly upstreamId: string;
  /** The upstream's own name of the tool the task runs. */
  readonly tool: string;
  status: string;
  /** The Task as the upstream last described it, under the host's id (what `tasks/list` shows when the upstream cannot be asked). */
  last: JsonObject;
  readonly createdAt: string;
  /** When mcpx last heard how it is (a poll, a notification), ISO 8601. */
  lastPolledAt: string;
  /** When the upstream may forget it (creation + its `ttl`); undefined: kept as long as mcpx runs. */
  readonly expiresAt: number | undefined;
  /** Host requests waiting on `tasks/result` for it now: a question of the task travels with the latest. */
  readonly waiting: Set<CallerContext>;
}

/** Who owns what a session creates: its identity when it signed in as one, else the session itself. */
export function ownerKey(session: HostSession): string {
  return session.identity === LOCAL_IDENTITY ? `session:${session.id}` : `identity:${session.identity}`;
}

/** Where the registry writes down what it relays and hears (the store: records.ts); optional, as the store is. */
export interface TaskRecorder {
  created(task: RelayedTask): void;
  heard(task: RelayedTask): void;
}

export class TaskRegistry {
  constructor(private readonly recorder?: TaskRecorder) {}

  readonly #byId = new Map<string, RelayedTask>();
  /** By connection, then the upstream's id: for what the upstream says about a task. */
  readonly #byUpstream = new Map<Upstream, Map<string, RelayedTask>>();

  /** Remember a task `session` created on `upstream`, from the `task` of the upstream's CreateTaskResult. */
  add(session: HostSession, upstream: Upstream, tool: string, task: JsonObject): RelayedTask {
    const upstreamId = String(task.taskId);
    const now = new Date().toISOString();
    const createdAt = typeof task.createdAt === "string" ? task.createdAt : now;
    const ttl = typeof task.ttl === "number" ? task.ttl : undefined;
    const id = `${upstream.name}/${randomUUID()}`;
    const relayed: RelayedTask = {
      id,
      owner: ownerKey(session),
      session,
      upstream,
      server: upstream.name,
      upstreamId,
      tool,
      status: typeof task.status === "string" ? task.status : "working",
      last: taskFields(task, id),
      createdAt,
      lastPolledAt: now,
      expiresAt: ttl === undefined ? undefined : Date.parse(createdAt) + ttl,
      waiting: new Set(),
    };
    this.#byId.set(relayed.id, relayed);
    let mine = this.#byUpstream.get(upstream);
    if (!mine) this.#byUpstream.set(upstream, (mine = new Map()));
    mine.set(upstreamId, relayed);
    this.recorder?.created(relayed);
    return relayed;
  }

  /** The task `session` knows by `id`, if it is its owner's; the session becomes the one its news goes to. */
  ownedBy(session: HostSession, id: unknown): RelayedTask | undefined {
    this.#expire();
    const task = typeof id === "string" ? this.#byId.get(id) : undefined;
    if (!task || task.owner !== ownerKey(session)) return undefined;
    task.session = session;
    return task;
  }

  /** Every task `session`'s owner has, oldest first. */
  allOwnedBy(session: HostSession): RelayedTask[] {
    this.#expire();
    const owner = ownerKey(session);
    return [...this.#byId.values()].filter((task) => task.owner === owner);
  }

  /** The task `upstream` knows by `upstreamId`, if mcpx relayed it. */
  byUpstreamId(upstream: Upstream, upstreamId: unknown): RelayedTask | undefined {
    this.#expire();
    return typeof upstreamId === "string" ? this.#byUpstream.get(upstream)?.get(upstreamId) : undefined;
  }

  /** The upstream no longer has it (it said so, or its time is up). */
  forget(task: RelayedTask): void {
    this.#byId.delete(task.id);
    const mine = this.#byUpstream.get(task.upstream);
    mine?.delete(task.upstreamId);
    if (mine?.size === 0) this.#byUpstream.delete(task.upstream);
  }

  /**
   * The session has ended: its own tasks can be asked about by nobody any more (an identity's
   * stay, for its other sessions). The upstream's tasks run on; only mcpx's ids for them go.
   */
  sessionEnded(session: HostSession): void {
    const owner = `session:${session.id}`;
    for (const task of this.#byId.values()) if (task.owner === owner) this.forget(task);
  }

  /** Note what the upstream said of the task (a Task object: a poll's answer, a notification). */
  heard(task: RelayedTask, fields: JsonObject): void {
    if (typeof fields.status === "string") {
      task.status = fields.status;
      task.last = taskFields(fields, task.id);
    }
    task.lastPolledAt = new Date().toISOString();
    this.recorder?.heard(task);
  }

  #expire(): void {
    const now = Date.now();
    for (const task of this.#byId.values()) if (task.expiresAt !== undefined && task.expiresAt < now) this.forget(task);
  }
}

/** A Task object (or a result or params that are one) with the host's id in place of the upstream's. */
export function asHostsTask(task: RelayedTask, fields: JsonObject): JsonObject {
  return { ...fields, taskId: task.id };
}

/** The Task in a result or notification (its own fields, not the message's `_meta`), under `id`. */
function taskFields(fields: JsonObject, id: string): JsonObject {
  const { _meta: _dropped, ...task } = fields;
  return { ...task, taskId: id };
}

/** The `io.modelcontextprotocol/related-task` metadata of a message, if it names a task id. */
export const RELATED_TASK = "io.modelcontextprotocol/related-task";

export function relatedTaskId(params: unknown): string | undefined {
  const meta = isObject(params) && isObject(params._meta) ? params._meta : undefined;
  const related = meta && isObject(meta[RELATED_TASK]) ? meta[RELATED_TASK] : undefined;
  return typeof related?.taskId === "string" ? related.taskId : undefined;
}

/** The same params or result with its related-task metadata naming `id` (the host's id) instead. */
export function withRelatedTask(params: JsonObject, id: string): JsonObject {
  const meta = isObject(params._meta) ? params._meta : {};
  const related = isObject(meta[RELATED_TASK]) ? meta[RELATED_TASK] : {};
  return { ...params, _meta: { ...meta, [RELATED_TASK]: { ...related, taskId: id } } };
}

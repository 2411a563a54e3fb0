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
import type { JsonObject } from "../../protocol/jsonrpc.js";
import type { Upstream } from "../../upstream/upstream.js";
import { LOCAL_IDENTITY } from "../../broker/identity.js";
import type { HostSession } from "../session.js";
import type { TaskFollower } from "./follower.js";
import type { FollowedTask, TaskEra } from "./followed-task.js";

export type { TaskEra } from "./followed-task.js";

/** The statuses 2025-11-25 defines; the last three are terminal. */
export type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";
const TERMINAL: readonly string[] = ["completed", "failed", "cancelled"];

export function isTerminal(status: unknown): boolean {
  return typeof status === "string" && TERMINAL.includes(status);
}

/** One task a host created through mcpx. */
export interface RelayedTask extends FollowedTask {
  status: string;
  /** The Task as the upstream last described it, under the host's id (what `tasks/list` shows when the upstream cannot be asked). */
  last: JsonObject;
  readonly createdAt: string;
  /** When mcpx last heard how it is (a poll, a notification), ISO 8601. */
  lastPolledAt: string;
  /** Its owner's session ended; the task waits for that host to come back (`ownedBy`). */
  orphaned: boolean;
  /**
   * mcpx follows it itself (follower.ts): a task whose upstream or owner is of the other era, or
   * a 2026 task, whose questions go through the broker while nobody polls. Undefined: a 2025-11-25
   * task relayed to a 2025-11-25 host, which the host follows through mcpx.
   */
  follower?: TaskFollower;
}

/**
 * Who owns what a session creates: its identity when it signed in as one, else the session
 * itself. A 2026-07-28 host has no session: on stdio the process is the one host (the
 * connection's session owns), over HTTP each request stands alone, so its identity owns (the
 * operator's `local` for a host without a token, as everything else of `local`'s).
 */
export function ownerKey(session: HostSession): string {
  if (session.servesOneRequest) {
    if (session.transport === "stdio" && session.connectionScope !== session) return ownerKey(session.connectionScope);
    return `identity:${session.identity}`;
  }
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
  add(session: HostSession, upstream: Upstream, tool: string, task: JsonObject, eras: { shape: TaskEra; runsAs: TaskEra }): RelayedTask {
    const upstreamId = String(task.taskId);
    const now = new Date().toISOString();
    const createdAt = typeof task.createdAt === "string" ? task.createdAt : now;
    // 2025-11-25 says `ttl`, the 2026 extension `ttlMs`; both in milliseconds.
    const ttl = typeof task.ttl === "number" ? task.ttl : typeof task.ttlMs === "number" ? task.ttlMs : undefined;
    const id = `${upstream.name}/${randomUUID()}`;
    const relayed: RelayedTask = {
      id,
      owner: ownerKey(session),
      identity: session.identity,
      orphaned: false,
      ...eras,
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

  /**
   * The task `session` knows by `id`, if it is its owner's; the session becomes the one its news
   * goes to. A task whose owning session ended is its host's again when a session of the same
   * identity names it (a host that reconnects): its id, an unguessable one mcpx gave that host
   * alone, is the proof, as a live session's id is; live sessions' tasks stay their own.
   */
  ownedBy(session: HostSession, id: unknown): RelayedTask | undefined {
    this.#expire();
    const task = typeof id === "string" ? this.#byId.get(id) : undefined;
    if (!task) return undefined;
    if (task.orphaned && task.identity === session.identity) {
      task.owner = ownerKey(session);
      task.orphaned = false;
    }
    if (task.owner !== ownerKey(session)) return undefined;
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

  /** Every task, oldest first (a store's cancel request is looked up among them). */
  all(): RelayedTask[] {
    return [...this.#byId.values()];
  }

  /** The task mcpx knows by `id`, whoever owns it (for the operator's surfaces, which check ownership themselves). */
  byId(id: string): RelayedTask | undefined {
    return this.#byId.get(id);
  }

  /** The upstream no longer has it (it said so, or its time is up). */
  forget(task: RelayedTask): void {
    task.follower?.stop();
    this.#byId.delete(task.id);
    const mine = this.#byUpstream.get(task.upstream);
    mine?.delete(task.upstreamId);
    if (mine?.size === 0) this.#byUpstream.delete(task.upstream);
  }

  /**
   * The session has ended: its own tasks wait for their host to come back (`ownedBy`), until
   * their ttl (an identity's stay its other sessions' anyway). The upstream's tasks run on.
   */
  sessionEnded(session: HostSession): void {
    const owner = `session:${session.id}`;
    for (const task of this.#byId.values()) if (task.owner === owner) task.orphaned = true;
  }

  /** mcpx stops: it follows no task any more (the store marks them unfollowable: broker.stop). */
  stopFollowing(): void {
    for (const task of this.#byId.values()) task.follower?.stop();
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
  const { _meta: _dropped, resultType: _type, ...task } = fields;
  return { ...task, taskId: id };
}

export { RELATED_TASK, relatedTaskId, withRelatedTask } from "../../protocol/related-task.js";

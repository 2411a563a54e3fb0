/**
 * The 2025-11-25 task methods a host sends mcpx (`tasks/get`, `tasks/result`, `tasks/list`,
 * `tasks/cancel`), and the task-augmented `tools/call` that starts a task.
 *
 * Each request about a task goes to the connection the task runs on, under the upstream's id,
 * and comes back under the host's. mcpx follows every task it relays (follower.ts), so that its
 * questions reach the broker while nobody polls: a 2026 upstream's is answered from its
 * follower, as a 2025 Task; a 2025-11-25 upstream's status is asked of the upstream, and its
 * `tasks/result` is the one the follower collected (mcpx alone waits on the upstream's, where
 * SDK 1.x delivers the task's questions). A task is found only together with its owner
 * (registry.ts): another host's id is "unknown" (`-32602`, as the spec has it for an id that
 * does not exist), word for word as an id that never existed.
 */
import { ErrorCode, isObject, type JsonObject } from "../../protocol/jsonrpc.js";
import { invalidParams, methodNotFound, RpcError } from "../../protocol/errors.js";
import { defines } from "../../protocol/revisions.js";
import type { IncomingContext } from "../../rpc/peer.js";
import type { Upstream } from "../../upstream/upstream.js";
import type { Logger } from "../../util/log.js";
import type { CallerContext, HostSession } from "../session.js";
import { cancelsTasks, runsToolTasks } from "./capability.js";
import { asHostsTask, type RelayedTask, type TaskRegistry, withRelatedTask } from "./registry.js";
import { type FollowerGateway, TaskFollower } from "./follower.js";
import { legacyTask } from "./shapes.js";

/** What the task methods need of the gateway. */
export interface TaskRelay {
  readonly tasks: TaskRegistry;
  readonly log: Logger;
}

type TaskHandler = (gateway: TaskRelay, session: HostSession, context: IncomingContext, params: JsonObject) => Promise<JsonObject>;

/** Only a host whose revision has tasks may use them; to any other these methods do not exist. */
function forTaskHosts(handler: TaskHandler): TaskHandler {
  return (gateway, session, context, params) => {
    if (!session.revision || !defines(session.revision, "tasks")) return Promise.reject(methodNotFound(context.request.method));
    return handler(gateway, session, context, params);
  };
}

export const TASK_HANDLERS: Record<string, TaskHandler> = {
  "tasks/get": forTaskHosts(async (gateway, session, context, params) => {
    const task = owned(gateway, session, params);
    return asHostsTask(task, await poll(gateway, session, context, task));
  }),
  "tasks/result": forTaskHosts(async (gateway, session, context, params) => {
    const task = owned(gateway, session, params);
    const owner = ownerOf(session, context, task);
    if (task.follower) return followedResult(task, task.follower, owner, context);
    // A question the task raises meanwhile travels with the latest of these (questions.ts).
    task.waiting.add(owner);
    try {
      const result = await send(task, "tasks/result", owner, context, { untimed: true });
      gateway.tasks.heard(task, {});
      return withRelatedTask(result, task.id);
    } finally {
      task.waiting.delete(owner);
    }
  }),
  "tasks/list": forTaskHosts(async (gateway, session, context, params) => {
    // mcpx answers every task of the host in one page, so it never gives a cursor.
    if (params.cursor !== undefined) throw invalidParams("mcpx gave no tasks/list cursor: every task comes in the first page");
    const tasks = gateway.tasks.allOwnedBy(session);
    const listed = await Promise.all(
      tasks.map((task) =>
        poll(gateway, session, context, task).then(
          (fields) => asHostsTask(task, fields),
          // The upstream said it has no such task any more: gone from the list too.
          (error: unknown) => (isUnknownTask(error) ? undefined : task.runsAs === "2026" ? legacyTask(task.last, task.id) : task.last),
        ),
      ),
    );
    return { tasks: listed.filter((task): task is JsonObject => task !== undefined) };
  }),
  "tasks/cancel": forTaskHosts(async (gateway, session, context, params) => {
    const task = owned(gateway, session, params);
    if (task.follower) {
      if (!task.follower.end) await task.follower.cancel("its owner cancelled it", context.signal);
      return asHostsTask(task, await poll(gateway, session, context, task));
    }
    if (!cancelsTasks(task.upstream)) throw new RpcError(ErrorCode.MethodNotFound, `"${task.server}" does not take tasks/cancel`);
    const result = await send(task, "tasks/cancel", ownerOf(session, context, task), context);
    gateway.tasks.heard(task, result);
    return asHostsTask(task, result);
  }),
};

/**
 * A host's `tools/call` with `task`, sent on by `call`: a CreateTaskResult from a connection that
 * runs tool tasks is remembered, followed (its questions through the broker even while the host
 * does not wait on `tasks/result`), and comes back under the host's id. Anything else (an
 * upstream that ran the call plainly, an error) is the host's as it came.
 */
export async function relayTaskCall(
  gateway: TaskRelay & FollowerGateway,
  session: HostSession,
  upstream: Upstream | undefined,
  tool: string,
  call: () => Promise<JsonObject>,
): Promise<JsonObject> {
  const result = await call();
  if (!upstream || !session.revision || !defines(session.revision, "tasks") || !runsToolTasks(upstream)) return result;
  const created = isObject(result.task) ? result.task : undefined;
  if (typeof created?.taskId !== "string") return result;
  const task = gateway.tasks.add(session, upstream, tool, created, { shape: "2025", runsAs: "2025" });
  task.follower = new TaskFollower(gateway, task, created, (fields) => gateway.tasks.heard(task, fields)).start();
  gateway.log.info("relayed a task", { server: task.server, task: task.id, tool, session: session.id });
  return { ...result, task: task.last };
}

/** The task the request names, if it is this host's; else the spec's error for an unknown task. */
function owned(gateway: TaskRelay, session: HostSession, params: JsonObject): RelayedTask {
  const task = gateway.tasks.ownedBy(session, params.taskId);
  if (!task) throw unknownTask(params.taskId);
  return task;
}

/** `tasks/get` upstream: the Task as the upstream has it now (a task it no longer has is forgotten). */
async function poll(gateway: TaskRelay, session: HostSession, context: IncomingContext, task: RelayedTask): Promise<JsonObject> {
  // A 2026 task mcpx follows for a 2025-11-25 host: asked afresh, shown as a 2025 Task.
  if (task.follower && task.runsAs === "2026") {
    const fields = await task.follower.refresh(context.signal);
    return legacyTask(fields, task.id, task.follower.end?.status);
  }
  try {
    const fields = await send(task, "tasks/get", ownerOf(session, context, task), context);
    gateway.tasks.heard(task, fields);
    return fields;
  } catch (error) {
    if (!isUnknownTask(error)) throw error;
    gateway.tasks.forget(task);
    throw unknownTask(task.id);
  }
}

/**
 * `tasks/result` of a task mcpx follows: the owner is asked the task's waiting questions inline
 * (and any it raises meanwhile) and gets the result once the task ends: the tool's result, or
 * the task's error.
 */
async function followedResult(task: RelayedTask, follower: TaskFollower, owner: CallerContext, context: IncomingContext): Promise<JsonObject> {
  task.waiting.add(owner);
  const asking = new AbortController();
  follower.questions.askWaiting(owner, AbortSignal.any([asking.signal, context.signal]));
  try {
    const end = await untilAborted(follower.ended, context.signal);
    if (end.status === "completed") return withRelatedTask(end.result, task.id);
    if (end.status === "failed")
      throw new RpcError(
        typeof end.error.code === "number" ? end.error.code : ErrorCode.InternalError,
        String(end.error.message ?? "the task failed"),
        end.error.data,
      );
    throw new RpcError(ErrorCode.InternalError, `task ${task.id} was cancelled; it has no result`);
  } finally {
    asking.abort();
    task.waiting.delete(owner);
  }
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const abort = (): void => reject(signal.reason);
    signal.addEventListener("abort", abort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
  });
}

function send(task: RelayedTask, method: string, owner: CallerContext, context: IncomingContext, options: { untimed?: boolean } = {}): Promise<JsonObject> {
  return task.upstream.call(method, { taskId: task.upstreamId }, { owner, signal: context.signal, legacyCaller: true, ...options });
}

function ownerOf(session: HostSession, context: IncomingContext, task: RelayedTask): CallerContext {
  return { session, requestId: context.request.id, tool: task.tool };
}

function isUnknownTask(error: unknown): boolean {
  return error instanceof RpcError && error.code === ErrorCode.InvalidParams;
}

function unknownTask(id: unknown): RpcError {
  return invalidParams(`unknown task ${JSON.stringify(id)}`);
}

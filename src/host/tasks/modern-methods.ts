/**
 * The 2026-07-28 tasks extension (`io.modelcontextprotocol/tasks`) served to modern hosts:
 * a host that declares it in a request's client capabilities may get a `tools/call` answered
 * with a task of an upstream that offers the extension (`resultType: "task"`, under an id of
 * mcpx's), and asks about it with `tasks/get`, `tasks/update` and `tasks/cancel`, each sent to
 * the connection the task runs on under the upstream's id. As for 2025-11-25 tasks
 * (methods.ts), a task is found only together with its owner: another's id is unknown (-32602).
 * A request about tasks that does not declare the extension is refused -32021, as the
 * extension says.
 */
import { invalidParams, RpcError } from "../../protocol/errors.js";
import { isObject, type JsonObject } from "../../protocol/jsonrpc.js";
import { MODERN_ERROR } from "../../protocol/modern.js";
import { declaresTasksExtension, isCreatedTask, TASKS_EXTENSION, TASKS_REQUIRED } from "../../protocol/modern-tasks.js";
import { MODERN_REVISIONS } from "../../protocol/revisions.js";
import type { IncomingContext } from "../../rpc/peer.js";
import type { Upstream } from "../../upstream/upstream.js";
import type { HostSession } from "../session.js";
import type { TaskRelay } from "./methods.js";
import { asHostsTask, type RelayedTask } from "./registry.js";

/** A modern host that declared the extension in this request: it takes a task as the answer to a call. */
export function takesModernTasks(session: HostSession): boolean {
  return session.revision !== undefined && MODERN_REVISIONS.includes(session.revision) && declaresTasksExtension(session.capabilities);
}

/** An upstream connection that offers the extension (mcpx then declares it on every request there). */
export function offersModernTasks(upstream: Upstream): boolean {
  return upstream.state === "ready" && declaresTasksExtension(upstream.capabilities);
}

/** The extension in `server/discover`'s capabilities: only when an upstream offers it. */
export function modernTasksCapability(upstreams: readonly Upstream[]): JsonObject | undefined {
  return upstreams.some(offersModernTasks) ? { extensions: { [TASKS_EXTENSION]: {} } } : undefined;
}

/** A tool call's result for a host that takes tasks: a task the upstream created is remembered and given under mcpx's id. */
export function relayModernTask(gateway: TaskRelay, session: HostSession, upstream: Upstream, tool: string, result: JsonObject): JsonObject {
  if (!isCreatedTask(result)) return result;
  const task = gateway.tasks.add(session, upstream, tool, result);
  gateway.log.info("relayed a task (tasks extension)", { server: task.server, task: task.id, tool, session: session.id });
  return asHostsTask(task, result);
}

type ModernTaskHandler = (gateway: TaskRelay, session: HostSession, context: IncomingContext, params: JsonObject) => Promise<JsonObject>;

export const MODERN_TASK_HANDLERS: Record<string, ModernTaskHandler> = {
  "tasks/get": async (gateway, session, context, params) => {
    const task = owned(gateway, session, params);
    const fields = await send(task, "tasks/get", session, context, {});
    gateway.tasks.heard(task, fields);
    return asHostsTask(task, fields);
  },
  "tasks/update": async (gateway, session, context, params) => {
    const task = owned(gateway, session, params);
    if (!isObject(params.inputResponses)) throw invalidParams("tasks/update needs an inputResponses object");
    return send(task, "tasks/update", session, context, { inputResponses: params.inputResponses });
  },
  "tasks/cancel": async (gateway, session, context, params) => {
    const task = owned(gateway, session, params);
    return send(task, "tasks/cancel", session, context, {});
  },
};

function owned(gateway: TaskRelay, session: HostSession, params: JsonObject): RelayedTask {
  if (!declaresTasksExtension(session.capabilities)) {
    throw new RpcError(MODERN_ERROR.MissingRequiredClientCapability, `Missing required client capability: the ${TASKS_EXTENSION} extension`, TASKS_REQUIRED);
  }
  const task = gateway.tasks.ownedBy(session, params.taskId);
  if (!task) throw invalidParams(`unknown task ${JSON.stringify(params.taskId)}`);
  return task;
}

/** The request to the task's connection under the upstream's id; what comes back names none (acks) or is renamed by the caller. */
function send(task: RelayedTask, method: string, session: HostSession, context: IncomingContext, params: JsonObject): Promise<JsonObject> {
  const owner = { session, requestId: context.request.id, tool: task.tool };
  return task.upstream.call(method, { ...params, taskId: task.upstreamId }, { owner, signal: context.signal });
}

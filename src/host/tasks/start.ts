/**
 * A host's tool call that may start a task relayed for it, in whichever pair of eras:
 *
 * | host (shape)                              | upstream                          | the task                                 |
 * | 2025-11-25, `task` in its call            | 2025-11-25 running tool tasks     | relayed as is; the host follows it       |
 * | 2025-11-25, `task` in its call            | 2026 offering the extension       | followed by mcpx, shown as a 2025 Task   |
 * | 2026-07-28 declaring the extension        | 2026 offering the extension       | followed by mcpx, relayed in its shape   |
 * | 2026-07-28 declaring the extension        | 2025-11-25, a tool that may run as a task | made a task by mcpx, followed, shown in the extension's shape |
 *
 * Anything else is an ordinary call (the upstream layer waits for a task the caller cannot take).
 */
import { isObject, type JsonObject } from "../../protocol/jsonrpc.js";
import { isCreatedTask } from "../../protocol/modern-tasks.js";
import { defines } from "../../protocol/revisions.js";
import type { Upstream } from "../../upstream/upstream.js";
import type { HostSession } from "../session.js";
import { offersModernTasks, runsToolTasks, takesModernTasks } from "./capability.js";
import { TaskFollower, type FollowerGateway } from "./follower.js";
import type { TaskEra, TaskRegistry } from "./registry.js";
import { legacyTask, modernCreated } from "./shapes.js";

/** Send the call (with these params; `relayTask`: a 2026 task is given back, not waited for). */
export type SendCall = (params: JsonObject, relayTask: boolean) => Promise<JsonObject>;

export async function callMayStartTask(
  gateway: FollowerGateway & { readonly tasks: TaskRegistry },
  session: HostSession,
  upstream: Upstream,
  tool: string,
  shape: TaskEra,
  params: JsonObject,
  send: SendCall,
): Promise<JsonObject> {
  if (offersModernTasks(upstream)) {
    const { task: _asked, ...plain } = params;
    const result = await send(plain, true);
    if (!isCreatedTask(result)) return result;
    const task = gateway.tasks.add(session, upstream, tool, result, { shape, runsAs: "2026" });
    task.follower = new TaskFollower(gateway, task, result, (fields) => gateway.tasks.heard(task, fields)).start();
    gateway.log.info("relayed a task (tasks extension)", { server: task.server, task: task.id, tool, session: session.id, shape });
    return shape === "2026" ? { ...result, taskId: task.id } : { task: legacyTask(result, task.id) };
  }
  if (shape === "2026" && runsToolTasks(upstream) && mayRunAsTask(upstream, tool)) {
    const result = await send({ ...params, task: {} }, false);
    const created = isObject(result.task) ? result.task : undefined;
    if (typeof created?.taskId !== "string") return result;
    const task = gateway.tasks.add(session, upstream, tool, created, { shape, runsAs: "2025" });
    task.follower = new TaskFollower(gateway, task, created, (fields) => gateway.tasks.heard(task, fields)).start();
    gateway.log.info("relayed a 2025-11-25 task to a 2026-07-28 host", { server: task.server, task: task.id, tool, session: session.id });
    return modernCreated(created, task.id);
  }
  return send(params, false);
}

/**
 * The shape of task a host's call may be given: the extension's to a 2026-07-28 host that
 * declared it in the request, a 2025 Task to a 2025-11-25 host that asked with `task`; else none.
 */
export function taskShapeOf(session: HostSession, params: JsonObject): TaskEra | undefined {
  if (takesModernTasks(session)) return "2026";
  return isObject(params.task) && session.revision !== undefined && defines(session.revision, "tasks") ? "2025" : undefined;
}

/** A 2025-11-25 tool that may run as a task (`execution.taskSupport` "optional" or "required"). */
function mayRunAsTask(upstream: Upstream, tool: string): boolean {
  const listed = upstream.catalog.tools.find((candidate) => candidate.name === tool);
  const support = isObject(listed?.execution) ? listed.execution.taskSupport : undefined;
  return support === "optional" || support === "required";
}

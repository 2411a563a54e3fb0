/**
 * The 2026-07-28 tasks extension (`io.modelcontextprotocol/tasks`) served to modern hosts:
 * a host that declares it in a request's client capabilities may get a `tools/call` answered
 * with a task (`resultType: "task"`, under an id of mcpx's: start.ts), of an upstream that
 * offers the extension or of a 2025-11-25 one, which mcpx follows (follower.ts). It asks about
 * it with `tasks/get` (the DetailedTask: how the upstream has it now, its end as mcpx collected
 * it, its questions as the broker holds them), `tasks/update` (answers to those questions) and
 * `tasks/cancel`. As for 2025-11-25 tasks (methods.ts), a task is found only together with its
 * owner: another's id is unknown (-32602). A request about tasks that does not declare the
 * extension is refused -32021, as the extension says.
 */
import { invalidParams, RpcError } from "../../protocol/errors.js";
import { isObject, type JsonObject } from "../../protocol/jsonrpc.js";
import { MODERN_ERROR } from "../../protocol/modern.js";
import { declaresTasksExtension, TASKS_EXTENSION, TASKS_REQUIRED } from "../../protocol/modern-tasks.js";
export { modernTasksCapability, offersModernTasks, takesModernTasks } from "./capability.js";
import type { IncomingContext } from "../../rpc/peer.js";
import type { HostSession } from "../session.js";
import type { TaskRelay } from "./methods.js";
import type { TaskFollower } from "./follower.js";
import type { RelayedTask } from "./registry.js";
import { detailedTask } from "./shapes.js";

type ModernTaskHandler = (gateway: TaskRelay, session: HostSession, context: IncomingContext, params: JsonObject) => Promise<JsonObject>;

/** The extension's acknowledgement (tasks/update, tasks/cancel): an empty complete result. */
const ACK: JsonObject = { resultType: "complete" };

export const MODERN_TASK_HANDLERS: Record<string, ModernTaskHandler> = {
  "tasks/get": async (_gateway, session, context, params) => {
    const { task, follower } = owned(_gateway, session, params);
    // A 2026 task: asked afresh; a 2025-11-25 one: its status asked afresh, its end as mcpx collected it.
    const fields = follower.end
      ? follower.fields
      : task.runsAs === "2026"
        ? await follower.refresh(context.signal)
        : await follower.legacyStatus(context.signal);
    return detailedTask(fields, task.id, follower.end, follower.questions.inputRequests(session));
  },
  "tasks/update": async (gateway, session, _context, params) => {
    const { follower } = owned(gateway, session, params);
    if (!isObject(params.inputResponses)) throw invalidParams("tasks/update needs an inputResponses object");
    // Each answer settles its question in the broker (the first answer stands) and goes upstream from there.
    await follower.questions.answer(session, params.inputResponses);
    return ACK;
  },
  "tasks/cancel": async (gateway, session, context, params) => {
    const { follower } = owned(gateway, session, params);
    // Cancelling a task that ended is the same empty acknowledgement (the extension: idempotent).
    if (!follower.end) await follower.cancel("its owner cancelled it", context.signal);
    return ACK;
  },
};

function owned(gateway: TaskRelay, session: HostSession, params: JsonObject): { task: RelayedTask; follower: TaskFollower } {
  if (!declaresTasksExtension(session.capabilities)) {
    throw new RpcError(MODERN_ERROR.MissingRequiredClientCapability, `Missing required client capability: the ${TASKS_EXTENSION} extension`, TASKS_REQUIRED);
  }
  const task = gateway.tasks.ownedBy(session, params.taskId);
  // A 2025-11-25 host's task is not one of the extension's (it has no follower of mcpx's).
  if (!task?.follower || task.shape !== "2026") throw invalidParams(`unknown task ${JSON.stringify(params.taskId)}`);
  return { task, follower: task.follower };
}

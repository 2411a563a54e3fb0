/**
 * The store's record of the tasks relayed for hosts (broker/task-store.ts): written as a task is
 * relayed and as mcpx hears how it stands, so `mcpx tasks` and a later mcpx can read them. A
 * record that cannot be written is logged and the relay goes on: the host's task does not
 * depend on it.
 */
import type { Broker } from "../../broker/broker.js";
import type { Logger } from "../../util/log.js";
import type { RelayedTask, TaskRecorder } from "./registry.js";

export function storeRecorder(broker: Broker, log: Logger): TaskRecorder {
  const safely = (what: string, task: RelayedTask, write: () => void): void => {
    try {
      write();
    } catch (error) {
      log.warn(`could not record ${what} in the store; the task is relayed all the same`, { task: task.id, error });
    }
  };
  return {
    created: (task) =>
      safely("a relayed task", task, () =>
        broker.recordTask({
          id: task.id,
          identity: task.session.identity,
          hostSession: task.session.id,
          server: task.server,
          tool: task.tool,
          upstreamTaskId: task.upstreamId,
          status: task.status,
          createdMs: Date.parse(task.createdAt) || Date.now(),
          expiresMs: task.expiresAt,
        }),
      ),
    heard: (task) =>
      safely("how a task stands", task, () =>
        broker.taskHeard(task.id, task.status, typeof task.last.statusMessage === "string" ? task.last.statusMessage : undefined),
      ),
  };
}

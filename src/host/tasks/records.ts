/**
 * The store's record of the tasks relayed for hosts (broker/task-store.ts): written as a task is
 * relayed and as mcpx hears how it stands, so `mcpx tasks` and a later mcpx can read them. A
 * record that cannot be written is logged and the relay goes on: the host's task does not
 * depend on it. While this process follows tasks it watches the store for a person's cancel of
 * one (`mcpx tasks cancel`, another process: the record says cancelled), and hears one made
 * through its own broker (REST, the page), and cancels it upstream.
 */
import type { Broker } from "../../broker/broker.js";
import { coalesced } from "../../util/coalesce.js";
import type { Logger } from "../../util/log.js";
import { cancelUpstream } from "./cancel.js";
import { isTerminal, type RelayedTask, type TaskRecorder } from "./registry.js";

const SESSION_OWNER = "session:";

/** The owning session, when a session owns the task (a 2026 request over HTTP has none: its identity owns it). */
function hostSessionOf(task: RelayedTask): string | undefined {
  return task.owner.startsWith(SESSION_OWNER) ? task.owner.slice(SESSION_OWNER.length) : undefined;
}

export function storeRecorder(broker: Broker, log: Logger): TaskRecorder {
  // Fire and forget: relaying the task does not wait for its record.
  const safely = (what: string, task: RelayedTask, write: () => Promise<void>): void => {
    write().catch((error: unknown) => log.warn(`could not record ${what} in the store; the task is relayed all the same`, { task: task.id, error }));
  };
  const watched = watchCancels(broker, log);
  return {
    created: (task) =>
      safely("a relayed task", task, () => {
        watched.add(task);
        return broker.recordTask({
          id: task.id,
          identity: task.session.identity,
          hostSession: hostSessionOf(task),
          server: task.server,
          tool: task.tool,
          upstreamTaskId: task.upstreamId,
          status: task.status,
          createdMs: Date.parse(task.createdAt) || Date.now(),
          expiresMs: task.expiresAt,
        });
      }),
    heard: (task) =>
      safely("how a task stands", task, () =>
        broker.taskHeard(task.id, task.status, typeof task.last.statusMessage === "string" ? task.last.statusMessage : undefined),
      ),
  };
}

/**
 * The tasks this process follows, watched for a cancel written to the store by another process:
 * looked at only when the store says another process wrote (`onChange`), and only while some task runs.
 */
function watchCancels(broker: Broker, log: Logger): { add(task: RelayedTask): void } {
  const live = new Set<RelayedTask>();
  let unlisten: (() => void) | undefined;
  const cancel = (task: RelayedTask, where: string): void => {
    live.delete(task);
    task.status = "cancelled";
    log.info(`a person cancelled a task ${where}; cancelling it upstream`, { task: task.id, server: task.server });
    cancelUpstream(task, `a person cancelled it ${where}`).catch((error: unknown) => log.warn("could not cancel the task upstream", { task: task.id, error }));
  };
  const idle = (): void => {
    if (live.size > 0) return;
    unlisten?.();
    unlisten = undefined;
  };
  const lookOnce = async (): Promise<void> => {
    if (!broker.store.open) return;
    for (const task of [...live]) {
      if (isTerminal(task.status)) live.delete(task);
      else if ((await broker.store.tasks.get(task.id))?.status === "cancelled" && live.has(task)) cancel(task, "from another process (mcpx tasks cancel)");
    }
    idle();
  };
  const look = coalesced(lookOnce, (error) => log.warn("could not read the followed tasks from the store", { error }));
  // A cancel through this process's own broker (REST, the page): a store need not report its own writes.
  broker.onTaskCancel((id) => {
    for (const task of live) if (task.id === id && !isTerminal(task.status)) cancel(task, "through mcpx's REST API or page");
    idle();
  });
  return {
    add: (task) => {
      live.add(task);
      unlisten ??= broker.store.onChange(look);
    },
  };
}

/**
 * Cancelling a relayed task upstream on behalf of someone other than its owner's request (a
 * person with `mcpx tasks cancel`, which the store carries to the process that follows the task):
 * a task mcpx follows through its follower, a 2025-11-25 task relayed to a 2025-11-25 host with
 * `tasks/cancel` on its connection, where the server takes it.
 */
import { RpcError } from "../../protocol/errors.js";
import { ErrorCode } from "../../protocol/jsonrpc.js";
import { cancelsTasks } from "./capability.js";
import type { RelayedTask } from "./registry.js";

export async function cancelUpstream(task: RelayedTask, why: string): Promise<void> {
  if (task.follower) {
    if (!task.follower.end) await task.follower.cancel(why);
    return;
  }
  if (!cancelsTasks(task.upstream)) throw new RpcError(ErrorCode.MethodNotFound, `"${task.server}" does not take tasks/cancel`);
  await task.upstream.call("tasks/cancel", { taskId: task.upstreamId }, { legacyCaller: true });
}

/**
 * What an upstream says about a task mcpx relayed, on its way to the task's owner alone: its
 * status notifications, and the questions it raises while `input_required`.
 *
 * Both name the task by the upstream's id (`taskId`, or the `io.modelcontextprotocol/related-task`
 * metadata the spec requires on a task's requests), and that id, on that connection, is one
 * host's (registry.ts): attribution by task is exact by construction, as progress is by token
 * (design rule 5), whichever calls happen to be in flight.
 */
import type { JsonObject } from "../../protocol/jsonrpc.js";
import type { IncomingContext } from "../../rpc/peer.js";
import type { Candidates } from "../../upstream/calls.js";
import type { Upstream } from "../../upstream/upstream.js";
import type { CallerContext } from "../session.js";
import { withoutRelatedTask } from "../../protocol/related-task.js";
import type { TaskFollower } from "./follower.js";
import { asHostsTask, relatedTaskId, type TaskRegistry, withRelatedTask } from "./registry.js";

/**
 * A question naming a relayed task: the request as the owning host should see it (its id in the
 * metadata), and the one caller it belongs to: the task's owner, on its latest `tasks/result`
 * still waiting (HTTP: on that request's stream), else with no request of its own. The question
 * is the task's, not that request's: it stays open when the request ends (the task still waits
 * for it), until it is answered, expires or the upstream withdraws it. A task mcpx follows
 * itself takes its questions into its follower (`follower`). A question naming a task mcpx did
 * not relay (one it waits for on a caller's behalf) loses the metadata: its caller never heard
 * of that task. Undefined for any other.
 */
export function taskQuestion(
  tasks: TaskRegistry,
  upstream: Upstream,
  context: IncomingContext,
): { context: IncomingContext; candidates?: Candidates; follower?: TaskFollower } | undefined {
  const params = context.request.params;
  const related = relatedTaskId(params);
  if (related === undefined || !params) return undefined;
  const task = tasks.byUpstreamId(upstream, related);
  if (!task) return { context: { ...context, request: { ...context.request, params: withoutRelatedTask(params) } } };
  if (task.follower) return { context, follower: task.follower };
  const waiting = [...task.waiting].at(-1);
  const owner: CallerContext = { session: task.session, tool: task.tool, ...(waiting?.requestId !== undefined ? { requestId: waiting.requestId } : {}) };
  return { context: { ...context, request: { ...context.request, params: withRelatedTask(params, task.id) } }, candidates: [owner] };
}

/** `notifications/tasks/status` about a relayed task: to its owner's session alone, under its id. Whether it was one. */
export function relayTaskStatus(tasks: TaskRegistry, upstream: Upstream, params: JsonObject): boolean {
  const task = tasks.byUpstreamId(upstream, params.taskId);
  if (!task) return false;
  tasks.heard(task, params);
  // A 2026-07-28 owner has no such notification: it polls (the follower hears the change too).
  if (task.shape === "2025") task.session.notify("notifications/tasks/status", asHostsTask(task, params));
  return true;
}

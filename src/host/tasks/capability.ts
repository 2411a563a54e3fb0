/**
 * What mcpx may promise hosts about tasks: only what its upstreams can honour.
 *
 * To a 2025-11-25 host: `tasks` when a ready upstream runs 2025-11-25 tool tasks (relayed as
 * they are) or offers the 2026 extension (whose tasks mcpx follows and shows as 2025 tasks).
 * mcpx answers `tasks/list` itself, from the tasks it relayed for the host, so it offers `list`
 * whenever it offers tasks at all; `cancel` only when an upstream takes it. To a 2026-07-28
 * host: the extension in `server/discover`, on the same condition.
 */
import { isObject, type JsonObject } from "../../protocol/jsonrpc.js";
import { declaresTasksExtension, TASKS_EXTENSION } from "../../protocol/modern-tasks.js";
import { defines, MODERN_REVISIONS, type Revision } from "../../protocol/revisions.js";
import type { Upstream } from "../../upstream/upstream.js";
import type { HostSession } from "../session.js";

/** An upstream connection that runs a `tools/call` as a task when asked to (2025-11-25 core tasks). */
export function runsToolTasks(upstream: Upstream): boolean {
  if (upstream.state !== "ready" || !upstream.revision || !defines(upstream.revision, "tasks")) return false;
  const tasks = upstream.capabilities.tasks;
  const requests = isObject(tasks) && isObject(tasks.requests) ? tasks.requests : undefined;
  return isObject(requests?.tools) && isObject(requests.tools.call);
}

/** An upstream connection that takes `tasks/cancel`. */
export function cancelsTasks(upstream: Upstream): boolean {
  const tasks = upstream.capabilities.tasks;
  return runsToolTasks(upstream) && isObject(tasks) && isObject(tasks.cancel);
}

/** The `tasks` server capability for a host of `revision`, or undefined when mcpx can relay none. */
export function hostTasksCapability(revision: Revision, upstreams: readonly Upstream[]): JsonObject | undefined {
  if (!defines(revision, "tasks")) return undefined;
  const capable = upstreams.filter((upstream) => runsToolTasks(upstream) || offersModernTasks(upstream));
  if (capable.length === 0) return undefined;
  return {
    list: {},
    // The extension always has tasks/cancel.
    ...(capable.some((upstream) => cancelsTasks(upstream) || offersModernTasks(upstream)) ? { cancel: {} } : {}),
    requests: { tools: { call: {} } },
  };
}

/**
 * The tools a host is listed: one that can only run as a task (`execution.taskSupport`
 * "required") only for a host that was offered tasks and declared a `tasks` capability of its
 * own, and when mcpx relays its server's tasks; any other host could not call it.
 * `upstreamOf` gives the connection a listed tool's calls go to.
 */
export function toolsForHost(tools: JsonObject[], session: HostSession, upstreamOf: (tool: JsonObject) => Upstream | undefined): JsonObject[] {
  // A 2026-07-28 host that declares the extension takes a 2025-11-25 server's task too, in the extension's shape (start.ts).
  const hostCan = (session.tasksOffered && isObject(session.capabilities.tasks)) || takesModernTasks(session);
  return tools.filter((tool) => {
    if (!requiresTask(tool)) return true;
    const upstream = hostCan ? upstreamOf(tool) : undefined;
    return upstream !== undefined && runsToolTasks(upstream);
  });
}

export function requiresTask(tool: JsonObject): boolean {
  return isObject(tool.execution) && tool.execution.taskSupport === "required";
}

// The 2026-07-28 extension (`io.modelcontextprotocol/tasks`), declared per request.

/** A modern host that declared the extension in this request: it takes a task as the answer to a call. */
export function takesModernTasks(session: HostSession): boolean {
  return session.revision !== undefined && MODERN_REVISIONS.includes(session.revision) && declaresTasksExtension(session.capabilities);
}

/** An upstream connection that offers the extension (mcpx then declares it on every request there). */
export function offersModernTasks(upstream: Upstream): boolean {
  return upstream.state === "ready" && declaresTasksExtension(upstream.capabilities);
}

/**
 * The extension in `server/discover`'s capabilities: only when an upstream offers it, or runs
 * 2025-11-25 tool tasks, which mcpx gives a 2026-07-28 host in the extension's shape (start.ts).
 */
export function modernTasksCapability(upstreams: readonly Upstream[]): JsonObject | undefined {
  return upstreams.some((upstream) => offersModernTasks(upstream) || runsToolTasks(upstream)) ? { extensions: { [TASKS_EXTENSION]: {} } } : undefined;
}

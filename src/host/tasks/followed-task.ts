/**
 * What a task relayed for a host is to those that follow it and ask its questions (follower.ts,
 * task-questions.ts): whose it is, in which era's shape, and where it runs. The registry's
 * `RelayedTask` is one (registry.ts).
 */
import type { Upstream } from "../../upstream/upstream.js";
import type { CallerContext, HostSession } from "../session.js";

/** 2025-11-25 core tasks, or the 2026 extension's. */
export type TaskEra = "2025" | "2026";

export interface FollowedTask {
  /** The id the owning host knows it by. */
  readonly id: string;
  /** Who may see and touch it (registry.ts `ownerKey`); a session's own task passes to the identity's next session that names it once the session ended. */
  owner: string;
  /** The owner's identity (broker/identity.ts). */
  readonly identity: string;
  /** The shape its owner knows it in. */
  readonly shape: TaskEra;
  /** How the upstream runs it. */
  readonly runsAs: TaskEra;
  /** The session that created it, or the owner's latest one to touch it: where its status notifications go. */
  session: HostSession;
  /** The connection the task runs on: every request about it goes there. */
  readonly upstream: Upstream;
  readonly server: string;
  readonly upstreamId: string;
  /** The upstream's own name of the tool the task runs. */
  readonly tool: string;
  /** When the upstream may forget it (creation + its `ttl`); undefined: kept as long as mcpx runs. */
  readonly expiresAt: number | undefined;
  /** Host requests waiting on `tasks/result` for it now: a question of the task travels with the latest. */
  readonly waiting: Set<CallerContext>;
}

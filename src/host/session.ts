/**
 * One host connected to mcpx: its negotiated revision, what it declared, and its conversation.
 * The revision and capabilities are fixed at `initialize` and read by the render layer.
 */
import type { Peer, RequestOptions } from "../rpc/peer.js";
import type { JsonObject, RequestId } from "../protocol/jsonrpc.js";
import type { Revision } from "../protocol/revisions.js";
import type { HostProfile } from "../render/host.js";
import type { Route } from "../rpc/channel.js";
import { canCarryNotification, downgradeNotification } from "../protocol/downgrade.js";
import type { RunningScript } from "../scripts/types.js";
import { LOCAL_IDENTITY } from "../broker/identity.js";

export const LOG_LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

let counter = 0;

export class HostSession {
  readonly id: string;
  revision: Revision | undefined;
  capabilities: JsonObject = {};
  clientInfo: JsonObject | undefined;
  logLevel: LogLevel | undefined;
  /** mcpx declared the `tasks` capability to it (host/tasks/): it may relay tasks, and call tools that require one. */
  tasksOffered = false;
  readonly subscriptions = new Set<string>();
  /**
   * Who the host is (broker/identity.ts): an issuer's subject when it signed in with a token,
   * else the operator, "local". It owns the session, its questions and its upstream connections.
   */
  identity: string = LOCAL_IDENTITY;
  /** The profile (config `profiles`) whose tools it sees: `/mcp/<name>`, `mcpx serve --profile`; undefined: every tool. */
  profileName: string | undefined;
  closed = false;
  /** Set while `initialize` is being answered. */
  initializing: Promise<unknown> | undefined;
  /**
   * Can a request of mcpx's travel to the host with its request `requestId` (HTTP: on that
   * POST's stream)? Always on stdio; on HTTP not for a POST that accepts only JSON.
   */
  canCarryRequests: (requestId: RequestId | undefined) => boolean = () => true;

  constructor(
    readonly peer: Peer,
    readonly transport: "stdio" | "http",
    id?: string,
  ) {
    this.id = id ?? `host-${++counter}`;
  }

  get initialized(): boolean {
    return this.revision !== undefined;
  }

  /**
   * Hooks for the modern era (src/host/modern/): a 2026-07-28 request is served on a session of
   * its own that shares the connection's peer. Legacy sessions are the defaults below.
   */
  /** Serves one modern request (or call) only: never itself an era choice, and its peer is not its own. */
  get servesOneRequest(): boolean {
    return false;
  }

  /** The session whose per-host upstream connections this one uses. */
  get connectionScope(): HostSession {
    return this;
  }

  /**
   * Ask this host a question inline (legacy: a request to it; modern: an input request of its
   * call, under `inputKey`: the upstream's own key when it had one, else the question's id).
   */
  askInline(_inputKey: string, method: string, params: JsonObject, options: RequestOptions): Promise<JsonObject> {
    return this.peer.request(method, params, options);
  }

  /**
   * A question of this host's call needs capabilities it did not declare, and nobody else may
   * answer it (`elicitation.mode` "host"). A legacy host has no error for that: its question
   * is cancelled, and the call goes on. A modern one's call fails with -32021 (modern/).
   */
  lacksCapabilities(_required: JsonObject, _why: string): void {}

  profile(): HostProfile | undefined {
    return this.revision ? { revision: this.revision, capabilities: this.capabilities } : undefined;
  }

  /**
   * Send a notification shaped for this host's revision, or not at all when the revision has
   * no way to carry it. Never throws: a host that has gone simply misses it.
   */
  notify(method: string, params: JsonObject | undefined, route?: Route): void {
    this.notifyOn(this.peer, method, params, route);
  }

  /** `notify`, on a given conversation (a modern call's retry comes on a connection of its own). */
  protected notifyOn(peer: Peer, method: string, params: JsonObject | undefined, route?: Route): void {
    if (this.closed || !this.revision) return;
    if (!canCarryNotification(method, params ?? {}, this.revision)) return;
    const shaped = params === undefined ? undefined : downgradeNotification(method, params, this.revision);
    void peer.notify(method, shaped && Object.keys(shaped).length ? shaped : undefined, route).catch(() => {});
  }

  /** Should a log message at `level` reach this host? */
  wantsLog(level: unknown): boolean {
    if (!this.logLevel) return true;
    const at = LOG_LEVELS.indexOf(level as LogLevel);
    return at === -1 || at >= LOG_LEVELS.indexOf(this.logLevel);
  }
}

/** Whoever made a call through mcpx, as far as mcpx knows. */
export interface CallerContext {
  /** The host session and its request, for calls from hosts. */
  session?: HostSession;
  requestId?: RequestId;
  /** The upstream's own name of the tool called. */
  tool?: string;
  /** For calls made by `mcpx call`: the call's id in the store. */
  callId?: string;
  /**
   * For a call a script made: the run it is of (a host's `mcpx__exec`, a command's run). Calls
   * of one run are that one call to whoever reads them (design rule 5, host/attribution.ts).
   */
  run?: CallerContext;
  /** For a script run's own context: the running script, which may answer its run's questions (host/script-questions.ts). */
  script?: Pick<RunningScript, "handlesQuestions" | "offer" | "hold">;
  /** Aborted when the call ends from the caller's side (cancelled, disconnected). */
  signal?: AbortSignal;
  /**
   * A signal aborted when the call is over, however it ended (answered, failed, cancelled):
   * nothing of it waits on a question any more. Made when first asked for, so a call that
   * raises no question pays nothing for it.
   */
  ended?: () => AbortSignal;
  /**
   * Set by the forwarding layer for a host's call: a URL question of this very call could not
   * be delivered inline (design rule 7), with what the host's `-32042` would list for it.
   */
  urlBlocked?: (blocked: BlockedUrlQuestion) => void;
}

/** A URL question of a call that the calling host could not be sent inline. */
export interface BlockedUrlQuestion {
  questionId: string;
  /** As the host's revision has it: `{mode: "url", elicitationId, url, message}`. */
  elicitation: JsonObject;
}

/** The host to ask, and the request of its that a question travels with (HTTP: its stream). */
export interface AskedHost {
  session: HostSession;
  requestId?: RequestId;
}

/**
 * A task mcpx follows itself, from its creation until it ends: a 2026 extension task (relayed to
 * a 2026-07-28 or a 2025-11-25 host), or a 2025-11-25 task relayed to a 2026-07-28 host. The
 * follower hears how the task stands, takes its questions into the broker (task-questions.ts)
 * and sends their answers back, and keeps how it ended, which the owner collects in its era's
 * way (methods.ts, modern-methods.ts) whenever it comes back, from whichever connection.
 *
 * - A 2026 task (`runsAs` "2026"): polled with `tasks/get` at its `pollIntervalMs` (50 ms to
 *   5 s); each of its `inputRequests` is asked once, its answer sent with `tasks/update`.
 * - A 2025-11-25 task: mcpx waits on its `tasks/result` (a 2025 server delivers the task's
 *   requests there, with the related-task metadata: the gateway hands them to `fromUpstream`).
 *
 * A question nobody answers before it expires cancels the task. The follower stops when the task
 * ends, when its ttl has passed, or with the process; the upstream's task is not cancelled then.
 */
import { RpcError } from "../../protocol/errors.js";
import { ErrorCode, isObject, type JsonObject } from "../../protocol/jsonrpc.js";
import { inputResponse } from "../../protocol/modern.js";
import { pendingInputRequests } from "../../protocol/modern-tasks.js";
import type { IncomingContext } from "../../rpc/peer.js";
import type { Logger } from "../../util/log.js";
import { sleep } from "../../util/sleep.js";
import type { QuestionRelay } from "../questions.js";
import { cancelsTasks } from "./capability.js";
import type { FollowedTask } from "./followed-task.js";
import { legacyEnd, legacyTask, modernEnd, type TaskEnd } from "./shapes.js";
import { TaskQuestions } from "./task-questions.js";

/** What following a task needs of the gateway. */
export type FollowerGateway = QuestionRelay;

const MIN_POLL_MS = 50;
const MAX_POLL_MS = 5_000;
/** How often the store hears of a task whose status did not change. */
const RECORD_EVERY_MS = 2_000;

export class TaskFollower {
  readonly questions: TaskQuestions;
  /** How the task ended, once it has (the owner collects it). */
  end: TaskEnd | undefined;
  readonly ended: Promise<TaskEnd>;
  /** The upstream's fields of the task as last heard (its era's shape). */
  fields: JsonObject;
  readonly #stop = new AbortController();
  readonly #asking = new Set<string>();
  #finished: (end: TaskEnd) => void = () => {};
  #recordedAt = 0;
  #asked = 0;
  readonly #log: Logger;

  constructor(
    gateway: FollowerGateway,
    private readonly task: FollowedTask,
    created: JsonObject,
    /** What the upstream said of the task (the registry and the store take note). */
    private readonly onHeard: (fields: JsonObject) => void,
  ) {
    this.fields = created;
    this.questions = new TaskQuestions(gateway, task);
    this.ended = new Promise((resolve) => (this.#finished = resolve));
    this.#log = gateway.log.child({ server: task.server, task: task.id });
  }

  /** Start following (the task is in the registry already). */
  start(): this {
    if (this.task.runsAs === "2026") void this.#poll();
    else void this.#collect();
    return this;
  }

  /** Stop following: its questions are withdrawn; the upstream's task runs on. */
  stop(): void {
    if (this.#stop.signal.aborted) return;
    this.#stop.abort(new Error("mcpx stopped following the task"));
    this.questions.closeAll("mcpx stopped following the task");
  }

  get stopped(): boolean {
    return this.#stop.signal.aborted;
  }

  /** A 2026 task as the upstream has it now (its new questions opened before this resolves). */
  async refresh(signal?: AbortSignal): Promise<JsonObject> {
    if (this.end || this.task.runsAs !== "2026") return this.fields;
    const fields = await this.#send("tasks/get", {}, signal);
    this.#heard(fields);
    return fields;
  }

  /** A 2025-11-25 task's status now (`tasks/get` to the upstream), as the 2025 Task under the upstream's id. */
  async legacyStatus(signal?: AbortSignal): Promise<JsonObject> {
    if (this.end) return this.fields;
    const fields = await this.#send("tasks/get", {}, signal);
    this.fields = { ...this.fields, ...fields };
    this.#record(fields, false);
    return fields;
  }

  /** Cancel the task upstream (`why` for the log); its end follows as the upstream reports it. */
  async cancel(why: string, signal?: AbortSignal): Promise<void> {
    this.#log.info("cancelling the task upstream", { why });
    if (this.task.runsAs === "2025" && !cancelsTasks(this.task.upstream)) {
      throw new RpcError(ErrorCode.MethodNotFound, `"${this.task.server}" does not take tasks/cancel`);
    }
    const result = await this.#send("tasks/cancel", {}, signal);
    if (this.task.runsAs === "2025" && typeof result.status === "string") this.fields = { ...this.fields, ...result };
    if (this.task.runsAs === "2026") await this.refresh(signal).catch(() => {});
  }

  /**
   * A 2025-11-25 server's request for the task (`elicitation/create` with the related-task
   * metadata): a question of the task's; the answer goes back as the request's result.
   */
  async fromUpstream(context: IncomingContext): Promise<JsonObject> {
    const { method, params } = context.request;
    const asked = await this.questions.ask(`input-${++this.#asked}`, method, params, AbortSignal.any([context.signal, this.#stop.signal]));
    if (asked.expired) void this.cancel("a question of the task expired").catch(() => {});
    // The result goes out as this resolves: the answer has reached the upstream then.
    setImmediate(asked.forwarded);
    return asked.answer;
  }

  /** 2026: poll until the task ends, asking its questions. */
  async #poll(): Promise<void> {
    const interval = Math.min(MAX_POLL_MS, Math.max(MIN_POLL_MS, numberOr(this.fields.pollIntervalMs, 500)));
    this.#heard(this.fields);
    while (!this.end && !this.stopped) {
      await sleep(interval, this.#stop.signal);
      if (this.stopped || this.end) return;
      if (this.task.expiresAt !== undefined && this.task.expiresAt < Date.now()) {
        this.#log.info("the task's ttl has passed; mcpx stops following it");
        this.stop();
        return;
      }
      try {
        await this.refresh(this.#stop.signal);
      } catch (error) {
        if (this.stopped) return;
        if (error instanceof RpcError && error.code === ErrorCode.InvalidParams) {
          this.#finish({ status: "failed", error: { code: error.code, message: `upstream "${this.task.server}" no longer has the task` } });
          return;
        }
        // A connection retired (a config reload) or stopped takes its tasks with it.
        if (this.task.upstream.state === "stopped") {
          this.stop();
          return;
        }
        this.#log.warn("could not ask the upstream how the task stands; trying again", { error });
      }
    }
  }

  /** 2025-11-25: wait on `tasks/result`, then read how it ended. */
  async #collect(): Promise<void> {
    try {
      const result = await this.#send("tasks/result", {}, this.#stop.signal, { untimed: true });
      const status = await this.legacyStatus(this.#stop.signal).catch(() => ({}) as JsonObject);
      this.#finish(status.status === "cancelled" ? { status: "cancelled" } : legacyEnd(result));
    } catch (error) {
      if (this.stopped) return;
      const status = await this.legacyStatus().catch(() => ({}) as JsonObject);
      if (status.status === "cancelled") this.#finish({ status: "cancelled" });
      else this.#finish({ status: "failed", error: errorObject(error) });
    }
  }

  /** What the upstream said of a 2026 task: its status, its new questions, its end. */
  #heard(fields: JsonObject): void {
    const changed = fields.status !== this.fields.status;
    this.fields = fields;
    const end = modernEnd(fields);
    if (end) {
      this.#finish(end);
      return;
    }
    for (const [key, request] of Object.entries(pendingInputRequests(fields))) this.#askModern(key, request);
    this.#record(fields, changed);
  }

  #askModern(key: string, request: JsonObject): void {
    if (this.#asking.has(key)) return;
    this.#asking.add(key);
    const method = String(request.method);
    const params = isObject(request.params) ? request.params : undefined;
    void this.questions
      .ask(key, method, params, this.#stop.signal)
      .then(async (asked) => {
        try {
          if (asked.expired) await this.cancel("a question of the task expired");
          else await this.#send("tasks/update", { inputResponses: { [key]: inputResponse(method, asked.answer) } }, this.#stop.signal);
        } finally {
          asked.forwarded();
        }
      })
      .catch((error: unknown) => {
        if (!this.stopped) this.#log.warn("a question of the task could not be asked or its answer not sent", { key, error });
      })
      .finally(() => this.#asking.delete(key));
  }

  #finish(end: TaskEnd): void {
    if (this.end) return;
    this.end = end;
    this.questions.closeAll("the task ended");
    this.#record({ ...this.fields, status: end.status }, true);
    this.#finished(end);
  }

  /** Tell the registry (the store) and, for a 2025-11-25 owner, the owner of a change of status. */
  #record(fields: JsonObject, changed: boolean): void {
    const now = Date.now();
    if (!changed && now - this.#recordedAt < RECORD_EVERY_MS) return;
    this.#recordedAt = now;
    this.onHeard(fields);
    if (changed && this.task.shape === "2025" && this.task.runsAs === "2026") {
      this.task.session.notify("notifications/tasks/status", legacyTask(fields, this.task.id));
    }
  }

  #send(method: string, params: JsonObject, signal?: AbortSignal, options: { untimed?: boolean } = {}): Promise<JsonObject> {
    const { task } = this;
    return task.upstream.call(
      method,
      { ...params, taskId: task.upstreamId },
      {
        ...(signal ? { signal } : {}),
        ...(task.runsAs === "2025" ? { legacyCaller: true } : {}),
        ...options,
      },
    );
  }
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) ? value : fallback;
}

/** A JSON-RPC error object for what went wrong. */
function errorObject(error: unknown): JsonObject {
  if (error instanceof RpcError) return { code: error.code, message: error.message, ...(error.data !== undefined ? { data: error.data as JsonObject } : {}) };
  return { code: ErrorCode.InternalError, message: error instanceof Error ? error.message : String(error) };
}

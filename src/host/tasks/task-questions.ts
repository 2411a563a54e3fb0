/**
 * The questions of a task mcpx follows (follower.ts): each is a broker question attributed to
 * the task's owner (its identity, and its session when a session owns the task), whatever
 * connection the owner polls from later, so the CLI, the page and REST can answer it while
 * nobody polls. The owner answers it in its era's way: a 2025-11-25 host is asked inline
 * (`elicitation/create` with the related-task metadata naming its id) on each `tasks/result` it
 * waits on; a 2026-07-28 host sees it among the `inputRequests` of `tasks/get` and answers with
 * `tasks/update`. The first answer stands; a question that expires cancels the task.
 */
import { randomUUID } from "node:crypto";
import { outcomeFor } from "../../broker/outcome.js";
import type { QuestionRecord } from "../../broker/types.js";
import { RpcError } from "../../protocol/errors.js";
import { isObject, type JsonObject } from "../../protocol/jsonrpc.js";
import { questionFromRequest, questionRefusal, type Question } from "../../render/question.js";
import { renderForHost } from "../../render/render.js";
import type { Upstream } from "../../upstream/upstream.js";
import { attribute } from "../attribution.js";
import { answerFromHost, askInlineAndSettle, settleFromHost } from "../inline.js";
import { decidedAtOnce, type QuestionRelay } from "../questions.js";
import type { CallerContext, HostSession } from "../session.js";
import type { FollowedTask } from "./followed-task.js";
import { RELATED_TASK, withoutRelatedTask, withRelatedTask } from "../../protocol/related-task.js";

/** One question of the task, waiting for its first answer. */
interface Pending {
  key: string;
  question: Question;
  record: QuestionRecord;
  /** Resolves once its answer has gone to the upstream. */
  forwarded: Promise<void>;
}

/** An answered question of the task: what goes upstream, and to say when it has gone. */
export interface TaskAnswer {
  answer: JsonObject;
  /** Nobody answered in time: the task is to be cancelled. */
  expired: boolean;
  forwarded(): void;
}

/** How long a host's `tasks/update` waits for its answer to reach the upstream. */
const FORWARD_WAIT_MS = 10_000;

export class TaskQuestions {
  readonly #pending = new Map<string, Pending>();

  constructor(
    private readonly gateway: QuestionRelay,
    private readonly task: FollowedTask,
  ) {}

  /**
   * Ask one question of the task (`key`: the upstream's input key, or one of mcpx's for a 2025
   * server's request) and wait for its first answer. Aborting `signal` withdraws it.
   */
  async ask(key: string, method: string, params: JsonObject | undefined, signal: AbortSignal): Promise<TaskAnswer> {
    const { gateway, task } = this;
    const upstream = task.upstream;
    const refusal = questionRefusal(method, params, upstream.revision);
    if (refusal) throw new RpcError(refusal.code, refusal.message);
    // Its related-task metadata names the owner's id, for a 2025-11-25 owner; a 2026 owner's input request has none.
    const own = params === undefined ? {} : task.shape === "2025" ? withRelatedTask(params, task.id) : withoutRelatedTask(params);
    const question = questionFromRequest(randomUUID(), upstream.name, method, own);
    if (!question) throw new RpcError(-32602, `mcpx cannot ask ${method} of the task's owner`);
    question.inputKey = key;
    const broker = gateway.broker;
    if (!broker) return { answer: cancelFor(question), expired: false, forwarded: () => {} };
    const decision = decidedAtOnce(gateway, question, task.tool);
    if (decision === "error")
      throw new RpcError(-32603, `mcpx is configured to refuse questions (elicitation.mode is "error"); ${question.server} asked ${method}`);
    const release = gateway.pendingQuestions.take(upstream);
    if (!release) return { answer: cancelFor(question), expired: false, forwarded: () => {} };
    const log = gateway.log.child({ server: upstream.name, question: question.id, task: task.id });
    try {
      const record = await broker.open(question, this.#origin(), upstream.config.elicitation.ttlSeconds ?? gateway.config.elicitation.ttlSeconds, decision);
      if (record.state !== "pending") {
        await broker.delivered(record.id);
        return { answer: outcomeFor(record), expired: false, forwarded: () => {} };
      }
      let done = (): void => {};
      const pending: Pending = { key, question, record, forwarded: new Promise<void>((resolve) => (done = resolve)) };
      this.#pending.set(key, pending);
      log.info("a task's question waits for its owner or a person", { key, shape: task.shape });
      for (const caller of task.waiting) this.#askInline(pending, caller, signal);
      const withdraw = (): void => broker.closeSoon(record.id, "the task no longer waits for it");
      signal.addEventListener("abort", withdraw, { once: true });
      try {
        const settled = await broker.wait(record.id);
        await broker.delivered(settled.id);
        const forwarded = (): void => {
          if (this.#pending.get(key) === pending) this.#pending.delete(key);
          done();
        };
        if (settled.state === "expired") forwarded();
        return { answer: outcomeFor(settled), expired: settled.state === "expired", forwarded };
      } catch (error) {
        this.#pending.delete(key);
        done();
        throw error;
      } finally {
        signal.removeEventListener("abort", withdraw);
      }
    } finally {
      release();
    }
  }

  /** Questions waiting now. */
  get size(): number {
    return this.#pending.size;
  }

  /** The waiting questions as a 2026 owner's `inputRequests`, under their keys, rendered for `session`. */
  inputRequests(session: HostSession): Record<string, JsonObject> {
    const profile = session.profile();
    const requests: Record<string, JsonObject> = {};
    for (const [key, pending] of this.#pending) {
      if (pending.record.state !== "pending") continue;
      const rendered = profile ? renderForHost(pending.question, profile, { nameServer: !this.task.upstream.config.passthrough }) : undefined;
      if (rendered?.sendable) requests[key] = { method: rendered.method, params: rendered.params };
      else requests[key] = { method: pending.question.method, params: pending.question.params };
    }
    return requests;
  }

  /**
   * A 2026 owner's `tasks/update`: each response settles its question (the first answer
   * stands: a question answered elsewhere is over) and resolves once it has reached the
   * upstream. Keys of no waiting question are ignored, as the extension has it.
   */
  async answer(session: HostSession, responses: JsonObject): Promise<void> {
    const broker = this.gateway.broker;
    const forwarded: Array<Promise<void>> = [];
    for (const [key, response] of Object.entries(responses)) {
      const pending = this.#pending.get(key);
      if (!broker || !pending || !isObject(response)) continue;
      const answer = answerFromHost(pending.question, response);
      if ("malformed" in answer) throw new RpcError(-32602, `inputResponses["${key}"] is not an answer to ${pending.question.method}: ${answer.malformed}`);
      await settleFromHost(broker, pending.record, session, answer, this.gateway.log);
      forwarded.push(pending.forwarded);
    }
    await Promise.race([Promise.all(forwarded), new Promise((resolve) => setTimeout(resolve, FORWARD_WAIT_MS).unref())]);
  }

  /** A 2025-11-25 owner waits on `tasks/result` (`caller`): every waiting question is put to it inline, until `signal` aborts. */
  askWaiting(caller: CallerContext, signal: AbortSignal): void {
    for (const pending of this.#pending.values()) this.#askInline(pending, caller, signal);
  }

  /** Withdraw every waiting question (the task ended, or mcpx stops following it). */
  closeAll(why: string): void {
    for (const pending of this.#pending.values()) this.gateway.broker?.closeSoon(pending.record.id, why);
  }

  #askInline(pending: Pending, caller: CallerContext, signal: AbortSignal): void {
    const host = caller.session;
    if (!host || this.task.shape !== "2025" || pending.record.state !== "pending") return;
    const asked = new AbortController();
    const stop = (): void => asked.abort();
    signal.addEventListener("abort", stop, { once: true });
    void this.gateway.broker
      ?.wait(pending.record.id)
      .catch(() => {})
      .finally(stop);
    askInlineAndSettle(
      this.gateway,
      this.task.upstream as Upstream,
      {
        question: pending.question,
        record: pending.record,
        host,
        attribution: attribute([caller], undefined),
        signal: asked.signal,
        log: this.gateway.log.child({ server: this.task.server, question: pending.record.id, task: this.task.id }),
      },
      // The question stays open for the page, the CLI and the host's next tasks/result.
      { notAsked: () => {}, didNotCount: () => {}, gone: () => {} },
    );
  }

  #origin(): { tool: string; hostSession?: string; identity: string } {
    const { task } = this;
    const session = task.owner.startsWith("session:") ? task.owner.slice("session:".length) : undefined;
    return { tool: task.tool, ...(session ? { hostSession: session } : {}), identity: task.identity };
  }
}

/** The answer when nobody here can be asked. */
function cancelFor(question: Question): JsonObject {
  if (question.kind === "elicitation") return { action: "cancel" };
  throw new RpcError(-1, `${question.method} from "${question.server}" was cancelled: nobody here can answer it`);
}

/** Whether a request's params name a task in their related-task metadata. */
export function namesTask(params: unknown): boolean {
  return isObject(params) && isObject(params._meta) && RELATED_TASK in params._meta;
}

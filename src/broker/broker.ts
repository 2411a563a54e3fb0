/**
 * The broker: every question an upstream asks becomes a row in the shared store, and any
 * surface in any process may answer it. A question is state with a deadline: expiry answers
 * `cancel` (never `decline`, which would claim someone said no).
 *
 * The process that asked keeps waiting; it notices answers written by other processes by
 * watching the store (cheap: SQLite's data_version), within a fraction of a second.
 */
import { randomUUID } from "node:crypto";
import type { JsonObject } from "../protocol/jsonrpc.js";
import type { Question } from "../render/question.js";
import type { Logger } from "../util/log.js";
import { processAlive } from "../util/process.js";
import { type AnswerInput, checkAnswer } from "./check-answer.js";
import { type Clock, systemClock } from "./clock.js";
import type { Delivery } from "./delivery.js";
import { BrokerError } from "./errors.js";
import { newQuestionRecord } from "./new-question.js";
import { alreadySettled, CLOSED_BECAUSE, CLOSED_PREFIX } from "./settled-why.js";
import { Retention } from "./retention.js";
import type { QuestionStore } from "./store.js";
import { Waiters, watchDelivery, watchFinish } from "./store-watch.js";
import { identityOf } from "./identity.js";
import type { Origin, QuestionRecord } from "./types.js";
import type { NewTask } from "./task-store.js";

const SWEEP_MS = 5_000;
/** How often settled questions and finished calls past retention are pruned. */
const PRUNE_MS = 3_600_000;
/** The longest delay setTimeout honours (a longer one fires at once); the sweep expires the rest. */
const MAX_TIMER_MS = 2_147_483_647;

export interface AnswerOptions {
  /** Who is answering, for the record. */
  by: string;
  /** The network address the answer came from (an answer over HTTP), for the record. */
  from?: string;
  /** The answerer is an agent (a gateway tool): person-only questions are refused. */
  asAgent?: boolean;
  /**
   * The calling host answered its own question inline: the answer goes to the upstream as the
   * host gave it, unchecked against the schema, as over a direct connection (design rule 8).
   */
  asGiven?: boolean;
}

export interface Housekeeping {
  /** How often to prune past retention (default hourly); tests make it short. */
  pruneEveryMs?: number;
}

export class Broker {
  /** Identifies this process's questions in the shared store. */
  readonly instance = randomUUID();
  readonly #expiry = new Map<string, NodeJS.Timeout>();
  readonly #waiters: Waiters;
  #stopped = false;
  #sweeper: NodeJS.Timeout | undefined;
  #pruner: NodeJS.Timeout | undefined;
  readonly #listeners = new Set<(record: QuestionRecord) => void>();
  /** This process's followers of tasks, told of a cancel made here (another process's they see in the store). */
  readonly #taskCancels = new Set<(id: string) => void>();

  readonly #clock: Clock;
  readonly #retention: Retention;

  constructor(
    readonly store: QuestionStore,
    private readonly log: Logger,
    options: { clock?: Clock } = {},
  ) {
    this.#clock = options.clock ?? systemClock;
    this.#retention = new Retention(store, log, this.#clock);
    this.#waiters = new Waiters(store, (id) => this.#settled(id));
  }

  /**
   * Begin housekeeping: expire overdue questions, close orphans, and prune settled questions and
   * finished calls past retention, now and then periodically (a long-running serve keeps nothing
   * past retention either).
   */
  start(retentionDays = 7, housekeeping: Housekeeping = {}): void {
    this.prune(retentionDays);
    this.sweep();
    this.#sweeper = setInterval(() => this.sweep(), SWEEP_MS);
    this.#sweeper.unref();
    this.#pruner = setInterval(() => this.prune(retentionDays), housekeeping.pruneEveryMs ?? PRUNE_MS);
    this.#pruner.unref();
  }

  /** Remove settled questions and finished calls (and their logs) older than `retentionDays`. */
  prune(retentionDays: number): void {
    if (!this.store.open) return;
    this.#retention.prune(retentionDays);
  }

  /** Close this process's pending questions (their waiter is going away) and stop. Idempotent; never throws. */
  stop(): void {
    if (this.#stopped) return;
    this.#stopped = true;
    clearInterval(this.#sweeper);
    clearInterval(this.#pruner);
    this.#waiters.stop();
    for (const timer of this.#expiry.values()) clearTimeout(timer);
    this.#expiry.clear();
    try {
      for (const id of this.store.pendingOwnedBy(this.instance)) this.close(id, CLOSED_BECAUSE.processStopped);
      // Only this process could reach the tasks it relayed (it holds their connections).
      this.store.tasks.unfollowable(
        this.instance,
        `mcpx stopped while it followed this task (process ${process.pid}); it can no longer be reached through mcpx`,
      );
      // Answered but never handed over: nobody here will deliver them now.
      this.#retention.forgetHeldSecrets((owner) => owner === this.instance);
    } catch (error) {
      // A store already closed: its questions are settled by the next process's sweep.
      this.log.warn("could not settle this process's questions on the way out", { error });
    }
  }

  /**
   * The waiting process has read the answer and is handing it to the upstream that asked: the
   * store records the delivery (what the answering surfaces wait for, `awaitDelivery`), and a
   * person-only answer's content is forgotten now (action, who and when stay), its bytes
   * leaving the file (design rule 9). Other answers are kept, for the record, until retention.
   */
  delivered(id: string): void {
    this.store.markDelivered(id);
    this.#retention.forgetDelivered(id);
    // The waiting process hands each question's outcome on once: that is when the audit trail hears of it.
    const record = this.store.get(id);
    if (record) this.#audit(record);
  }

  #audit(record: QuestionRecord): void {
    try {
      this.store.audit.append({
        kind: "question",
        identity: identityOf(record),
        ...(record.hostSession ? { hostSession: record.hostSession } : {}),
        ...(record.callId ? { callId: record.callId } : {}),
        server: record.server,
        ...(record.tool ? { tool: record.tool } : {}),
        outcome: record.state === "answered" ? (record.answer?.action ?? "answered") : record.state,
        questionId: record.id,
        method: record.method,
        ...(record.answer ? { answeredBy: record.answer.by } : {}),
        ...(record.answer?.from ? { answeredFrom: record.answer.from } : {}),
        durationMs: Date.parse(record.answer?.answeredAt ?? new Date().toISOString()) - Date.parse(record.createdAt),
        detail: record.audience === "person" ? `person-only: ${record.audienceReason}` : record.audienceReason,
      });
    } catch (error) {
      this.log.warn("could not add the question to the audit trail", { question: record.id, error });
    }
  }

  /**
   * Record a new question from an upstream. A `preanswer` (a policy rule's) is checked like any
   * answer and stored in the same transaction, so no surface ever sees the question pending.
   */
  open(question: Question, origin: Origin, ttlSeconds: number, preanswer?: AnswerInput & { by: string }): QuestionRecord {
    const record = newQuestionRecord(question, origin, ttlSeconds, { instance: this.instance, now: this.#clock.now() });
    if (preanswer && this.#fits(record, preanswer)) {
      const answer = { action: preanswer.action, by: preanswer.by, ...(preanswer.content ? { content: preanswer.content } : {}) };
      // A person-only answer is handed straight to the upstream: its content is never written.
      this.store.insertSettled(record, record.audience === "person" ? { action: answer.action, by: answer.by } : answer);
      this.log.info("question answered by policy", { question: record.id, server: record.server, action: answer.action, by: answer.by });
      const stored = this.store.get(record.id)!;
      this.#emit(stored);
      return { ...stored, answer: { ...stored.answer!, ...(answer.content ? { content: answer.content } : {}) } };
    }
    this.store.insert(record);
    if (ttlSeconds * 1000 <= MAX_TIMER_MS) {
      const timer = setTimeout(() => this.#expire(record.id), ttlSeconds * 1000);
      timer.unref();
      this.#expiry.set(record.id, timer);
    }
    this.log.info("question opened", {
      question: record.id,
      server: record.server,
      kind: record.kind,
      audience: record.audience,
      reason: record.audienceReason,
    });
    this.#emit(record);
    return record;
  }

  #fits(record: QuestionRecord, answer: AnswerInput & { by: string }): boolean {
    try {
      checkAnswer(record, answer);
      return true;
    } catch (error) {
      this.log.warn("a policy answer does not fit the question; leaving it to people", { question: record.id, by: answer.by, error });
      return false;
    }
  }

  get(id: string): QuestionRecord | undefined {
    return this.store.get(id);
  }

  list(all = false): QuestionRecord[] {
    this.sweep();
    return this.store.list(all);
  }

  /**
   * Answer a pending question. Validates form content against the question's schema. The
   * first answer stands: a second gets a BrokerError saying who answered first, or why the
   * question closed (`alreadySettled`).
   */
  answer(id: string, input: AnswerInput, options: AnswerOptions): QuestionRecord {
    // Settle it first if it is overdue or orphaned, so an answer nobody can receive is refused.
    // Only this question: a whole sweep reads every held answer, on every answer.
    const record = this.#unlessStale(this.store.get(id));
    if (!record) throw new BrokerError("UNKNOWN_QUESTION", `no question with id ${id}`);
    if (record.state !== "pending") throw alreadySettled(record);
    if (options.asAgent && record.audience === "person") {
      throw new BrokerError("PERSON_ONLY", `question ${id} is for a person only (${record.audienceReason})`);
    }
    if (!options.asGiven) checkAnswer(record, input);
    // A person-only answer for a waiter in this process is handed over in memory: its content is
    // never written, so there is nothing to forget (and no checkpoint to pay) once it is delivered.
    const inHand = record.audience === "person" && input.content !== undefined && this.#waiters.has(id);
    const answer = {
      action: input.action,
      by: options.by,
      ...(options.from ? { from: options.from } : {}),
      ...(input.content && !inHand ? { content: input.content } : {}),
    };
    if (!this.store.settle(id, "answered", answer, this.#clock.now())) throw alreadySettled(this.store.get(id) ?? record);
    this.log.info("question answered", { question: id, action: input.action, by: options.by });
    return this.#settled(id, inHand ? input.content : undefined);
  }

  /**
   * A URL question's interaction is finished: the upstream said so, or a person did (for an
   * upstream that never notifies). A pending one is accepted with it (finishing is consenting).
   * Refused for anything but a URL question, one already complete, or one settled otherwise.
   */
  complete(id: string, by: string, from?: string): QuestionRecord {
    this.sweep();
    const record = this.store.get(id);
    if (!record) throw new BrokerError("UNKNOWN_QUESTION", `no question with id ${id}`);
    if (record.kind !== "elicitation" || record.mode !== "url") {
      throw new BrokerError("INVALID_ANSWER", `question ${id} is not a URL question: only a URL question is completed (answer it instead)`);
    }
    const wasPending = record.state === "pending";
    if (!this.store.complete(id, by, undefined, from)) {
      const now = this.store.get(id) ?? record;
      if (now.completion)
        throw new BrokerError("ALREADY_SETTLED", `question ${id} was already completed (by ${now.completion.by} at ${now.completion.completedAt})`);
      throw alreadySettled(now);
    }
    this.log.info("URL question completed", { question: id, by });
    if (wasPending) return this.#settled(id);
    const completed = this.store.get(id)!;
    this.#emit(completed);
    return completed;
  }

  /** Resolve once the URL question's interaction is finished, or cannot be, or `untilMs` passed (`watchFinish`). */
  untilFinished(id: string, untilMs: number, signal?: AbortSignal): Promise<QuestionRecord> {
    return watchFinish(this.store, id, untilMs, signal);
  }

  /** Nobody waits for the answer any more (`why`, see `CLOSED_BECAUSE`): the question can no longer be answered usefully. */
  close(id: string, why: string): void {
    if (this.store.settle(id, "closed", { action: "cancel", by: `${CLOSED_PREFIX}${why}` }, this.#clock.now())) {
      this.log.info("question closed", { question: id, why });
      this.#settled(id);
    }
  }

  /**
   * A pending question nobody owned turns out to be what a `mcpx call` call waits for (a
   * sign-in raised when mcpx connected): it is that call's from now on, so the command shows it
   * as its own question instead of waiting without a word.
   */
  attachToCall(id: string, callId: string): void {
    if (!this.store.attachToCall(id, callId)) return;
    const record = this.store.get(id);
    if (record) this.#emit(record);
  }

  /** Resolve when the question is settled by anyone, in any process. */
  wait(id: string): Promise<QuestionRecord> {
    const current = this.store.get(id);
    if (!current) return Promise.reject(new BrokerError("UNKNOWN_QUESTION", `no question with id ${id}`));
    if (current.state !== "pending") return Promise.resolve(current);
    return new Promise((resolve) => this.#waiters.add(id, resolve));
  }

  /** Wait (at most `timeoutMs`) until the waiting process has handed this settled question's answer over, or can no longer (`watchDelivery`). */
  awaitDelivery(id: string, timeoutMs?: number): Promise<{ record: QuestionRecord; delivery: Delivery }> {
    return watchDelivery(this.store, this.instance, id, timeoutMs);
  }

  /** Be told of every question opened or settled in this process. */
  subscribe(listener: (record: QuestionRecord) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Expire overdue questions and close those whose waiting process no longer exists. */
  sweep(): void {
    if (!this.store.open) return;
    for (const id of this.store.overdue(this.#clock.now())) this.#expire(id);
    for (const owner of this.store.pendingOwners()) {
      if (owner.instance === this.instance || processAlive(owner.pid)) continue;
      for (const id of this.store.pendingOwnedBy(owner.instance)) this.close(id, CLOSED_BECAUSE.processGone);
    }
    this.#retention.forgetHeldSecrets((instance, pid) => instance !== this.instance && !processAlive(pid));
    for (const follower of this.store.tasks.followers()) {
      if (follower.instance === this.instance || processAlive(follower.pid)) continue;
      const why = `the mcpx process that followed this task (process ${follower.pid}) is gone; it can no longer be reached through mcpx`;
      const ended = this.store.tasks.unfollowable(follower.instance, why);
      this.log.info("tasks whose mcpx process is gone were marked failed", { pid: follower.pid, tasks: ended });
    }
  }

  /** A task this process relayed for a host (host/tasks/): recorded as followed by this process. */
  recordTask(task: NewTask): void {
    this.store.tasks.record(task, { pid: process.pid, instance: this.instance });
  }

  /** How a task this process follows stands now. */
  taskHeard(id: string, status: string, statusMessage?: string): void {
    this.store.tasks.heard(id, status, statusMessage);
  }

  /**
   * A person cancels a task (REST, the page): the store says cancelled at once, and the process
   * that follows it cancels it upstream (this one hears it now; another one sees the store
   * change: host/tasks/records.ts). Whether it was still running.
   */
  cancelTask(id: string, why: string): boolean {
    if (!this.store.tasks.requestCancel(id, why)) return false;
    for (const listener of this.#taskCancels) listener(id);
    return true;
  }

  /** Hear of the tasks cancelled through this process's broker (`cancelTask`). */
  onTaskCancel(listener: (id: string) => void): () => void {
    this.#taskCancels.add(listener);
    return () => this.#taskCancels.delete(listener);
  }

  /** The record, after expiring or closing it when it is pending past its deadline or its waiting process is gone. */
  #unlessStale(record: QuestionRecord | undefined): QuestionRecord | undefined {
    if (record?.state !== "pending") return record;
    if (Date.parse(record.expiresAt) <= this.#clock.now()) this.#expire(record.id);
    else if (record.ownerInstance !== this.instance && !processAlive(record.ownerPid)) {
      this.close(record.id, "the mcpx process that was waiting on it is gone");
    } else return record;
    return this.store.get(record.id);
  }

  #expire(id: string): void {
    // The store was closed without stopping this broker: nothing is left to expire.
    if (!this.store.open) return;
    // A timer may fire a little early by the clock; then it waits out the rest.
    const record = this.store.get(id);
    const left = record ? Date.parse(record.expiresAt) - this.#clock.now() : 0;
    if (record?.state === "pending" && left > 0) {
      const timer = setTimeout(() => this.#expire(id), Math.min(left, MAX_TIMER_MS));
      timer.unref();
      this.#expiry.set(id, timer);
      return;
    }
    if (this.store.settle(id, "expired", { action: "cancel", by: "expiry" }, this.#clock.now())) {
      this.log.info("question expired; answered cancel", { question: id });
      this.#settled(id);
    }
  }

  #settled(id: string, content?: JsonObject): QuestionRecord {
    clearTimeout(this.#expiry.get(id));
    this.#expiry.delete(id);
    const stored = this.store.get(id)!;
    const record = content && stored.answer ? { ...stored, answer: { ...stored.answer, content } } : stored;
    this.#waiters.release(id, record);
    this.#emit(record);
    return record;
  }

  #emit(record: QuestionRecord): void {
    for (const listener of this.#listeners) {
      try {
        listener(record);
      } catch (error) {
        this.log.warn("a question listener failed", { error });
      }
    }
  }
}

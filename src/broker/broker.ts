/**
 * The broker: every question an upstream asks becomes a row in the shared store, and any
 * surface in any process may answer it. A question is state with a deadline: expiry answers
 * `cancel` (never `decline`, which would claim someone said no).
 *
 * The process that asked keeps waiting; it notices answers written by other processes by
 * listening to the store (`BrokerStore.onChange`), within a fraction of a second. Every step
 * that touches the store is asynchronous (the shared store is across a network); each step that
 * must be atomic is one store method (settle, insertSettled, complete, attachToCall).
 */
import { randomUUID } from "node:crypto";
import type { JsonObject } from "../protocol/jsonrpc.js";
import type { Question } from "../render/question.js";
import type { Logger } from "../util/log.js";
import { type AnswerInput, checkAnswer } from "./check-answer.js";
import { type Clock, systemClock } from "./clock.js";
import { deliveryOf, type Delivery } from "./delivery.js";
import { type QuestionView, viewOf } from "./view.js";
import { BrokerError } from "./errors.js";
import { newQuestionRecord } from "./new-question.js";
import { alreadySettled, CLOSED_BECAUSE, CLOSED_PREFIX } from "./settled-why.js";
import { Retention } from "./retention.js";
import { RIDE_OUT_MS, rideOut, storeAway } from "./ride-out.js";
import type { BrokerStore, Owner } from "./store-api.js";
import { type LocalChanges, ownerOf, type Waiter, Waiters, watchDelivery, watchFinish } from "./store-watch.js";
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
  /** This process's own changes to questions, by id (a store need not report its own writes to `onChange`). */
  readonly #localChanges = new Set<(id: string) => void>();
  /** The last step asked for on each question still under way (`#inOrder`). */
  readonly #steps = new Map<string, Promise<void>>();
  /** Takes back `liveness.join` (from `start` until `stop`). */
  #leave: (() => Promise<void>) | undefined;

  readonly #clock: Clock;
  readonly #retention: Retention;
  /** How long a waiting call's step rides out a store that is away (`rideOut`). */
  readonly #rideOutMs: number;

  constructor(
    readonly store: BrokerStore,
    private readonly log: Logger,
    options: { clock?: Clock; rideOutMs?: number } = {},
  ) {
    this.#clock = options.clock ?? systemClock;
    this.#rideOutMs = options.rideOutMs ?? RIDE_OUT_MS;
    this.#retention = new Retention(store, log, this.#clock);
    this.#waiters = new Waiters(
      store,
      (id) => this.#settled(id),
      (error) => this.log.warn("could not read a waited question from the store", { error }),
    );
  }

  /** Who this broker is, as the store records owners. */
  get owner(): Owner {
    return { pid: process.pid, instance: this.instance };
  }

  /**
   * Begin housekeeping: expire overdue questions, close orphans, and prune settled questions and
   * finished calls past retention, now and then periodically (a long-running serve keeps nothing
   * past retention either).
   */
  async start(retentionDays = 7, housekeeping: Housekeeping = {}): Promise<void> {
    this.#leave = this.store.liveness.join(this.owner);
    await this.prune(retentionDays);
    await this.sweep();
    this.#sweeper = setInterval(() => this.#inBackground("sweep", () => this.sweep()), SWEEP_MS);
    this.#sweeper.unref();
    this.#pruner = setInterval(() => this.#inBackground("prune", () => this.prune(retentionDays)), housekeeping.pruneEveryMs ?? PRUNE_MS);
    this.#pruner.unref();
  }

  /** Remove settled questions and finished calls (and their logs) older than `retentionDays`. */
  async prune(retentionDays: number): Promise<void> {
    if (!this.store.open) return;
    await this.#retention.prune(retentionDays);
  }

  /** A timer's step: its failure is logged (the store unreachable a while), never thrown at nobody. */
  #inBackground(what: string, step: () => Promise<unknown>): void {
    step().catch((error: unknown) => this.log.warn(`the broker's ${what} failed; it is tried again`, { error }));
  }

  /** Close this process's pending questions (their waiter is going away) and stop. Idempotent; never throws. */
  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    clearInterval(this.#sweeper);
    clearInterval(this.#pruner);
    this.#waiters.stop();
    for (const timer of this.#expiry.values()) clearTimeout(timer);
    this.#expiry.clear();
    try {
      for (const id of await this.store.questions.pendingOwnedBy(this.instance)) await this.close(id, CLOSED_BECAUSE.processStopped);
      // Only this process could reach the tasks it relayed (it holds their connections).
      await this.store.tasks.unfollowable(
        this.instance,
        `mcpx stopped while it followed this task (process ${process.pid}); it can no longer be reached through mcpx`,
      );
      // Answered but never handed over: nobody here will deliver them now.
      await this.#retention.forgetHeldSecrets(async (owner) => owner.instance === this.instance);
    } catch (error) {
      // A store already closed: its questions are settled by the next process's sweep.
      this.log.warn("could not settle this process's questions on the way out", { error });
    }
    try {
      await this.#leave?.();
    } catch (error) {
      this.log.warn("could not tell the store this broker left", { error });
    }
  }

  /**
   * The waiting process has read the answer and is handing it to the upstream that asked: the
   * store records the delivery (what the answering surfaces wait for, `awaitDelivery`), and a
   * person-only answer's content is forgotten now (action, who and when stay), its bytes
   * leaving the file (design rule 9). Other answers are kept, for the record, until retention.
   */
  async delivered(id: string): Promise<void> {
    // The answer is in hand: a store away a while (Redis restarting) is waited out, within the bound.
    const until = Date.now() + this.#rideOutMs;
    await rideOut(this.store, until, () => this.store.questions.markDelivered(id));
    this.#changedHere(id);
    await rideOut(this.store, until, () => this.#retention.forgetDelivered(id));
    // The waiting process hands each question's outcome on once: that is when the audit trail hears of it.
    const record = await rideOut(this.store, until, () => this.store.questions.get(id));
    if (record) await this.#audit(record);
  }

  async #audit(record: QuestionRecord): Promise<void> {
    try {
      await this.store.audit.append({
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
  async open(question: Question, origin: Origin, ttlSeconds: number, preanswer?: AnswerInput & { by: string }): Promise<QuestionRecord> {
    const record = newQuestionRecord(question, origin, ttlSeconds, { instance: this.instance, now: this.#clock.now() });
    if (preanswer && this.#fits(record, preanswer)) {
      const answer = { action: preanswer.action, by: preanswer.by, ...(preanswer.content ? { content: preanswer.content } : {}) };
      // A person-only answer is handed straight to the upstream: its content is never written.
      await this.store.questions.insertSettled(record, record.audience === "person" ? { action: answer.action, by: answer.by } : answer);
      this.log.info("question answered by policy", { question: record.id, server: record.server, action: answer.action, by: answer.by });
      const stored = (await this.store.questions.get(record.id))!;
      this.#emit(stored);
      return { ...stored, answer: { ...stored.answer!, ...(answer.content ? { content: answer.content } : {}) } };
    }
    await this.store.questions.insert(record);
    if (ttlSeconds * 1000 <= MAX_TIMER_MS) this.#expireIn(record.id, ttlSeconds * 1000);
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

  get(id: string): Promise<QuestionRecord | undefined> {
    return this.store.questions.get(id);
  }

  async list(all = false): Promise<QuestionRecord[]> {
    await this.sweep();
    return this.store.questions.list(all);
  }

  /**
   * Answer a pending question. Validates form content against the question's schema. The
   * first answer stands: a second gets a BrokerError saying who answered first, or why the
   * question closed (`alreadySettled`).
   */
  answer(id: string, input: AnswerInput, options: AnswerOptions): Promise<QuestionRecord> {
    return this.#inOrder(id, () => this.#answer(id, input, options));
  }

  async #answer(id: string, input: AnswerInput, options: AnswerOptions): Promise<QuestionRecord> {
    // Settle it first if it is overdue or orphaned, so an answer nobody can receive is refused.
    // Only this question: a whole sweep reads every held answer, on every answer.
    const record = await this.#unlessStale(await this.store.questions.get(id));
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
    if (!(await this.store.questions.settle(id, "answered", answer, this.#clock.now()))) throw alreadySettled((await this.store.questions.get(id)) ?? record);
    this.log.info("question answered", { question: id, action: input.action, by: options.by });
    return this.#settled(id, inHand ? input.content : undefined);
  }

  /**
   * A URL question's interaction is finished: the upstream said so, or a person did (for an
   * upstream that never notifies). A pending one is accepted with it (finishing is consenting).
   * Refused for anything but a URL question, one already complete, or one settled otherwise.
   */
  complete(id: string, by: string, from?: string): Promise<QuestionRecord> {
    return this.#inOrder(id, () => this.#complete(id, by, from));
  }

  async #complete(id: string, by: string, from?: string): Promise<QuestionRecord> {
    // An overdue or orphaned one is settled first, and then refused (only this question, as an answer).
    const record = await this.#unlessStale(await this.store.questions.get(id));
    if (!record) throw new BrokerError("UNKNOWN_QUESTION", `no question with id ${id}`);
    if (record.kind !== "elicitation" || record.mode !== "url") {
      throw new BrokerError("INVALID_ANSWER", `question ${id} is not a URL question: only a URL question is completed (answer it instead)`);
    }
    const wasPending = record.state === "pending";
    if (!(await this.store.questions.complete(id, by, undefined, from))) {
      const now = (await this.store.questions.get(id)) ?? record;
      if (now.completion)
        throw new BrokerError("ALREADY_SETTLED", `question ${id} was already completed (by ${now.completion.by} at ${now.completion.completedAt})`);
      throw alreadySettled(now);
    }
    this.log.info("URL question completed", { question: id, by });
    if (wasPending) return this.#settled(id);
    const completed = (await this.store.questions.get(id))!;
    this.#changedHere(id);
    this.#emit(completed);
    return completed;
  }

  /** Resolve once the URL question's interaction is finished, or cannot be, or `untilMs` passed (`watchFinish`). */
  untilFinished(id: string, untilMs: number, signal?: AbortSignal): Promise<QuestionRecord> {
    return watchFinish(this.store, this.#local, id, untilMs, signal);
  }

  /** Nobody waits for the answer any more (`why`, see `CLOSED_BECAUSE`): the question can no longer be answered usefully. */
  close(id: string, why: string): Promise<void> {
    return this.#inOrder(id, () => this.#close(id, why));
  }

  async #close(id: string, why: string): Promise<void> {
    if (await this.store.questions.settle(id, "closed", { action: "cancel", by: `${CLOSED_PREFIX}${why}` }, this.#clock.now())) {
      this.log.info("question closed", { question: id, why });
      await this.#settled(id);
    }
  }

  /** `close` from a place that cannot wait for it (a stream's end, a call given up): a failure is logged. */
  closeSoon(id: string, why: string): void {
    this.#inBackground("closing of a question", () => this.close(id, why));
  }

  /**
   * A pending question nobody owned turns out to be what a `mcpx call` call waits for (a
   * sign-in raised when mcpx connected): it is that call's from now on, so the command shows it
   * as its own question instead of waiting without a word.
   */
  async attachToCall(id: string, callId: string): Promise<void> {
    if (!(await this.store.questions.attachToCall(id, callId))) return;
    const record = await this.store.questions.get(id);
    if (record) this.#emit(record);
  }

  /**
   * Resolve when the question is settled by anyone, in any process. While the store is away the
   * wait goes on (what was written meanwhile is read once it is back); it fails with the store's
   * error only when the store stays away past the question's deadline and the ride-out bound.
   */
  async wait(id: string): Promise<QuestionRecord> {
    // Waiting (so listening to the store) before reading: a settlement between the two is not missed.
    let waiter: Waiter = { settled: () => {}, failed: () => {} };
    const settled = new Promise<QuestionRecord>((resolve, reject) => (waiter = { settled: resolve, failed: reject }));
    // Failed (the deadline passed in a lasting outage) before it is handed back: the caller hears it then, not as unhandled.
    settled.catch(() => {});
    this.#waiters.add(id, waiter);
    let current: QuestionRecord | undefined;
    try {
      current = await rideOut(this.store, Date.now() + this.#rideOutMs, () => this.store.questions.get(id));
    } catch (error) {
      this.#waiters.forget(id, waiter);
      throw error;
    }
    if (!current) {
      this.#waiters.forget(id, waiter);
      throw new BrokerError("UNKNOWN_QUESTION", `no question with id ${id}`);
    }
    if (current.state !== "pending") this.#waiters.release(id, current);
    return settled;
  }

  /** Wait (at most `timeoutMs`) until the waiting process has handed this settled question's answer over, or can no longer (`watchDelivery`). */
  awaitDelivery(id: string, timeoutMs?: number): Promise<{ record: QuestionRecord; delivery: Delivery }> {
    return watchDelivery(this.store, this.#local, id, timeoutMs);
  }

  /**
   * How far a settled question's answer got (undefined while pending), by the store's liveness:
   * the process that would deliver it may be another machine's, known by its heartbeat, not its pid.
   */
  async deliveryOf(record: QuestionRecord): Promise<Delivery | undefined> {
    if (record.state === "pending" || record.deliveredAt !== undefined || record.state === "closed") return deliveryOf(record, () => true);
    const alive = await this.#mineOrAlive({ pid: record.ownerPid, instance: record.ownerInstance });
    return deliveryOf(record, () => alive);
  }

  /** A question as the surfaces show it, its delivery by the store's liveness. */
  async view(record: QuestionRecord, now: number = Date.now()): Promise<QuestionView> {
    return viewOf(record, now, await this.deliveryOf(record));
  }

  /** Be told of every question opened or settled in this process. */
  subscribe(listener: (record: QuestionRecord) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Expire overdue questions and close those whose waiting process no longer exists. */
  async sweep(): Promise<void> {
    if (!this.store.open) return;
    for (const id of await this.store.questions.overdue(this.#clock.now())) await this.#inOrder(id, () => this.#expire(id));
    for (const owner of await this.store.questions.pendingOwners()) {
      if (await this.#mineOrAlive(owner)) continue;
      for (const id of await this.store.questions.pendingOwnedBy(owner.instance)) await this.close(id, CLOSED_BECAUSE.processGone);
    }
    await this.#retention.forgetHeldSecrets(async (owner) => !(await this.#mineOrAlive(owner)));
    for (const follower of await this.store.tasks.followers()) {
      if (await this.#mineOrAlive(follower)) continue;
      const why = `the mcpx process that followed this task (process ${follower.pid}) is gone; it can no longer be reached through mcpx`;
      const ended = await this.store.tasks.unfollowable(follower.instance, why);
      this.log.info("tasks whose mcpx process is gone were marked failed", { pid: follower.pid, tasks: ended });
    }
  }

  #mineOrAlive(owner: Owner): Promise<boolean> | boolean {
    return owner.instance === this.instance || this.store.liveness.alive(owner);
  }

  /** A task this process relayed for a host (host/tasks/): recorded as followed by this process. */
  recordTask(task: NewTask): Promise<void> {
    return this.store.tasks.record(task, this.owner);
  }

  /** How a task this process follows stands now. */
  taskHeard(id: string, status: string, statusMessage?: string): Promise<void> {
    return this.store.tasks.heard(id, status, statusMessage);
  }

  /**
   * A person cancels a task (REST, the page): the store says cancelled at once, and the process
   * that follows it cancels it upstream (this one hears it now; another one sees the store
   * change: host/tasks/records.ts). Whether it was still running.
   */
  async cancelTask(id: string, why: string): Promise<boolean> {
    if (!(await this.store.tasks.requestCancel(id, why))) return false;
    for (const listener of this.#taskCancels) listener(id);
    return true;
  }

  /** Hear of the tasks cancelled through this process's broker (`cancelTask`). */
  onTaskCancel(listener: (id: string) => void): () => void {
    this.#taskCancels.add(listener);
    return () => this.#taskCancels.delete(listener);
  }

  /** The record, after expiring or closing it when it is pending past its deadline or its waiting process is gone. */
  async #unlessStale(record: QuestionRecord | undefined): Promise<QuestionRecord | undefined> {
    if (record?.state !== "pending") return record;
    if (Date.parse(record.expiresAt) <= this.#clock.now()) await this.#expire(record.id);
    else if (!(await this.#mineOrAlive(ownerOf(record)))) {
      await this.#close(record.id, "the mcpx process that was waiting on it is gone");
    } else return record;
    return this.store.questions.get(record.id);
  }

  async #expire(id: string): Promise<void> {
    // The store was closed without stopping this broker: nothing is left to expire.
    if (!this.store.open) return;
    // A timer may fire a little early by the clock; then it waits out the rest.
    const record = await this.store.questions.get(id);
    const left = record ? Date.parse(record.expiresAt) - this.#clock.now() : 0;
    if (record?.state === "pending" && left > 0) {
      this.#expireIn(id, Math.min(left, MAX_TIMER_MS));
      return;
    }
    if (await this.store.questions.settle(id, "expired", { action: "cancel", by: "expiry" }, this.#clock.now())) {
      this.log.info("question expired; answered cancel", { question: id });
      await this.#settled(id);
    }
  }

  /**
   * This process's timer for the question's deadline. The store away then is ridden out; past
   * the bound, whoever waits on it here hears the store's error rather than waiting on.
   */
  #expireIn(id: string, ms: number): void {
    const onTime = async (): Promise<void> => {
      try {
        await rideOut(this.store, Date.now() + this.#rideOutMs, () => this.#expire(id));
      } catch (error) {
        if (storeAway(error)) this.#waiters.fail(id, error);
        throw error;
      }
    };
    const timer = setTimeout(() => this.#inBackground("expiry", () => this.#inOrder(id, onTime)), ms);
    timer.unref();
    this.#expiry.set(id, timer);
  }

  async #settled(id: string, content?: JsonObject): Promise<QuestionRecord> {
    clearTimeout(this.#expiry.get(id));
    this.#expiry.delete(id);
    // Settled already: reading it back for whoever waits here rides out a store away a while.
    const stored = (await rideOut(this.store, Date.now() + this.#rideOutMs, () => this.store.questions.get(id)))!;
    const record = content && stored.answer ? { ...stored, answer: { ...stored.answer, content } } : stored;
    this.#waiters.release(id, record);
    this.#changedHere(id);
    this.#emit(record);
    return record;
  }

  /**
   * This process's steps on one question happen in the order they were asked for, as they did
   * when the store answered at once: a completion the server sent just before it stopped waiting
   * is recorded before the close its stopping asks for (which then finds it settled). A step with
   * none before it starts at once.
   */
  #inOrder<T>(id: string, step: () => Promise<T>): Promise<T> {
    const before = this.#steps.get(id);
    const run = before === undefined ? step() : before.then(step, step);
    const tail = run.then(
      () => {},
      () => {},
    );
    this.#steps.set(id, tail);
    void tail.then(() => {
      if (this.#steps.get(id) === tail) this.#steps.delete(id);
    });
    return run;
  }

  readonly #local: LocalChanges = (listener) => {
    this.#localChanges.add(listener);
    return () => this.#localChanges.delete(listener);
  };

  #changedHere(id: string): void {
    for (const listener of this.#localChanges) listener(id);
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

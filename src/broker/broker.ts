/**
 * The broker: every question an upstream asks becomes a row in the shared store, and any
 * surface in any process may answer it. A question is state with a deadline: expiry answers
 * `cancel` (never `decline`, which would claim someone said no).
 *
 * The process that asked keeps waiting; it notices answers written by other processes by
 * watching the store (cheap: SQLite's data_version), within a fraction of a second.
 */
import { randomUUID } from "node:crypto";
import { rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { isObject, type JsonObject } from "../protocol/jsonrpc.js";
import type { Question } from "../render/question.js";
import type { Logger } from "../util/log.js";
import { decideAudience } from "./audience.js";
import type { QuestionStore } from "./store.js";
import type { Action, Answer, Origin, QuestionRecord } from "./types.js";
import { answerProblems } from "./validate-answer.js";
import { BrokerError } from "./errors.js";
import { processAlive } from "../util/process.js";
import { systemClock, type Clock } from "./clock.js";
import { sleep } from "../util/sleep.js";
import { deliveryOf, type Delivery } from "./delivery.js";

const POLL_MS = 100;
/** How long an answering surface waits for the waiting process to confirm delivery, and how often it looks. */
const DELIVERY_WAIT_MS = 2_500;
const DELIVERY_POLL_MS = 25;
const SWEEP_MS = 5_000;
/** How often settled questions and finished calls past retention are pruned. */
const PRUNE_MS = 3_600_000;
/** The longest delay setTimeout honours (a longer one fires at once); the sweep expires the rest. */
const MAX_TIMER_MS = 2_147_483_647;

export interface AnswerInput {
  action: Action;
  content?: JsonObject;
}

export interface AnswerOptions {
  /** Who is answering, for the record. */
  by: string;
  /** The answerer is an agent (a gateway tool): person-only questions are refused. */
  asAgent?: boolean;
  /**
   * The calling host answered its own question inline: the answer goes to the upstream as the
   * host gave it, unchecked against the schema, as over a direct connection (design rule 8).
   */
  asGiven?: boolean;
}

type Waiter = (record: QuestionRecord) => void;

export interface Housekeeping {
  /** How often to prune past retention (default hourly); tests make it short. */
  pruneEveryMs?: number;
}

export class Broker {
  /** Identifies this process's questions in the shared store. */
  readonly instance = randomUUID();
  readonly #waiters = new Map<string, Set<Waiter>>();
  readonly #expiry = new Map<string, NodeJS.Timeout>();
  #poller: NodeJS.Timeout | undefined;
  #stopped = false;
  /** The store's data_version when the poller last looked (its own: others may poll `changed()`). */
  #seenVersion = -1;
  #sweeper: NodeJS.Timeout | undefined;
  #pruner: NodeJS.Timeout | undefined;
  /** A checkpoint after forgetting something could not finish (a reader was busy): try again. */
  #compactOwed = false;
  readonly #listeners = new Set<(record: QuestionRecord) => void>();

  readonly #clock: Clock;

  constructor(
    readonly store: QuestionStore,
    private readonly log: Logger,
    options: { clock?: Clock } = {},
  ) {
    this.#clock = options.clock ?? systemClock;
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
    const before = this.#clock.now() - retentionDays * 86_400_000;
    const pruned = this.store.prune(before);
    const calls = this.store.calls.prune(before);
    for (const id of calls) rmSync(join(dirname(this.store.path), "calls", `${id}.log`), { force: true });
    if (pruned + calls.length === 0) return;
    this.log.info("pruned old questions and calls", { questions: pruned, calls: calls.length, retentionDays });
    this.#compact();
  }

  /** Close this process's pending questions (their waiter is going away) and stop. Idempotent; never throws. */
  stop(): void {
    if (this.#stopped) return;
    this.#stopped = true;
    clearInterval(this.#sweeper);
    clearInterval(this.#pruner);
    clearInterval(this.#poller);
    this.#poller = undefined;
    for (const timer of this.#expiry.values()) clearTimeout(timer);
    this.#expiry.clear();
    try {
      for (const id of this.store.pendingOwnedBy(this.instance)) this.close(id, "the mcpx process that was waiting on it stopped");
      // Answered but never handed over: nobody here will deliver them now.
      this.#forgetHeldSecrets((owner) => owner === this.instance);
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
    if (!this.store.forgetPersonOnlyContent(id)) return;
    this.log.debug("forgot a person-only answer's content after delivering it", { question: id });
    this.#compact();
  }

  #forgetHeldSecrets(whose: (instance: string, pid: number) => boolean): void {
    let forgot = 0;
    for (const held of this.store.heldSecrets()) {
      if (whose(held.instance, held.pid) && this.store.forgetPersonOnlyContent(held.id)) forgot += 1;
    }
    if (forgot > 0) {
      this.log.info("forgot person-only answers that their waiting process can no longer deliver", { answers: forgot });
      this.#compact();
    } else if (this.#compactOwed) {
      this.#compact();
    }
  }

  /** Checkpoint the WAL into the file and truncate it; if a reader keeps it from finishing, retry at the next sweep. */
  #compact(): void {
    this.#compactOwed = !this.store.compact();
  }

  /**
   * Record a new question from an upstream. A `preanswer` (a policy rule's) is checked like any
   * answer and stored in the same transaction, so no surface ever sees the question pending.
   */
  open(question: Question, origin: Origin, ttlSeconds: number, preanswer?: AnswerInput & { by: string }): QuestionRecord {
    const audience = decideAudience(question);
    const now = this.#clock.now();
    const params = question.params;
    const record: QuestionRecord = {
      id: question.id,
      server: question.server,
      kind: question.kind,
      method: question.method,
      message: typeof params.message === "string" ? params.message : describe(question),
      params,
      audience: audience.audience,
      audienceReason: audience.reason,
      createdAt: new Date(now).toISOString(),
      expiresAt: new Date(now + ttlSeconds * 1000).toISOString(),
      state: "pending",
      ownerPid: process.pid,
      ownerInstance: this.instance,
      ...(question.kind === "elicitation" ? { mode: question.mode ?? "form" } : {}),
      ...(typeof params.url === "string" ? { url: params.url } : {}),
      ...(isObject(params.requestedSchema) ? { requestedSchema: params.requestedSchema } : {}),
      ...(origin.tool ? { tool: origin.tool } : {}),
      ...(origin.hostSession ? { hostSession: origin.hostSession } : {}),
      ...(origin.callId ? { callId: origin.callId } : {}),
    };
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
   * first answer stands: a second gets a BrokerError saying who answered first.
   */
  answer(id: string, input: AnswerInput, options: AnswerOptions): QuestionRecord {
    // Settle what is overdue or orphaned first, so an answer nobody can receive is refused.
    this.sweep();
    const record = this.store.get(id);
    if (!record) throw new BrokerError("UNKNOWN_QUESTION", `no question with id ${id}`);
    if (record.state !== "pending") throw alreadySettled(record);
    if (options.asAgent && record.audience === "person") {
      throw new BrokerError("PERSON_ONLY", `question ${id} is for a person only (${record.audienceReason})`);
    }
    if (!options.asGiven) checkAnswer(record, input);
    const answer = { action: input.action, by: options.by, ...(input.content ? { content: input.content } : {}) };
    if (!this.store.settle(id, "answered", answer, this.#clock.now())) throw alreadySettled(this.store.get(id) ?? record);
    this.log.info("question answered", { question: id, action: input.action, by: options.by });
    return this.#settled(id);
  }

  /** The waiting call is gone: the question can no longer be answered usefully. */
  close(id: string, why: string): void {
    if (this.store.settle(id, "closed", { action: "cancel", by: `closed: ${why}` }, this.#clock.now())) {
      this.log.info("question closed", { question: id, why });
      this.#settled(id);
    }
  }

  /** Resolve when the question is settled by anyone, in any process. */
  wait(id: string): Promise<QuestionRecord> {
    const current = this.store.get(id);
    if (!current) return Promise.reject(new BrokerError("UNKNOWN_QUESTION", `no question with id ${id}`));
    if (current.state !== "pending") return Promise.resolve(current);
    return new Promise((resolve) => {
      let waiters = this.#waiters.get(id);
      if (!waiters) this.#waiters.set(id, (waiters = new Set()));
      waiters.add(resolve);
      this.#poll();
    });
  }

  /**
   * Wait (at most `timeoutMs`) until the process waiting on this settled question has handed
   * its answer over, or can no longer: the record then says `delivered` or `undeliverable`
   * (`deliveryOf`). Still `pending` at the deadline means that process is alive but has not
   * confirmed yet (busy, or stopped). Watches the store's data_version like `wait`.
   */
  async awaitDelivery(id: string, timeoutMs = DELIVERY_WAIT_MS): Promise<{ record: QuestionRecord; delivery: Delivery }> {
    const deadline = Date.now() + timeoutMs;
    let seen = -1;
    let record = this.store.get(id);
    for (;;) {
      if (!record) throw new BrokerError("UNKNOWN_QUESTION", `no question with id ${id}`);
      const delivery = deliveryOf(record) ?? "pending";
      if (delivery !== "pending" || Date.now() >= deadline) return { record, delivery };
      await sleep(DELIVERY_POLL_MS);
      // This process's own writes do not move data_version: when it is the waiting one, look anyway.
      const version = this.store.dataVersion();
      if (version !== seen || record.ownerInstance === this.instance) record = this.store.get(id);
      seen = version;
    }
  }

  /** Be told of every question opened or settled in this process. */
  subscribe(listener: (record: QuestionRecord) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Expire overdue questions and close those whose waiting process no longer exists. */
  sweep(): void {
    for (const id of this.store.overdue(this.#clock.now())) this.#expire(id);
    for (const owner of this.store.pendingOwners()) {
      if (owner.instance === this.instance || processAlive(owner.pid)) continue;
      for (const id of this.store.pendingOwnedBy(owner.instance)) this.close(id, "the mcpx process that was waiting on it is gone");
    }
    this.#forgetHeldSecrets((instance, pid) => instance !== this.instance && !processAlive(pid));
  }

  #expire(id: string): void {
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

  #settled(id: string): QuestionRecord {
    clearTimeout(this.#expiry.get(id));
    this.#expiry.delete(id);
    const record = this.store.get(id)!;
    const waiters = this.#waiters.get(id);
    this.#waiters.delete(id);
    for (const waiter of waiters ?? []) waiter(record);
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

  /** Watch the store for answers from other processes while anyone here is waiting. */
  #poll(): void {
    if (this.#poller) return;
    this.#poller = setInterval(() => {
      if (this.#waiters.size === 0) {
        clearInterval(this.#poller);
        this.#poller = undefined;
        return;
      }
      const version = this.store.dataVersion();
      if (version === this.#seenVersion) return;
      this.#seenVersion = version;
      for (const id of [...this.#waiters.keys()]) {
        const record = this.store.get(id);
        if (record?.state !== "pending") this.#settled(id);
      }
    }, POLL_MS);
    this.#poller.unref();
  }
}

/** Check an answer's shape for the question it answers. */
export function checkAnswer(record: Pick<QuestionRecord, "kind" | "mode" | "requestedSchema">, input: AnswerInput): void {
  if (!["accept", "decline", "cancel"].includes(input.action)) {
    throw new BrokerError("INVALID_ANSWER", `action must be accept, decline or cancel, not ${JSON.stringify(input.action)}`);
  }
  if (input.action !== "accept") {
    if (input.content !== undefined) throw new BrokerError("INVALID_ANSWER", `a ${input.action} carries no content`);
    return;
  }
  if (record.kind === "elicitation" && record.mode === "url") {
    if (input.content !== undefined && Object.keys(input.content).length > 0) {
      throw new BrokerError("INVALID_ANSWER", "a URL question is accepted without content (accept means the person consents)");
    }
    return;
  }
  if (!input.content) throw new BrokerError("INVALID_ANSWER", "accepting this question needs content");
  if (record.kind === "sampling" && !(isObject(input.content.content) && typeof input.content.model === "string")) {
    throw new BrokerError("INVALID_ANSWER", 'a sampling answer is a CreateMessageResult: {"role":"assistant","content":{"type":"text","text":…},"model":…}');
  }
  if (record.kind === "elicitation" && record.requestedSchema) {
    const problems = answerProblems(record.requestedSchema, input.content);
    if (problems.length) throw new BrokerError("INVALID_ANSWER", `the answer does not fit the question: ${problems.join("; ")}`);
  }
}

function alreadySettled(record: QuestionRecord): BrokerError {
  const by = record.answer ? ` (${record.answer.action} by ${record.answer.by} at ${record.answer.answeredAt})` : "";
  return new BrokerError("ALREADY_SETTLED", `question ${record.id} is already ${record.state}${by}; the first answer stands`);
}

function describe(question: Question): string {
  if (question.kind === "sampling") return `${question.server} asks for a model completion`;
  return `${question.server} asks a question`;
}

export type { Answer };

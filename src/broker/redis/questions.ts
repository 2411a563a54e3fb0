/**
 * The questions and their answers in Redis, row for row as SQLite keeps them (question-row.ts
 * reads both): the hash's fields are the columns of `questions` joined with `answers`.
 */
import { fromRow, insertParams, type QuestionRow } from "../question-row.js";
import type { Owner, QuestionTable } from "../store-api.js";
import type { Answer, QuestionRecord, QuestionState } from "../types.js";
import { type RedisLink, fieldsOf, numberOrNull, orNull } from "./link.js";
import {
  ATTACH_TO_CALL,
  COMPLETE_QUESTION,
  FORGET_CONTENT,
  HELD_SECRETS,
  INSERT_QUESTION,
  INSERT_SETTLED,
  MARK_DELIVERED,
  PRUNE_QUESTIONS,
  SETTLE_QUESTION,
} from "./question-scripts.js";

export class RedisQuestions implements QuestionTable {
  constructor(private readonly link: RedisLink) {}

  async insert(record: QuestionRecord): Promise<void> {
    await this.link.run(INSERT_QUESTION, ...fieldsOf(insertParams(record)));
  }

  async insertSettled(record: QuestionRecord, answer: Omit<Answer, "answeredAt">): Promise<void> {
    await this.link.run(INSERT_SETTLED, ...answerArgs(answer), Date.now(), ...fieldsOf(insertParams(record)));
  }

  async get(id: string): Promise<QuestionRecord | undefined> {
    const hash = await this.link.call((client) => client.hgetall(this.link.key(`q:${id}`)));
    return hash.id === undefined ? undefined : fromRow(rowOf(hash));
  }

  async list(all = false): Promise<QuestionRecord[]> {
    if (all) return (await this.link.hashesOf("q:all", "q:")).map((hash) => fromRow(rowOf(hash)));
    // The pending index is by deadline; a list is oldest first, as SQLite's (created_ms, id).
    const pending = (await this.link.hashesOf("q:pending", "q:")).filter((hash) => hash.state === "pending").map(rowOf);
    pending.sort((a, b) => a.created_ms - b.created_ms || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return pending.map(fromRow);
  }

  async ofCall(callId: string): Promise<QuestionRecord[]> {
    return (await this.link.hashesOf(`q:call:${callId}`, "q:")).map((hash) => fromRow(rowOf(hash)));
  }

  async attachToCall(id: string, callId: string): Promise<boolean> {
    return (await this.link.run(ATTACH_TO_CALL, id, callId)) === 1;
  }

  async settle(id: string, state: Exclude<QuestionState, "pending">, answer: Omit<Answer, "answeredAt">, now = Date.now()): Promise<boolean> {
    return (await this.link.run(SETTLE_QUESTION, id, state, ...answerArgs(answer), now)) === 1;
  }

  async complete(id: string, by: string, now = Date.now(), from?: string): Promise<boolean> {
    // As SQLite's: the acceptance it implies is stamped with the clock, the completion with `now`.
    return (await this.link.run(COMPLETE_QUESTION, id, by, Date.now(), now, from ?? "")) === 1;
  }

  async overdue(now = Date.now()): Promise<string[]> {
    return this.link.call((client) => client.zrangebyscore(this.link.key("q:pending"), "-inf", now));
  }

  async pendingOwners(): Promise<Owner[]> {
    const owners = await this.link.call((client) => client.hgetall(this.link.key("q:owners")));
    return Object.entries(owners).map(([instance, pid]) => ({ pid: Number(pid), instance }));
  }

  async pendingOwnedBy(instance: string): Promise<string[]> {
    return this.link.call((client) => client.smembers(this.link.key(`q:owned:${instance}`)));
  }

  async forgetPersonOnlyContent(id: string): Promise<boolean> {
    return (await this.link.run(FORGET_CONTENT, id)) === 1;
  }

  async markDelivered(id: string, now = Date.now()): Promise<boolean> {
    return (await this.link.run(MARK_DELIVERED, id, now)) === 1;
  }

  async heldSecrets(): Promise<Array<{ id: string } & Owner>> {
    const flat = (await this.link.run(HELD_SECRETS)) as string[];
    const held: Array<{ id: string } & Owner> = [];
    for (let i = 0; i + 2 < flat.length; i += 3) held.push({ id: flat[i]!, pid: Number(flat[i + 1]), instance: flat[i + 2]! });
    return held;
  }

  async unattributedFrom(server: string): Promise<number> {
    return this.link.call((client) => client.scard(this.link.key(`q:unattributed:${server}`)));
  }

  async prune(beforeMs: number): Promise<number> {
    return (await this.link.run(PRUNE_QUESTIONS, beforeMs)) as number;
  }
}

/** action, content, by, from: the answer as the scripts take it ("" for absent). */
function answerArgs(answer: Omit<Answer, "answeredAt">): string[] {
  return [answer.action, answer.content ? JSON.stringify(answer.content) : "", answer.by, answer.from ?? ""];
}

function rowOf(hash: Record<string, string>): QuestionRow {
  return {
    id: hash.id!,
    server: hash.server!,
    kind: hash.kind!,
    method: hash.method!,
    mode: orNull(hash, "mode"),
    message: hash.message!,
    params_json: hash.params_json!,
    url: orNull(hash, "url"),
    tool: orNull(hash, "tool"),
    host_session: orNull(hash, "host_session"),
    call_id: orNull(hash, "call_id"),
    identity: orNull(hash, "identity"),
    audience: hash.audience!,
    audience_reason: hash.audience_reason!,
    created_ms: Number(hash.created_ms),
    expires_ms: Number(hash.expires_ms),
    state: hash.state!,
    owner_pid: Number(hash.owner_pid),
    owner_instance: hash.owner_instance!,
    action: orNull(hash, "action"),
    content_json: orNull(hash, "content_json"),
    answered_by: orNull(hash, "answered_by"),
    answered_from: orNull(hash, "answered_from"),
    answered_ms: numberOrNull(hash, "answered_ms"),
    delivered_ms: numberOrNull(hash, "delivered_ms"),
    completed_ms: numberOrNull(hash, "completed_ms"),
    completed_by: orNull(hash, "completed_by"),
  };
}

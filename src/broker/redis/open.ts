/**
 * The broker's store on Redis or Valkey (`"store": {"url": "redis://…"}`), for several mcpx
 * instances that share their questions, answers, tasks, audit trail and secrets. The tables
 * are in the files beside this one; this puts them together on two connections: one for
 * commands, one subscribed to hear the other instances' writes.
 *
 * What Redis must keep: every answer, across a restart of Redis. mcpx needs `appendonly yes`
 * (the AOF) with `appendfsync everysec` (a crash of the Redis process loses nothing written;
 * a crash of its machine, up to a second) or `appendfsync always` (nothing, at a cost per
 * write). RDB snapshots alone lose what was written since the last one.
 *
 * A person-only answer's content is removed from its hash once delivered (design rule 9). The
 * AOF still holds the command that wrote it until the AOF is rewritten, and an RDB snapshot
 * taken meanwhile holds it until the next one: `compact()` asks Redis to rewrite the AOF
 * (BGREWRITEAOF), which leaves only what is still there. Redis runs one rewrite at a time (a
 * fork writing the whole dataset); one asked for while another runs is asked again at the
 * broker's next sweep. An operator who keeps RDB snapshots besides (`save …`) keeps such
 * content until the next snapshot.
 *
 * Redis 7 or Valkey, standalone or a primary (not Redis Cluster: the scripts compute their keys).
 */
import type { Redis } from "ioredis";
import { GatewayError } from "../../protocol/errors.js";
import { ensurePrivateDir } from "../state-dir.js";
import type { BrokerStore } from "../store-api.js";
import { RedisAudit, DEFAULT_AUDIT_CAP } from "./audit.js";
import { RedisCalls } from "./calls.js";
import { ChangeFeed } from "./changes.js";
import { type ConnectionTimings, DEFAULT_TIMINGS, redisClient, redisTarget, storeError, tooOld } from "./connection.js";
import { RedisLink } from "./link.js";
import { DEFAULT_HEARTBEAT, type HeartbeatTimings, RedisLiveness } from "./liveness.js";
import { RedisPageCodes } from "./page-codes.js";
import { RedisPageSessions } from "./page-sessions.js";
import { RedisQuestions } from "./questions.js";
import { NOTE_RESTART } from "./restart-grace.js";
import { RedisSchemas } from "./schemas.js";
import { RedisSecrets } from "./secrets.js";
import { RedisTasks } from "./tasks.js";

export interface RedisStoreOptions {
  connection?: Partial<ConnectionTimings>;
  heartbeat?: Partial<HeartbeatTimings>;
  /** The audit stream's cap (XADD MAXLEN ~). */
  auditCap?: number;
}

/** Connect (failing with STORE_UNAVAILABLE when Redis cannot be reached) and hand back the store. */
export async function openRedisStore(url: string, stateDir: string, options: RedisStoreOptions = {}): Promise<BrokerStore> {
  const target = redisTarget(url);
  const timings = { ...DEFAULT_TIMINGS, ...options.connection };
  ensurePrivateDir(stateDir);
  const client = redisClient(target, timings, "mcpx");
  const subscriber = redisClient(target, timings, "mcpx-changes");
  try {
    await Promise.all([client.connect(), subscriber.connect()]);
    const old = tooOld(await client.info("server"));
    if (old) throw new GatewayError("STORE_UNAVAILABLE", `the Redis store ${target.where} cannot be used: ${old}`, { where: target.where });
    const feed = await ChangeFeed.open(subscriber, `${target.prefix}changed`);
    const link = new RedisLink(client, target.prefix, target.where);
    // Which run of Redis this is, kept so that a restart later is known (restart-grace.ts).
    await link.run(NOTE_RESTART);
    return new RedisStore(link, subscriber, feed, stateDir, { ...DEFAULT_HEARTBEAT, ...options.heartbeat }, options.auditCap ?? DEFAULT_AUDIT_CAP);
  } catch (error) {
    client.disconnect();
    subscriber.disconnect();
    throw error instanceof GatewayError ? error : storeError(error, target.where);
  }
}

class RedisStore implements BrokerStore {
  readonly where: string;
  readonly questions: RedisQuestions;
  readonly calls: RedisCalls;
  readonly tasks: RedisTasks;
  readonly audit: RedisAudit;
  readonly usedPageCodes: RedisPageCodes;
  readonly pageSessions: RedisPageSessions;
  readonly liveness: RedisLiveness;
  readonly secrets: RedisSecrets;
  readonly schemas: RedisSchemas;
  #open = true;

  constructor(
    private readonly link: RedisLink,
    private readonly subscriber: Redis,
    private readonly feed: ChangeFeed,
    readonly stateDir: string,
    heartbeat: HeartbeatTimings,
    auditCap: number,
  ) {
    this.where = link.where;
    this.questions = new RedisQuestions(link);
    this.calls = new RedisCalls(link);
    this.tasks = new RedisTasks(link);
    this.audit = new RedisAudit(link, auditCap);
    this.usedPageCodes = new RedisPageCodes(link);
    this.pageSessions = new RedisPageSessions(link);
    this.liveness = new RedisLiveness(link, heartbeat);
    this.secrets = new RedisSecrets(link);
    this.schemas = new RedisSchemas(link);
  }

  get open(): boolean {
    return this.#open;
  }

  /** A write that expires by itself: it fails as a question's insert would (unreachable, read-only replica, out of memory, a failed snapshot). */
  async unwritable(): Promise<string | undefined> {
    if (!this.#open) return `the Redis store ${this.where} is closed`;
    if (this.link.client.status !== "ready") return `the Redis store ${this.where} is not connected (${this.link.client.status}); mcpx reconnects by itself`;
    try {
      await this.link.call((client) => client.set(this.link.key("probe"), "1", "PX", 1_000));
      return undefined;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  }

  onChange(listener: () => void): () => void {
    return this.feed.listen(listener);
  }

  /**
   * Rewrite the AOF so the commands that wrote forgotten content leave the disk. False when a
   * rewrite already running may have started before the forgetting (try again later), or
   * Redis cannot be reached; true when one was started, or there is no AOF to rewrite.
   */
  async compact(): Promise<boolean> {
    try {
      const persistence = await this.link.client.info("persistence");
      if (!/^aof_enabled:1\r?$/m.test(persistence)) return true;
      await this.link.client.bgrewriteaof();
      return true;
    } catch (error) {
      // A command the operator disabled: nothing mcpx can do. Anything else (a rewrite running, the connection away): later.
      return /unknown command|NOPERM/i.test(error instanceof Error ? error.message : String(error));
    }
  }

  async close(): Promise<void> {
    if (!this.#open) return;
    this.audit.flush(); // sent before the connection's QUIT
    this.#open = false;
    this.liveness.stop();
    await Promise.all([quit(this.link.client), quit(this.subscriber)]);
  }
}

/** End a connection: politely when it is up, at once when it is not. */
async function quit(client: Redis): Promise<void> {
  if (client.status !== "ready") {
    client.disconnect();
    return;
  }
  try {
    await client.quit();
  } catch {
    client.disconnect();
  }
}

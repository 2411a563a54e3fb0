/**
 * What the broker needs of a store, whichever it is: the SQLite file in the state directory
 * (one machine, the default) or Redis/Valkey (several instances, `"store": {"url": "redis://…"}`).
 * Every method is asynchronous because the shared store is across a network; the SQLite one
 * answers at once. Both pass the same suite (test/broker/store-suite.ts).
 *
 * The rules both keep:
 * - settling is a compare-and-set on `pending`: of two answers given at once on any instances,
 *   exactly one wins and the other learns it lost;
 * - expiry may be done by any instance, and happens once (it is a settle);
 * - a person-only answer's content is forgotten once delivered, or once the instance that would
 *   deliver it is gone, and leaves no copy behind (design rule 9);
 * - a write made by another process or instance is heard through `onChange` (SQLite: its
 *   data_version, polled while someone listens; Redis: pub/sub, within milliseconds).
 */
import type { JsonObject } from "../protocol/jsonrpc.js";
import type { AuditEntry, AuditFilter, NewAuditEntry } from "./audit-store.js";
import type { CallRecord } from "./call-store.js";
import type { NewTask, TaskRecord } from "./task-store.js";
import type { Answer, QuestionRecord, QuestionState } from "./types.js";

/** Which process waits on a question or follows a task: its pid, and the broker instance's id. */
export interface Owner {
  pid: number;
  instance: string;
}

export interface QuestionTable {
  insert(record: QuestionRecord): Promise<void>;
  /** Insert a question answered from the start (a policy rule answered it), in one step. */
  insertSettled(record: QuestionRecord, answer: Omit<Answer, "answeredAt">): Promise<void>;
  get(id: string): Promise<QuestionRecord | undefined>;
  /** Pending questions, or every kept one with `all`, oldest first. */
  list(all?: boolean): Promise<QuestionRecord[]>;
  /** Every question a `mcpx call` call asked, in order. */
  ofCall(callId: string): Promise<QuestionRecord[]>;
  /** A pending question nobody owned becomes the `mcpx call` call's; whether it did. */
  attachToCall(id: string, callId: string): Promise<boolean>;
  /** Settle a pending question; true when this call settled it, false when it was no longer pending. */
  settle(id: string, state: Exclude<QuestionState, "pending">, answer: Omit<Answer, "answeredAt">, now?: number): Promise<boolean>;
  /** A URL question's interaction is finished (a pending one is accepted with it); true when this call recorded it. */
  complete(id: string, by: string, now?: number, from?: string): Promise<boolean>;
  /** Ids of pending questions whose deadline has passed. */
  overdue(now?: number): Promise<string[]>;
  /** Owners of pending questions, to find those that are gone. */
  pendingOwners(): Promise<Owner[]>;
  pendingOwnedBy(instance: string): Promise<string[]>;
  /** Forget a person-only answer's content (action, who and when stay); true when there was some. */
  forgetPersonOnlyContent(id: string): Promise<boolean>;
  /** The answer was handed to the upstream; true the first time. */
  markDelivered(id: string, now?: number): Promise<boolean>;
  /** Person-only answers whose content is still kept, with who would deliver them. */
  heldSecrets(): Promise<Array<{ id: string } & Owner>>;
  /** How many of `server`'s questions no host or `mcpx call` could be proven to own. */
  unattributedFrom(server: string): Promise<number>;
  /** Remove settled questions created before `beforeMs`; how many. */
  prune(beforeMs: number): Promise<number>;
}

export interface CallTable {
  create(id: string, server: string, tool: string, args: JsonObject): Promise<void>;
  setRunner(id: string, pid: number): Promise<void>;
  finish(id: string, outcome: { result: JsonObject } | { error: string }): Promise<void>;
  /** Remove finished calls created before `beforeMs`; their ids (their logs go too). */
  prune(beforeMs: number): Promise<string[]>;
  idsStartingWith(prefix: string, limit: number): Promise<string[]>;
  get(id: string): Promise<CallRecord | undefined>;
}

export interface TaskTable {
  record(task: NewTask, follower: Owner): Promise<void>;
  heard(id: string, status: string, statusMessage: string | undefined): Promise<void>;
  get(id: string): Promise<TaskRecord | undefined>;
  all(): Promise<TaskRecord[]>;
  /** Who follows the tasks not yet ended. */
  followers(): Promise<Owner[]>;
  /** End as failed (with `why`) every task `instance` followed and did not see end; how many. */
  unfollowable(instance: string, why: string): Promise<number>;
  /** Ask for a task to be cancelled; whether it was still running. */
  requestCancel(id: string, why: string): Promise<boolean>;
  prune(beforeMs: number): Promise<void>;
}

export interface AuditTable {
  append(entry: NewAuditEntry, atMs?: number): Promise<void>;
  list(filter?: AuditFilter): Promise<AuditEntry[]>;
  prune(beforeMs: number): Promise<number>;
}

export interface PageCodeTable {
  /** True the first time `nonce` is claimed on any instance, until `expiresMs`. */
  claim(nonce: string, expiresMs: number, now?: number): Promise<boolean>;
  count(): Promise<number>;
}

/** How many page sessions the store keeps: beyond `perIdentity` an identity's own oldest goes, beyond `total` anyone's oldest. */
export interface PageSessionLimits {
  perIdentity: number;
  total: number;
}

/**
 * The web page's tab credentials (api/page-sessions.ts), by the SHA-256 digest of each (the
 * credential itself is never stored), so a tab signed in on one instance is signed in on all.
 */
export interface PageSessionTable {
  /** Keep `digest` as `identity`'s until `expiresMs`, signing out the oldest beyond `limits`, in one step. */
  open(digest: string, identity: string, expiresMs: number, limits: PageSessionLimits, now?: number): Promise<void>;
  /** Whose the credential with this digest is, while it is good. */
  identityOf(digest: string, now?: number): Promise<string | undefined>;
  /** Sign every page out. */
  clear(): Promise<void>;
}

/** Which brokers are alive: for SQLite the process on this machine; for Redis an instance that keeps its heartbeat. */
export interface Liveness {
  /** This broker is alive until the returned function is called (Redis: a heartbeat key with a short expiry). */
  join(owner: Owner): () => Promise<void>;
  alive(owner: Owner): Promise<boolean>;
  /**
   * Where a joined instance listens for the others (cluster/): kept with its heartbeat, gone
   * with it. A store one machine keeps (SQLite) has no cluster: it keeps no address.
   */
  advertise(instance: string, address: string): void;
  /**
   * The address a live instance advertised, or undefined (gone, or never advertised). Throws
   * STORE_UNAVAILABLE when the store cannot say yet (Redis away, or restarted moments ago).
   */
  addressOf(instance: string): Promise<string | undefined>;
}

/** Secrets every instance must share (the API token, the key that signs `requestState` and page codes). */
export interface SharedSecrets {
  /** The secret called `name`, created (32 random bytes, hex) by whichever instance asks first. */
  get(name: string): Promise<string>;
  /** Where a person finds the secret, for messages: the file's path, or the Redis key and store. */
  whereIs(name: string): string;
}

/**
 * The schema cache's entries shared by instances (discovery/cache-shared.ts): the JSON text of
 * an entry, by the SHA-256 of its server definition, so an instance or a CLI on another machine lists a server
 * without starting it. Entries hold what servers listed, never a definition (no command, args,
 * URL, environment or headers: see cache-shared.ts). Bounded: entries beyond a size are
 * refused, and past a count the least recently read go.
 */
export interface SchemaTable {
  /** Keep `entry` under `key`, read at `readAtMs`; false when a later read is kept already. Throws beyond the size bound. */
  put(key: string, entry: string, readAtMs: number): Promise<boolean>;
  /** The kept entries of these keys, in order (undefined where none is kept). */
  get(keys: readonly string[]): Promise<Array<string | undefined>>;
  /** Every kept key and when its entry was read, most recent first. */
  list(): Promise<Array<{ key: string; readAtMs: number }>>;
}

export interface BrokerStore {
  /** What to name in messages: the SQLite file's path, or the Redis URL without its password. */
  readonly where: string;
  /** The state directory of this process (call logs, the schema cache stay in files here). */
  readonly stateDir: string;
  /** Still open (a broker's timers may outlive a store closed without stopping it). */
  readonly open: boolean;
  readonly questions: QuestionTable;
  readonly calls: CallTable;
  readonly tasks: TaskTable;
  readonly audit: AuditTable;
  readonly usedPageCodes: PageCodeTable;
  readonly pageSessions: PageSessionTable;
  readonly liveness: Liveness;
  readonly secrets: SharedSecrets;
  /**
   * The schema cache shared between machines: Redis only. On SQLite it is absent: the store is
   * a file of the state directory, and so are the schema cache's entries, which every process
   * on that directory reads already; a copy in the database would share nothing more.
   */
  readonly schemas?: SchemaTable;
  /** Why a write cannot be taken now (read-only, locked, unreachable), or undefined when it can. */
  unwritable(): Promise<string | undefined>;
  /**
   * Hear that another process or instance wrote (questions, answers, deliveries, tasks). It may
   * be heard more often than it happens, never missed while subscribed. Returns the unsubscribe.
   */
  onChange(listener: () => void): () => void;
  /** After forgetting secrets: leave no older copy of them (SQLite: checkpoint the WAL). False: try again later. */
  compact(): Promise<boolean>;
  close(): Promise<void>;
}

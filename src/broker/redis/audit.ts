/**
 * The audit trail as a Redis stream (`audit`): one entry per row of SQLite's `audit` table,
 * with its column names as fields. `seq` comes from a counter shared by every instance. An
 * entry's stream id starts with its own time (at_ms), kept in order (a time earlier than the
 * last entry's takes the last one's), so retention is XTRIM MINID; XADD also caps the stream
 * (MAXLEN ~) so a retention never run cannot let it grow without bound.
 */
import type { AuditEntry, AuditFilter, AuditKind, NewAuditEntry } from "../audit-store.js";
import type { AuditTable } from "../store-api.js";
import { type RedisLink, fieldsOf } from "./link.js";
import { LuaScript } from "./lua.js";

/** The stream's cap when none is given: far beyond a retention period of ordinary use. */
export const DEFAULT_AUDIT_CAP = 1_000_000;
/** Entries read per round trip while filtering. */
const PAGE = 1_000;

/** ARGV: cap, at_ms, fields… */
const APPEND = new LuaScript(`
local stream = P .. 'audit'
local at = tonumber(ARGV[3])
local last = redis.call('XREVRANGE', stream, '+', '-', 'COUNT', 1)[1]
if last then
  local lastMs = tonumber(string.match(last[1], '^(%d+)-'))
  if lastMs > at then at = lastMs end
end
local seq = redis.call('INCR', P .. 'audit:seq')
redis.call('XADD', stream, 'MAXLEN', '~', ARGV[2], string.format('%d-*', at), 'seq', seq, 'at_ms', ARGV[3], unpack(ARGV, 4))
return seq
`);

interface Waiting {
  atMs: number;
  fields: Array<string | number>;
  written: () => void;
  failed: (error: unknown) => void;
}

export class RedisAudit implements AuditTable {
  /** Entries made this turn of the event loop, sent at its end: a call's answer goes to its host first. */
  readonly #waiting: Waiting[] = [];
  #due: NodeJS.Immediate | undefined;

  constructor(
    private readonly link: RedisLink,
    private readonly cap: number,
  ) {}

  append(entry: NewAuditEntry, atMs = Date.now()): Promise<void> {
    const fields = fieldsOf({
      kind: entry.kind,
      identity: entry.identity,
      host_session: entry.hostSession,
      profile: entry.profile,
      client: entry.client,
      call_id: entry.callId,
      server: entry.server,
      tool: entry.tool,
      arguments_json: entry.arguments === undefined ? undefined : JSON.stringify(entry.arguments),
      outcome: entry.outcome,
      duration_ms: entry.durationMs,
      question_id: entry.questionId,
      method: entry.method,
      answered_by: entry.answeredBy,
      answered_from: entry.answeredFrom,
      detail: entry.detail,
    });
    return new Promise((written, failed) => {
      this.#waiting.push({ atMs, fields, written, failed });
      this.#due ??= setImmediate(() => this.flush());
    });
  }

  /** Send the entries waiting (one connection keeps their order, and puts them before what is sent after). */
  flush(): void {
    clearImmediate(this.#due);
    this.#due = undefined;
    for (const { atMs, fields, written, failed } of this.#waiting.splice(0)) {
      this.link.run(APPEND, this.cap, atMs, ...fields).then(() => written(), failed);
    }
  }

  /** Oldest first: the newest `limit` entries that pass the filter, as SQLite's. */
  async list(filter: AuditFilter = {}): Promise<AuditEntry[]> {
    this.flush();
    const limit = filter.limit ?? 10_000;
    const stream = this.link.key("audit");
    // Ids start at an entry's time or later, so every entry at or after `since` is at or after its id.
    const oldest = filter.sinceMs === undefined ? "-" : String(Math.max(0, Math.floor(filter.sinceMs)));
    const found: AuditEntry[] = [];
    let newest = "+";
    while (found.length < limit) {
      const page = await this.link.call((client) => client.xrevrange(stream, newest, oldest, "COUNT", PAGE));
      for (const [, flat] of page) {
        const entry = entryOf(flat);
        if (passes(entry, filter) && found.length < limit) found.push(entry);
      }
      if (page.length < PAGE) break;
      newest = `(${page[page.length - 1]![0]}`;
    }
    return found.reverse();
  }

  async prune(beforeMs: number): Promise<number> {
    this.flush();
    return this.link.call((client) => client.xtrim(this.link.key("audit"), "MINID", Math.floor(beforeMs)));
  }
}

function passes(entry: AuditEntry, filter: AuditFilter): boolean {
  if (filter.sinceMs !== undefined && Date.parse(entry.at) < filter.sinceMs) return false;
  if (filter.server !== undefined && entry.server !== filter.server) return false;
  if (filter.tool !== undefined && entry.tool !== filter.tool) return false;
  if (filter.hostSession !== undefined && entry.hostSession !== filter.hostSession) return false;
  if (filter.profile !== undefined && entry.profile !== filter.profile) return false;
  if (filter.identity !== undefined && entry.identity !== filter.identity) return false;
  return true;
}

function entryOf(flat: string[]): AuditEntry {
  const row: Record<string, string> = {};
  for (let i = 0; i + 1 < flat.length; i += 2) row[flat[i]!] = flat[i + 1]!;
  return {
    seq: Number(row.seq),
    at: new Date(Number(row.at_ms)).toISOString(),
    kind: row.kind as AuditKind,
    identity: row.identity!,
    ...(row.host_session !== undefined ? { hostSession: row.host_session } : {}),
    ...(row.profile !== undefined ? { profile: row.profile } : {}),
    ...(row.client !== undefined ? { client: row.client } : {}),
    ...(row.call_id !== undefined ? { callId: row.call_id } : {}),
    server: row.server!,
    ...(row.tool !== undefined ? { tool: row.tool } : {}),
    ...(row.arguments_json !== undefined ? { arguments: JSON.parse(row.arguments_json) as unknown } : {}),
    outcome: row.outcome!,
    ...(row.duration_ms !== undefined ? { durationMs: Number(row.duration_ms) } : {}),
    ...(row.question_id !== undefined ? { questionId: row.question_id } : {}),
    ...(row.method !== undefined ? { method: row.method } : {}),
    ...(row.answered_by !== undefined ? { answeredBy: row.answered_by } : {}),
    ...(row.answered_from !== undefined ? { answeredFrom: row.answered_from } : {}),
    ...(row.detail !== undefined ? { detail: row.detail } : {}),
  };
}

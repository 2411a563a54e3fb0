/** `mcpx call`'s calls (broker/call-store.ts) in the SQLite store's `calls` table. */
import type Database from "better-sqlite3";
import type { JsonObject } from "../../protocol/jsonrpc.js";
import type { CallRecord, CallState } from "../call-store.js";
import type { CallTable } from "../store-api.js";

interface Row {
  id: string;
  server: string;
  tool: string;
  arguments_json: string;
  state: string;
  result_json: string | null;
  error: string | null;
  runner_pid: number | null;
  created_ms: number;
  finished_ms: number | null;
}

export class SqliteCallTable implements CallTable {
  readonly #insert;
  readonly #get;
  readonly #runner;
  readonly #finish;
  readonly #old;
  readonly #remove;
  readonly #prefixed;

  constructor(db: Database.Database) {
    this.#insert = db.prepare(`INSERT INTO calls (id, server, tool, arguments_json, state, created_ms) VALUES (?, ?, ?, ?, 'running', ?)`);
    this.#get = db.prepare(`SELECT * FROM calls WHERE id = ?`);
    this.#old = db.prepare(`SELECT id FROM calls WHERE state != 'running' AND created_ms < ?`);
    this.#remove = db.prepare(`DELETE FROM calls WHERE id = ?`);
    this.#prefixed = db.prepare(`SELECT id FROM calls WHERE substr(id, 1, ?) = ? ORDER BY created_ms LIMIT ?`);
    this.#runner = db.prepare(`UPDATE calls SET runner_pid = ? WHERE id = ?`);
    this.#finish = db.prepare(`UPDATE calls SET state = ?, result_json = ?, error = ?, finished_ms = ? WHERE id = ? AND state = 'running'`);
  }

  async create(id: string, server: string, tool: string, args: JsonObject): Promise<void> {
    this.#insert.run(id, server, tool, JSON.stringify(args), Date.now());
  }

  async setRunner(id: string, pid: number): Promise<void> {
    this.#runner.run(pid, id);
  }

  async finish(id: string, outcome: { result: JsonObject } | { error: string }): Promise<void> {
    const done = "result" in outcome;
    this.#finish.run(done ? "done" : "failed", done ? JSON.stringify(outcome.result) : null, done ? null : outcome.error, Date.now(), id);
  }

  /** Remove finished calls created before `beforeMs`; returns their ids. */
  async prune(beforeMs: number): Promise<string[]> {
    const ids = (this.#old.all(beforeMs) as Array<{ id: string }>).map((row) => row.id);
    for (const id of ids) this.#remove.run(id);
    return ids;
  }

  /** The ids that start with `prefix` (at most `limit`), oldest first: `mcpx result` takes a prefix. */
  async idsStartingWith(prefix: string, limit: number): Promise<string[]> {
    return (this.#prefixed.all(prefix.length, prefix, limit) as Array<{ id: string }>).map((row) => row.id);
  }

  async get(id: string): Promise<CallRecord | undefined> {
    const row = this.#get.get(id) as Row | undefined;
    if (!row) return undefined;
    return {
      id: row.id,
      server: row.server,
      tool: row.tool,
      arguments: JSON.parse(row.arguments_json) as JsonObject,
      state: row.state as CallState,
      createdAt: new Date(row.created_ms).toISOString(),
      ...(row.result_json ? { result: JSON.parse(row.result_json) as JsonObject } : {}),
      ...(row.error ? { error: row.error } : {}),
      ...(row.runner_pid !== null ? { runnerPid: row.runner_pid } : {}),
      ...(row.finished_ms !== null ? { finishedAt: new Date(row.finished_ms).toISOString() } : {}),
    };
  }
}

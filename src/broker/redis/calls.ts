/**
 * Calls made by `mcpx call`, as SQLite's `calls` rows: the hash `call:<id>`, the sorted set
 * `calls` by created_ms (prune, oldest first) and `calls:ids` (all scores 0, so ordered by id:
 * a prefix is a range).
 */
import type { JsonObject } from "../../protocol/jsonrpc.js";
import type { CallRecord, CallState } from "../call-store.js";
import type { CallTable } from "../store-api.js";
import { type RedisLink, fieldsOf } from "./link.js";
import { LuaScript } from "./lua.js";

/** ARGV: id, created_ms, fields… */
const CREATE = new LuaScript(`
local id = ARGV[2]
local key = P .. 'call:' .. id
if redis.call('EXISTS', key) == 1 then refuse('call ' .. id .. ' is already stored') end
redis.call('HSET', key, unpack(ARGV, 4))
redis.call('ZADD', P .. 'calls', ARGV[3], id)
redis.call('ZADD', P .. 'calls:ids', 0, id)
changed('call:' .. id)
return 1
`);

/** ARGV: id, pid */
const SET_RUNNER = new LuaScript(`
local key = P .. 'call:' .. ARGV[2]
if redis.call('EXISTS', key) == 0 then return 0 end
redis.call('HSET', key, 'runner_pid', ARGV[3])
changed('call:' .. ARGV[2])
return 1
`);

/** ARGV: id, fields… Only a running call finishes. */
const FINISH = new LuaScript(`
local key = P .. 'call:' .. ARGV[2]
if redis.call('HGET', key, 'state') ~= 'running' then return 0 end
redis.call('HSET', key, unpack(ARGV, 3))
changed('call:' .. ARGV[2])
return 1
`);

/** ARGV: before. The ids of the finished calls created before it, removed. */
const PRUNE = new LuaScript(`
local gone = {}
for _, id in ipairs(redis.call('ZRANGEBYSCORE', P .. 'calls', '-inf', '(' .. ARGV[2])) do
  local key = P .. 'call:' .. id
  local state = redis.call('HGET', key, 'state')
  if state ~= 'running' then
    redis.call('DEL', key)
    redis.call('ZREM', P .. 'calls', id)
    redis.call('ZREM', P .. 'calls:ids', id)
    if state then table.insert(gone, id) end
  end
end
if #gone > 0 then changed('calls:pruned') end
return gone
`);

/** ARGV: prefix, limit. Ids starting with it, oldest first. */
const IDS_STARTING_WITH = new LuaScript(`
local ids = redis.call('ZRANGEBYLEX', P .. 'calls:ids', '[' .. ARGV[2], '[' .. ARGV[2] .. '\\255')
local created = {}
for _, id in ipairs(ids) do created[id] = tonumber(redis.call('ZSCORE', P .. 'calls', id) or 0) end
table.sort(ids, function(a, b) return created[a] < created[b] end)
local out = {}
for i = 1, math.min(#ids, tonumber(ARGV[3])) do out[i] = ids[i] end
return out
`);

export class RedisCalls implements CallTable {
  constructor(private readonly link: RedisLink) {}

  async create(id: string, server: string, tool: string, args: JsonObject): Promise<void> {
    const created = Date.now();
    const fields = fieldsOf({ id, server, tool, arguments_json: JSON.stringify(args), state: "running", created_ms: created });
    await this.link.run(CREATE, id, created, ...fields);
  }

  async setRunner(id: string, pid: number): Promise<void> {
    await this.link.run(SET_RUNNER, id, pid);
  }

  async finish(id: string, outcome: { result: JsonObject } | { error: string }): Promise<void> {
    const done = "result" in outcome;
    const fields = fieldsOf({
      state: done ? "done" : "failed",
      result_json: done ? JSON.stringify(outcome.result) : null,
      error: done ? null : outcome.error,
      finished_ms: Date.now(),
    });
    await this.link.run(FINISH, id, ...fields);
  }

  async prune(beforeMs: number): Promise<string[]> {
    return (await this.link.run(PRUNE, beforeMs)) as string[];
  }

  async idsStartingWith(prefix: string, limit: number): Promise<string[]> {
    return (await this.link.run(IDS_STARTING_WITH, prefix, limit)) as string[];
  }

  async get(id: string): Promise<CallRecord | undefined> {
    const row = await this.link.call((client) => client.hgetall(this.link.key(`call:${id}`)));
    if (row.id === undefined) return undefined;
    return {
      id: row.id,
      server: row.server!,
      tool: row.tool!,
      arguments: JSON.parse(row.arguments_json!) as JsonObject,
      state: row.state as CallState,
      createdAt: new Date(Number(row.created_ms)).toISOString(),
      ...(row.result_json ? { result: JSON.parse(row.result_json) as JsonObject } : {}),
      ...(row.error ? { error: row.error } : {}),
      ...(row.runner_pid !== undefined ? { runnerPid: Number(row.runner_pid) } : {}),
      ...(row.finished_ms !== undefined ? { finishedAt: new Date(Number(row.finished_ms)).toISOString() } : {}),
    };
  }
}

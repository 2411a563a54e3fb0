/**
 * The tasks mcpx relayed, as SQLite's `tasks` rows: the hash `task:<id>`, the sorted set
 * `tasks` by created_ms, and the ids of the tasks not yet ended in `tasks:live` and, per
 * following instance, `tasks:live:<instance>`. A task that ended stays as it ended.
 */
import type { Owner, TaskTable } from "../store-api.js";
import type { NewTask, TaskRecord } from "../task-store.js";
import { type RedisLink, fieldsOf } from "./link.js";
import { LuaScript } from "./lua.js";

const TERMINAL = `local terminal = { completed = true, failed = true, cancelled = true }
local function unlive(id, instance)
  redis.call('SREM', P .. 'tasks:live', id)
  redis.call('SREM', P .. 'tasks:live:' .. instance, id)
end
`;

/** ARGV: id, created_ms, status, instance, fields… */
const RECORD = new LuaScript(`${TERMINAL}
local id = ARGV[2]
local key = P .. 'task:' .. id
if redis.call('EXISTS', key) == 1 then refuse('task ' .. id .. ' is already stored') end
redis.call('HSET', key, unpack(ARGV, 6))
redis.call('ZADD', P .. 'tasks', ARGV[3], id)
if not terminal[ARGV[4]] then
  redis.call('SADD', P .. 'tasks:live', id)
  redis.call('SADD', P .. 'tasks:live:' .. ARGV[5], id)
end
changed('task:' .. id)
return 1
`);

/** ARGV: id, status, has a message ("1"/"0"), message, now. A task already ended is left as it ended. */
const HEARD = new LuaScript(`${TERMINAL}
local id = ARGV[2]
local key = P .. 'task:' .. id
local t = redis.call('HMGET', key, 'status', 'owner_instance')
if not t[1] or terminal[t[1]] then return 0 end
redis.call('HSET', key, 'status', ARGV[3], 'last_poll_ms', ARGV[6])
if ARGV[4] == '1' then redis.call('HSET', key, 'status_message', ARGV[5]) else redis.call('HDEL', key, 'status_message') end
if terminal[ARGV[3]] then unlive(id, t[2]) end
changed('task:' .. id)
return 1
`);

/** ARGV: instance, why, now. Its tasks not yet ended, failed; how many. */
const UNFOLLOWABLE = new LuaScript(`${TERMINAL}
local n = 0
for _, id in ipairs(redis.call('SMEMBERS', P .. 'tasks:live:' .. ARGV[2])) do
  local key = P .. 'task:' .. id
  local status = redis.call('HGET', key, 'status')
  if status and not terminal[status] then
    redis.call('HSET', key, 'status', 'failed', 'status_message', ARGV[3], 'last_poll_ms', ARGV[4])
    n = n + 1
  end
  unlive(id, ARGV[2])
end
if n > 0 then changed('tasks:unfollowable') end
return n
`);

/** Flat [pid, instance, …] of who follows the tasks not yet ended, each once. */
const FOLLOWERS = new LuaScript(`
local seen = {}
local out = {}
for _, id in ipairs(redis.call('SMEMBERS', P .. 'tasks:live')) do
  local t = redis.call('HMGET', P .. 'task:' .. id, 'owner_pid', 'owner_instance')
  if t[1] and not seen[t[1] .. ' ' .. t[2]] then
    seen[t[1] .. ' ' .. t[2]] = true
    table.insert(out, t[1])
    table.insert(out, t[2])
  end
end
return out
`);

/** ARGV: before. Ended tasks created before it go. */
const PRUNE = new LuaScript(`${TERMINAL}
for _, id in ipairs(redis.call('ZRANGEBYSCORE', P .. 'tasks', '-inf', '(' .. ARGV[2])) do
  local key = P .. 'task:' .. id
  local status = redis.call('HGET', key, 'status')
  if not status or terminal[status] then
    redis.call('DEL', key)
    redis.call('ZREM', P .. 'tasks', id)
  end
end
return 1
`);

export class RedisTasks implements TaskTable {
  constructor(private readonly link: RedisLink) {}

  async record(task: NewTask, follower: Owner): Promise<void> {
    const fields = fieldsOf({
      id: task.id,
      identity: task.identity,
      host_session: task.hostSession,
      server: task.server,
      tool: task.tool,
      upstream_task_id: task.upstreamTaskId,
      status: task.status,
      created_ms: task.createdMs,
      last_poll_ms: Date.now(),
      expires_ms: task.expiresMs,
      owner_pid: follower.pid,
      owner_instance: follower.instance,
    });
    await this.link.run(RECORD, task.id, task.createdMs, task.status, follower.instance, ...fields);
  }

  async heard(id: string, status: string, statusMessage: string | undefined): Promise<void> {
    await this.link.run(HEARD, id, status, statusMessage === undefined ? "0" : "1", statusMessage ?? "", Date.now());
  }

  async get(id: string): Promise<TaskRecord | undefined> {
    const hash = await this.link.call((client) => client.hgetall(this.link.key(`task:${id}`)));
    return hash.id === undefined ? undefined : recordOf(hash);
  }

  async all(): Promise<TaskRecord[]> {
    return (await this.link.hashesOf("tasks", "task:")).map(recordOf);
  }

  async followers(): Promise<Owner[]> {
    const flat = (await this.link.run(FOLLOWERS)) as string[];
    const owners: Owner[] = [];
    for (let i = 0; i + 1 < flat.length; i += 2) owners.push({ pid: Number(flat[i]), instance: flat[i + 1]! });
    return owners;
  }

  async unfollowable(instance: string, why: string): Promise<number> {
    return (await this.link.run(UNFOLLOWABLE, instance, why, Date.now())) as number;
  }

  async requestCancel(id: string, why: string): Promise<boolean> {
    return (await this.link.run(HEARD, id, "cancelled", "1", why, Date.now())) === 1;
  }

  async prune(beforeMs: number): Promise<void> {
    await this.link.run(PRUNE, beforeMs);
  }
}

function recordOf(hash: Record<string, string>): TaskRecord {
  return {
    id: hash.id!,
    identity: hash.identity!,
    ...(hash.host_session !== undefined ? { hostSession: hash.host_session } : {}),
    server: hash.server!,
    tool: hash.tool!,
    upstreamTaskId: hash.upstream_task_id!,
    status: hash.status!,
    ...(hash.status_message !== undefined ? { statusMessage: hash.status_message } : {}),
    createdAt: new Date(Number(hash.created_ms)).toISOString(),
    lastPolledAt: new Date(Number(hash.last_poll_ms)).toISOString(),
    ...(hash.expires_ms !== undefined ? { expiresAt: new Date(Number(hash.expires_ms)).toISOString() } : {}),
    followerPid: Number(hash.owner_pid),
    followerInstance: hash.owner_instance!,
  };
}

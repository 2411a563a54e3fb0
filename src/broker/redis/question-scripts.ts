/**
 * The questions' writes, each one Lua script (one step: no other client in between). A question
 * is the hash `q:<id>` with SQLite's column names as fields (an absent field is NULL), and
 * indexes beside it:
 *   q:all                 sorted set, by created_ms (list(true), prune)
 *   q:pending             sorted set of pending ids, by expires_ms (list(), overdue)
 *   q:call:<call>         sorted set, by created_ms (ofCall)
 *   q:owned:<instance>    set of the instance's pending ids (pendingOwnedBy)
 *   q:owners              hash instance -> pid of the instances with pending questions (pendingOwners)
 *   q:unattributed:<srv>  set of the server's ids no host or call owned (unattributedFrom)
 *   q:held                set of person-only answers whose content is still kept (heldSecrets)
 */
import { LuaScript } from "./lua.js";

/** Settling, shared by settle, insertSettled and complete: a compare-and-set on `pending`. */
const SETTLE = `
local function settle(id, state, action, content, by, from, at)
  local key = P .. 'q:' .. id
  local q = redis.call('HMGET', key, 'state', 'owner_instance', 'audience')
  if q[1] ~= 'pending' then return 0 end
  redis.call('HSET', key, 'state', state, 'action', action, 'answered_by', by, 'answered_ms', at)
  if content ~= '' then
    redis.call('HSET', key, 'content_json', content)
    if q[3] == 'person' then redis.call('SADD', P .. 'q:held', id) end
  end
  if from ~= '' then redis.call('HSET', key, 'answered_from', from) end
  redis.call('ZREM', P .. 'q:pending', id)
  local owned = P .. 'q:owned:' .. q[2]
  redis.call('SREM', owned, id)
  if redis.call('SCARD', owned) == 0 then redis.call('HDEL', P .. 'q:owners', q[2]) end
  return 1
end
`;

/** ARGV from \`first\` on: the new question's fields, as pairs. */
const INSERT = `
local function insert(first)
  local f = {}
  local fields = {}
  for i = first, #ARGV, 2 do
    f[ARGV[i]] = ARGV[i + 1]
    table.insert(fields, ARGV[i])
    table.insert(fields, ARGV[i + 1])
  end
  local id = f.id
  local key = P .. 'q:' .. id
  if redis.call('EXISTS', key) == 1 then refuse('question ' .. id .. ' is already stored') end
  redis.call('HSET', key, 'state', 'pending', unpack(fields))
  redis.call('ZADD', P .. 'q:all', f.created_ms, id)
  redis.call('ZADD', P .. 'q:pending', f.expires_ms, id)
  if f.call_id then redis.call('ZADD', P .. 'q:call:' .. f.call_id, f.created_ms, id) end
  redis.call('SADD', P .. 'q:owned:' .. f.owner_instance, id)
  redis.call('HSET', P .. 'q:owners', f.owner_instance, f.owner_pid)
  if not f.call_id and not f.host_session then redis.call('SADD', P .. 'q:unattributed:' .. f.server, id) end
  return id
end
`;

/** ARGV: fields… */
export const INSERT_QUESTION = new LuaScript(`${INSERT}
local id = insert(2)
changed('q:' .. id)
return 1
`);

/** ARGV: action, content, by, from, answered_ms, fields… */
export const INSERT_SETTLED = new LuaScript(`${INSERT}${SETTLE}
local id = insert(7)
settle(id, 'answered', ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6])
changed('q:' .. id)
return 1
`);

/** ARGV: id, state, action, content, by, from, answered_ms */
export const SETTLE_QUESTION = new LuaScript(`${SETTLE}
local done = settle(ARGV[2], ARGV[3], ARGV[4], ARGV[5], ARGV[6], ARGV[7], ARGV[8])
if done == 1 then changed('q:' .. ARGV[2]) end
return done
`);

/** ARGV: id, by, answered_ms, completed_ms, from. A pending question is accepted by the same hand. */
export const COMPLETE_QUESTION = new LuaScript(`${SETTLE}
local id = ARGV[2]
local key = P .. 'q:' .. id
local q = redis.call('HMGET', key, 'state', 'completed_ms', 'action')
if not q[1] or q[2] then return 0 end
if q[1] == 'pending' then
  if settle(id, 'answered', 'accept', '', ARGV[3], ARGV[6], ARGV[4]) == 0 then return 0 end
elseif q[1] ~= 'answered' or q[3] ~= 'accept' then
  return 0
end
redis.call('HSET', key, 'completed_ms', ARGV[5], 'completed_by', ARGV[3])
changed('q:' .. id)
return 1
`);

/** ARGV: id, call */
export const ATTACH_TO_CALL = new LuaScript(`
local id = ARGV[2]
local key = P .. 'q:' .. id
local q = redis.call('HMGET', key, 'state', 'call_id', 'host_session', 'server', 'created_ms')
if q[1] ~= 'pending' or q[2] or q[3] then return 0 end
redis.call('HSET', key, 'call_id', ARGV[3])
redis.call('ZADD', P .. 'q:call:' .. ARGV[3], q[5], id)
redis.call('SREM', P .. 'q:unattributed:' .. q[4], id)
changed('q:' .. id)
return 1
`);

/** ARGV: id, now. True the first time. */
export const MARK_DELIVERED = new LuaScript(`
local key = P .. 'q:' .. ARGV[2]
local q = redis.call('HMGET', key, 'answered_by', 'delivered_ms')
if not q[1] or q[2] then return 0 end
redis.call('HSET', key, 'delivered_ms', ARGV[3])
changed('q:' .. ARGV[2])
return 1
`);

/**
 * ARGV: id. The field is removed; the AOF still holds the command that wrote it until Redis
 * rewrites the AOF (RedisStore.compact asks for that).
 */
export const FORGET_CONTENT = new LuaScript(`
local id = ARGV[2]
local key = P .. 'q:' .. id
local q = redis.call('HMGET', key, 'audience', 'content_json')
if q[1] ~= 'person' or not q[2] then return 0 end
redis.call('HDEL', key, 'content_json')
redis.call('SREM', P .. 'q:held', id)
changed('q:' .. id)
return 1
`);

/** Flat [id, pid, instance, …] of the held person-only answers. */
export const HELD_SECRETS = new LuaScript(`
local out = {}
for _, id in ipairs(redis.call('SMEMBERS', P .. 'q:held')) do
  local q = redis.call('HMGET', P .. 'q:' .. id, 'owner_pid', 'owner_instance')
  if q[1] then
    table.insert(out, id)
    table.insert(out, q[1])
    table.insert(out, q[2])
  end
end
return out
`);

/** ARGV: before. Settled questions created before it go, with their places in the indexes; how many. */
export const PRUNE_QUESTIONS = new LuaScript(`
local n = 0
for _, id in ipairs(redis.call('ZRANGEBYSCORE', P .. 'q:all', '-inf', '(' .. ARGV[2])) do
  local key = P .. 'q:' .. id
  local q = redis.call('HMGET', key, 'state', 'call_id', 'server')
  if q[1] ~= 'pending' then
    if q[1] then
      if q[2] then redis.call('ZREM', P .. 'q:call:' .. q[2], id) end
      redis.call('SREM', P .. 'q:unattributed:' .. q[3], id)
      redis.call('SREM', P .. 'q:held', id)
      redis.call('DEL', key)
      n = n + 1
    end
    redis.call('ZREM', P .. 'q:all', id)
  end
end
if n > 0 then changed('q:pruned') end
return n
`);

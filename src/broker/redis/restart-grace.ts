/**
 * A heartbeat key missing just after Redis restarted is no sign of death. Redis keeps the keys'
 * expiry times across a restart, so an outage longer than the heartbeat's expiry comes back with
 * every instance's key gone, and each instance writes its own again only once it has
 * reconnected (within a second or so, one after another). Until a whole expiry has passed since
 * the restart, an instance without a key counts as alive; after it, one without a key is gone.
 *
 * Which run of Redis this is comes from INFO's run_id, kept under the prefix (with the AOF, it
 * survives the restart): a run_id other than the one kept means Redis restarted, and the first
 * script to see it notes the moment, by Redis's own clock (no two machines' clocks compared). A
 * store notes it as soon as it connects or reconnects; `ALIVE` notes it too, so the first look
 * after a restart is never ahead of the note. A Redis never seen before (no run kept) was not
 * restarted under anyone: no grace.
 */
import { LuaScript } from "./lua.js";

const NOTE_RUN = `
local function nowMs()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local function restartedAt()
  local run = string.match(redis.call('INFO', 'server'), 'run_id:(%x+)')
  local seen = redis.call('GET', P .. 'redis:run')
  if run and seen ~= run then
    redis.call('SET', P .. 'redis:run', run)
    if seen then redis.call('SET', P .. 'redis:restarted', nowMs()) end
  end
  return tonumber(redis.call('GET', P .. 'redis:restarted'))
end
`;

/** Note this run of Redis (when it is a new one, when it was first seen). */
export const NOTE_RESTART = new LuaScript(`${NOTE_RUN}
restartedAt()
return 1
`);

/** ARGV[2] the instance, ARGV[3] the heartbeat's expiry (ms): 1 when its key is there or Redis restarted less than an expiry ago. */
export const ALIVE = new LuaScript(`${NOTE_RUN}
if redis.call('EXISTS', P .. 'alive:' .. ARGV[2]) == 1 then return 1 end
local restarted = restartedAt()
if restarted and nowMs() < restarted + tonumber(ARGV[3]) then return 1 end
return 0
`);

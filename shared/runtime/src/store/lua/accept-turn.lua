-- Accepts a user turn: starts it when the session is idle, queues it behind the running turn
-- otherwise, or recognises a retry by its idempotency key.
-- KEYS: 1 hash, 2 events, 3 inbox, 4 turns, 5 idem, 6 runStepIds, 7 runSteps, 8 messages
-- ARGV: 1 turnId, 2 turnJson, 3 idempotencyKey ('' = none), 4 multitask ('enqueue' | 'reject'),
--       5 maxQueued, 6 ttl, 7 events maxlen, 8 fingerprint of the turn's request, 9 turns the session may accept
-- Returns {outcome, turnId, position, stepJson}; outcome is one of
-- not_found | submitted | busy | inbox_full | key_reused | turn_limit (alone) or duplicate | queued | started.
-- The idem hash maps a key to "<turnId> <fingerprint>" (a bare turnId from before fingerprints matches any request).
--- @include "session-helpers.lua"
if redis.call('EXISTS', KEYS[1]) == 0 then return {'not_found'} end
if redis.call('HGET', KEYS[1], 'status') == 'submitted' then return {'submitted'} end
local active = redis.call('HGET', KEYS[1], 'activeTurn')
if ARGV[3] ~= '' then
  local recorded = redis.call('HGET', KEYS[5], ARGV[3])
  local existing = recorded
  if recorded then
    local space = string.find(recorded, ' ', 1, true)
    if space then
      existing = string.sub(recorded, 1, space - 1)
      if string.sub(recorded, space + 1) ~= ARGV[8] then return {'key_reused'} end
    end
  end
  if existing then
    if active == existing then
      return {'duplicate', existing, 0, redis.call('HGET', KEYS[1], 'step') or ''}
    end
    local idx = redis.call('LPOS', KEYS[3], existing)
    if idx then return {'duplicate', existing, idx + 1, ''} end
    return {'duplicate', existing, 0, ''}
  end
end
if tonumber(redis.call('HGET', KEYS[1], 'acceptedTurns') or '0') >= tonumber(ARGV[9]) then return {'turn_limit'} end
if active and active ~= '' then
  if ARGV[4] == 'reject' then return {'busy'} end
  if redis.call('LLEN', KEYS[3]) >= tonumber(ARGV[5]) then return {'inbox_full'} end
end
redis.call('HINCRBY', KEYS[1], 'acceptedTurns', 1)
redis.call('HSET', KEYS[4], ARGV[1], ARGV[2])
if ARGV[3] ~= '' then redis.call('HSET', KEYS[5], ARGV[3], ARGV[1] .. ' ' .. ARGV[8]) end
refresh(tonumber(ARGV[6]))
if active and active ~= '' then
  local pos = redis.call('RPUSH', KEYS[3], ARGV[1])
  append_event(ARGV[7], 'turn.queued', cjson.encode({ turnId = ARGV[1], position = pos }))
  return {'queued', ARGV[1], pos, ''}
end
redis.call('HSET', KEYS[1], 'activeTurn', ARGV[1])
local seq = redis.call('HINCRBY', KEYS[1], 'stepSeq', 1)
local step = cjson.encode({ seq = seq, agent = redis.call('HGET', KEYS[1], 'agent'), turnId = ARGV[1] })
redis.call('HSET', KEYS[1], 'step', step)
return {'started', ARGV[1], 0, step}

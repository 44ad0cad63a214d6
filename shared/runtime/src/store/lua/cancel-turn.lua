-- Cancels a turn: a queued one leaves the inbox at once with turn.failed (code cancelled); the
-- running one is marked, and the version bumped so no commit of its step can land any more: the
-- step that runs it next (or re-reads after losing the compare-and-set) ends it as cancelled.
-- KEYS: 1 hash, 2 events, 3 inbox, 4 turns, 5 idem, 6 runStepIds, 7 runSteps, 8 messages
-- ARGV: 1 turnId, 2 error message, 3 ttl, 4 events maxlen
-- Returns {outcome}: not_found | turn_not_found | cancelled (was queued) | cancelling (was running) | not_active.
--- @include "session-helpers.lua"
if redis.call('EXISTS', KEYS[1]) == 0 then return {'not_found'} end
if redis.call('HEXISTS', KEYS[4], ARGV[1]) == 0 then return {'turn_not_found'} end
if redis.call('LREM', KEYS[3], 0, ARGV[1]) > 0 then
  append_event(ARGV[4], 'turn.failed', cjson.encode({ turnId = ARGV[1], error = { code = 'cancelled', message = ARGV[2] } }))
  refresh(tonumber(ARGV[3]))
  return {'cancelled'}
end
if redis.call('HGET', KEYS[1], 'activeTurn') == ARGV[1] then
  if redis.call('HGET', KEYS[1], 'cancelTurn') ~= ARGV[1] then
    redis.call('HSET', KEYS[1], 'cancelTurn', ARGV[1])
    redis.call('HINCRBY', KEYS[1], 'v', 1)
  end
  return {'cancelling'}
end
return {'not_active'}

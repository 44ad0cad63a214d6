-- Creates a session, with its bootstrap step pending unless it waits for its first turn.
-- KEYS: 1 hash, 2 events, 3 inbox, 4 turns, 5 idem, 6 runStepIds, 7 runSteps, 8 messages
-- ARGV: 1 stateJson (without its messages), 2 kind, 3 tokenHash, 4 agent, 5 turnId ('' = no bootstrap run), 6 now, 7 ttl,
--       8 status, then the messages the session starts with (JSON each)
-- Returns 1, or 0 when the session id is taken.
--- @include "session-helpers.lua"
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
for m = 9, #ARGV do redis.call('RPUSH', KEYS[8], ARGV[m]) end
if ARGV[5] == '' then
  -- No bootstrap run (a product whose agents speak only when spoken to): the first accepted turn starts step 1.
  redis.call('HSET', KEYS[1], 'v', 1, 'state', ARGV[1], 'kind', ARGV[2], 'tokenHash', ARGV[3],
    'agent', ARGV[4], 'status', ARGV[8], 'activeTurn', '', 'stepSeq', 0, 'step', '',
    'eventSeq', 0, 'createdAt', ARGV[6])
  refresh(tonumber(ARGV[7]))
  return 1
end
local step = cjson.encode({ seq = 1, agent = ARGV[4], turnId = ARGV[5] })
redis.call('HSET', KEYS[1], 'v', 1, 'state', ARGV[1], 'kind', ARGV[2], 'tokenHash', ARGV[3],
  'agent', ARGV[4], 'status', ARGV[8], 'activeTurn', ARGV[5], 'stepSeq', 1, 'step', step,
  'eventSeq', 0, 'createdAt', ARGV[6])
redis.call('HSET', KEYS[4], ARGV[5], cjson.encode({ message = cjson.null, acceptedAt = ARGV[6] }))
refresh(tonumber(ARGV[7]))
return 1

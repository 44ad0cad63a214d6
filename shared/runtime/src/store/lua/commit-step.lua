-- Compare-and-set commit of a step's effects: state, events, run steps and new messages in one go,
-- only if nobody committed since the version the step read (a job that runs twice commits once).
-- Messages are appended, never rewritten: a step's cost does not grow with the conversation.
-- KEYS: 1 hash, 2 events, 3 inbox, 4 turns, 5 idem, 6 runStepIds, 7 runSteps, 8 messages
-- ARGV: 1 expectedVersion, 2 expectedSeq ('' = any), 3 stateJson, 4 status, 5 agent, 6 mode,
--       7 nextAgent, 8 ttl, 9 events maxlen, 10 nEvents, then (type, data) * nEvents,
--       then nRunSteps, then (id, json) * nRunSteps, then messagesBefore (how many the step read),
--       then nMessages, then json * nMessages (the messages the step added)
-- mode: 'none' keeps the pending step; 'continue' sets the next step of the same turn for nextAgent;
--       'end_turn' clears the active turn and starts the next queued one, if any.
-- Returns {'conflict'} or {'ok', newVersion, stepJson or ''}.
--- @include "session-helpers.lua"
local v = redis.call('HGET', KEYS[1], 'v')
if not v or v ~= ARGV[1] then return {'conflict'} end
local stepJson = redis.call('HGET', KEYS[1], 'step')
if ARGV[2] ~= '' then
  if not stepJson or stepJson == '' then return {'conflict'} end
  if tostring(cjson.decode(stepJson).seq) ~= ARGV[2] then return {'conflict'} end
end
local mi = 10 + 2 * tonumber(ARGV[10]) + 1
mi = mi + 2 * tonumber(ARGV[mi]) + 1
if redis.call('LLEN', KEYS[8]) ~= tonumber(ARGV[mi]) then return {'conflict'} end
local nv = tonumber(v) + 1
redis.call('HSET', KEYS[1], 'v', nv, 'state', ARGV[3], 'status', ARGV[4], 'agent', ARGV[5])
local i = 10
local nEvents = tonumber(ARGV[i])
for e = 1, nEvents do
  append_event(ARGV[9], ARGV[i + 1], ARGV[i + 2])
  i = i + 2
end
i = i + 1
local nSteps = tonumber(ARGV[i])
for r = 1, nSteps do
  if redis.call('HSETNX', KEYS[7], ARGV[i + 1], ARGV[i + 2]) == 1 then
    redis.call('RPUSH', KEYS[6], ARGV[i + 1])
  end
  i = i + 2
end
for m = mi + 2, mi + 1 + tonumber(ARGV[mi + 1]) do redis.call('RPUSH', KEYS[8], ARGV[m]) end
refresh(tonumber(ARGV[8]))
local mode = ARGV[6]
if mode == 'continue' then
  local turnId = cjson.decode(stepJson).turnId
  local seq = redis.call('HINCRBY', KEYS[1], 'stepSeq', 1)
  local step = cjson.encode({ seq = seq, agent = ARGV[7], turnId = turnId })
  redis.call('HSET', KEYS[1], 'step', step)
  return {'ok', nv, step}
elseif mode == 'end_turn' then
  redis.call('HDEL', KEYS[1], 'step', 'activeTurn', 'cancelTurn')
  if ARGV[4] ~= 'submitted' then
    local nextTurn = redis.call('LPOP', KEYS[3])
    if nextTurn then
      redis.call('HSET', KEYS[1], 'activeTurn', nextTurn)
      local seq = redis.call('HINCRBY', KEYS[1], 'stepSeq', 1)
      local step = cjson.encode({ seq = seq, agent = ARGV[5], turnId = nextTurn })
      redis.call('HSET', KEYS[1], 'step', step)
      return {'ok', nv, step}
    end
  end
  return {'ok', nv, ''}
end
return {'ok', nv, ''}

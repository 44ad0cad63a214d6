/**
 * Atomic session operations as Lua scripts. Every state change and the events
 * it produces are written by one script, guarded by the session's version, so
 * a job that runs twice commits once. Event ids are the session's own integer
 * sequence, stored in the stream as `0-<n>` so XRANGE can resume from any id.
 *
 * KEYS of every script (one slot, see keys.ts):
 *   1 hash, 2 events, 3 inbox, 4 turns, 5 idem, 6 runStepIds, 7 runSteps
 */

const REFRESH_TTL = `
local function refresh(ttl)
  for i = 1, 7 do redis.call('EXPIRE', KEYS[i], ttl) end
end
local function append_event(maxlen, etype, data)
  local seq = redis.call('HINCRBY', KEYS[1], 'eventSeq', 1)
  redis.call('XADD', KEYS[2], 'MAXLEN', '~', maxlen, '0-' .. seq, 'type', etype, 'data', data)
  return seq
end
`;

/** ARGV: stateJson, kind, tokenHash, agent, turnId ('' = no bootstrap run), now, ttl, status */
export const CREATE_SESSION = `${REFRESH_TTL}
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
if ARGV[5] == '' then
  -- No bootstrap run (FAQ sessions): the first accepted turn starts step 1.
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
`;

/**
 * ARGV: turnId, turnJson, idempotencyKey ('' = none), multitask, maxQueued, ttl, maxlen
 * Returns {outcome, turnId, position, stepJson?}; outcome is one of
 * not_found | submitted | busy | inbox_full | duplicate | queued | started.
 */
export const ACCEPT_TURN = `${REFRESH_TTL}
if redis.call('EXISTS', KEYS[1]) == 0 then return {'not_found'} end
if redis.call('HGET', KEYS[1], 'status') == 'submitted' then return {'submitted'} end
local active = redis.call('HGET', KEYS[1], 'activeTurn')
if ARGV[3] ~= '' then
  local existing = redis.call('HGET', KEYS[5], ARGV[3])
  if existing then
    if active == existing then
      return {'duplicate', existing, 0, redis.call('HGET', KEYS[1], 'step') or ''}
    end
    local idx = redis.call('LPOS', KEYS[3], existing)
    if idx then return {'duplicate', existing, idx + 1, ''} end
    return {'duplicate', existing, 0, ''}
  end
end
if active and active ~= '' then
  if ARGV[4] == 'reject' then return {'busy'} end
  if redis.call('LLEN', KEYS[3]) >= tonumber(ARGV[5]) then return {'inbox_full'} end
end
redis.call('HSET', KEYS[4], ARGV[1], ARGV[2])
if ARGV[3] ~= '' then redis.call('HSET', KEYS[5], ARGV[3], ARGV[1]) end
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
`;

/**
 * Compare-and-set commit of a step's effects.
 * ARGV: expectedVersion, expectedSeq ('' = any), stateJson, status, agent, mode, nextAgent, ttl, maxlen,
 *       nEvents, (type, data) * nEvents, nRunSteps, (id, json) * nRunSteps
 * mode: 'none' keeps the pending step; 'continue' sets the next step of the same turn for nextAgent;
 *       'end_turn' clears the active turn and starts the next queued one, if any.
 * Returns {'conflict'} or {'ok', newVersion, stepJson or ''}.
 */
export const COMMIT = `${REFRESH_TTL}
local v = redis.call('HGET', KEYS[1], 'v')
if not v or v ~= ARGV[1] then return {'conflict'} end
local stepJson = redis.call('HGET', KEYS[1], 'step')
if ARGV[2] ~= '' then
  if not stepJson or stepJson == '' then return {'conflict'} end
  if tostring(cjson.decode(stepJson).seq) ~= ARGV[2] then return {'conflict'} end
end
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
refresh(tonumber(ARGV[8]))
local mode = ARGV[6]
if mode == 'continue' then
  local turnId = cjson.decode(stepJson).turnId
  local seq = redis.call('HINCRBY', KEYS[1], 'stepSeq', 1)
  local step = cjson.encode({ seq = seq, agent = ARGV[7], turnId = turnId })
  redis.call('HSET', KEYS[1], 'step', step)
  return {'ok', nv, step}
elseif mode == 'end_turn' then
  redis.call('HDEL', KEYS[1], 'step', 'activeTurn')
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
`;

/** Reads the live tail position and the snapshot source in one atomic call. ARGV: none. */
export const READ_WITH_SEQ = `
local vals = redis.call('HMGET', KEYS[1], 'v', 'state', 'step', 'activeTurn', 'eventSeq', 'tokenHash', 'status')
local qlen = redis.call('LLEN', KEYS[3])
local first = redis.call('XRANGE', KEYS[2], '-', '+', 'COUNT', 1)
local firstId = ''
if first[1] then firstId = first[1][1] end
return {vals[1] or '', vals[2] or '', vals[3] or '', vals[4] or '', vals[5] or '0', vals[6] or '', vals[7] or '', qlen, firstId}
`;

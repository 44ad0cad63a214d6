-- Helpers for the session scripts (included, never run alone).
-- KEYS of every session script (one cluster slot, see ../keys.ts):
--   1 hash, 2 events, 3 inbox, 4 turns, 5 idem, 6 runStepIds, 7 runSteps, 8 messages

-- Every key of the session lives as long as its last change plus the TTL.
local function refresh(ttl)
  for i = 1, #KEYS do redis.call('EXPIRE', KEYS[i], ttl) end
end

-- Appends an event with the session's next sequence number as its stream id (0-<n>), so XRANGE can resume from any id.
-- `v` is the event schema's major (EVENT_SCHEMA_VERSION in schemas/events.ts; a test keeps the two equal), so a
-- reader of a stream written by a newer release knows what it holds.
local function append_event(maxlen, etype, data)
  local seq = redis.call('HINCRBY', KEYS[1], 'eventSeq', 1)
  redis.call('XADD', KEYS[2], 'MAXLEN', '~', maxlen, '0-' .. seq, 'v', '1', 'type', etype, 'data', data)
  return seq
end

-- Reads the snapshot source and the live tail position in one atomic call.
-- KEYS: 1 hash, 2 events, 3 inbox, 4 turns, 5 idem, 6 runStepIds, 7 runSteps, 8 messages
-- ARGV: none
-- Returns {v, state, step, activeTurn, eventSeq, tokenHash, status, inbox length, first retained event id,
-- turn being cancelled, the record of the pending step's turn, the messages (a list of JSON strings)}: a step
-- runner reads all it needs at once; strings are '' where absent.
local vals = redis.call('HMGET', KEYS[1], 'v', 'state', 'step', 'activeTurn', 'eventSeq', 'tokenHash', 'status', 'cancelTurn')
local qlen = redis.call('LLEN', KEYS[3])
local first = redis.call('XRANGE', KEYS[2], '-', '+', 'COUNT', 1)
local firstId = ''
if first[1] then firstId = first[1][1] end
local stepTurn = ''
if vals[3] and vals[3] ~= '' then
  stepTurn = redis.call('HGET', KEYS[4], cjson.decode(vals[3]).turnId) or ''
end
return {vals[1] or '', vals[2] or '', vals[3] or '', vals[4] or '', vals[5] or '0', vals[6] or '', vals[7] or '', qlen, firstId, vals[8] or '', stepTurn,
  redis.call('LRANGE', KEYS[8], 0, -1)}

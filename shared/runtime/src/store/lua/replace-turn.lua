-- Replaces a turn's stored record if it is still the one the caller read (compare-and-set), so a
-- redaction never overwrites a change it did not see.
-- KEYS: 1 turns
-- ARGV: 1 turnId, 2 the record as read, 3 the redacted record
-- Returns 1 when replaced, 0 when the turn is gone or changed since it was read.
if redis.call('HGET', KEYS[1], ARGV[1]) ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[3])
return 1

-- Takes one of a client's places for a live thing (a session, a worksheet), dropping places whose thing has expired.
-- KEYS: 1 the client's sorted set of places (member: id, score: when it expires, ms)
-- ARGV: 1 now (ms), 2 max places, 3 when the new place expires (ms), 4 id, 5 the set's ttl (ms)
-- Returns 1 when taken, 0 when the client holds max places already.
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1

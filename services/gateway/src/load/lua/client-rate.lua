-- Counts one request of a client in its fixed rate window, opening the window with its first request.
-- KEYS: 1 the client's counter
-- ARGV: 1 window in ms
-- Returns {count in this window, ms until the window ends}.
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {n, redis.call('PTTL', KEYS[1])}

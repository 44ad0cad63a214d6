-- Removes FAQ documents, and their embeddings with them; bumps the version when any was there.
-- KEYS: 1 docs, 2 version, 3 vectors (hybrid retrieval)
-- ARGV: ids
-- Returns {version, removed}.
local removed = 0
for i = 1, #ARGV do
  removed = removed + redis.call('HDEL', KEYS[1], ARGV[i])
  redis.call('HDEL', KEYS[3], ARGV[i])
end
local v = tonumber(redis.call('GET', KEYS[2]) or '0')
if removed > 0 then v = redis.call('INCR', KEYS[2]) end
return {v, removed}

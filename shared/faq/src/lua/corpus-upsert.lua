-- Inserts or replaces FAQ documents and bumps the corpus version, or refuses the whole batch
-- when the corpus would grow past its limit.
-- KEYS: 1 docs (hash id -> JSON), 2 version
-- ARGV: 1 maxDocs, then (id, json) pairs
-- Returns {newVersion, created}, or {-1, current size} when refused.
local created = 0
for i = 2, #ARGV, 2 do
  if redis.call('HEXISTS', KEYS[1], ARGV[i]) == 0 then created = created + 1 end
end
local size = redis.call('HLEN', KEYS[1])
if size + created > tonumber(ARGV[1]) then return {-1, size} end
for i = 2, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
return {redis.call('INCR', KEYS[2]), created}

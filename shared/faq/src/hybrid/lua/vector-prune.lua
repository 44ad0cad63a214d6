-- Deletes the vectors of ids that have no document, checked here so a document added meanwhile
-- keeps its vector.
-- KEYS: 1 docs, 2 vectors
-- ARGV: ids
-- Returns how many vectors were deleted.
local pruned = 0
for i = 1, #ARGV do
  if redis.call('HEXISTS', KEYS[1], ARGV[i]) == 0 then pruned = pruned + redis.call('HDEL', KEYS[2], ARGV[i]) end
end
return pruned

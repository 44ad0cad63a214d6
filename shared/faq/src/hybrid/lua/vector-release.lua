-- Deletes the leases the owner holds.
-- KEYS: lease keys
-- ARGV: 1 owner
-- Returns 0.
for i = 1, #KEYS do
  if redis.call('GET', KEYS[i]) == ARGV[1] then redis.call('DEL', KEYS[i]) end
end
return 0

-- Takes each lease that is free or already the owner's (renewed), so a replica is never blocked
-- by its own lease; a lease is a key with an expiry, so a crashed holder's runs out by itself.
-- KEYS: lease keys
-- ARGV: 1 owner, 2 lease ms
-- Returns 1 (held) or 0 (another replica holds it) per key.
local out = {}
for i = 1, #KEYS do
  local holder = redis.call('GET', KEYS[i])
  if not holder or holder == ARGV[1] then
    redis.call('SET', KEYS[i], ARGV[1], 'PX', ARGV[2])
    out[i] = 1
  else
    out[i] = 0
  end
end
return out

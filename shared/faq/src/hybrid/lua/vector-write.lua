-- Stores embeddings for documents still at the version that was embedded, and releases the
-- caller's leases on them: a replica that embedded an old version never overwrites the vector
-- of a newer one.
-- KEYS: 1 docs, 2 vectors, 3.. lease keys
-- ARGV: 1 owner, then (id, SHA-1 of the document JSON that was embedded, record JSON) triples
-- Returns how many vectors were written.
local written = 0
for i = 2, #ARGV, 3 do
  local raw = redis.call('HGET', KEYS[1], ARGV[i])
  if raw and redis.sha1hex(raw) == ARGV[i + 1] then
    redis.call('HSET', KEYS[2], ARGV[i], ARGV[i + 2])
    written = written + 1
  end
end
for i = 3, #KEYS do
  if redis.call('GET', KEYS[i]) == ARGV[1] then redis.call('DEL', KEYS[i]) end
end
return written

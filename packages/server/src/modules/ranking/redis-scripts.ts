/** The Lua scripts of the Redis rank index (redis-index.ts): each runs as one command, atomically. */

// Keys of one period and sort: KEYS[1] live sorted set, [2] live id → "revision|member", [3] ids
// removed lately (sorted by when), [4] rebuild lock, [5] and [6] the set and hash a rebuild fills,
// [7] the board's generation. The live set exists only complete: a rebuild fills the other pair
// and renames it into place with the marker (the empty member at -inf), so any member at all
// means ready, and every rank the scripts give skips the marker.

// Saves entry `id` at `revision` as `member` with score `z` into a set and its hash, unless the
// hash holds a revision as new or newer.
const SAVE = `
local function save(z, rev, id, revision, score, member)
  local old = redis.call('HGET', rev, id)
  if old then
    local sep = string.find(old, '|', 1, true)
    if tonumber(string.sub(old, 1, sep - 1)) >= tonumber(revision) then return end
    redis.call('ZREM', z, string.sub(old, sep + 1))
  end
  redis.call('ZADD', z, score, member)
  redis.call('HSET', rev, id, revision .. '|' .. member)
end`;

export const SCRIPTS = {
  // Saves an entry into the live set and the one being rebuilt, where each exists, unless the
  // notice is stale: an older generation, a removed id, or a revision no newer than the stored one.
  // A removed id answers when it was removed; ARGV[7], when given, is such an answer the database
  // has shown to be saved again (a client chose the id again): that removal is forgotten, here and
  // under the board's other order (KEYS[8], where the same removal went), not a later one; -1 means
  // another notice forgot it first (what it saved may be newer).
  howlSave: `${SAVE}
if tonumber(redis.call('GET', KEYS[7]) or '0') > tonumber(ARGV[5]) then return 0 end
local gone = redis.call('ZSCORE', KEYS[3], ARGV[1])
if gone and gone == ARGV[7] then
  redis.call('ZREM', KEYS[3], ARGV[1])
  if redis.call('ZSCORE', KEYS[8], ARGV[1]) == gone then redis.call('ZREM', KEYS[8], ARGV[1]) end
elseif gone then
  return gone
elseif ARGV[7] and ARGV[7] ~= '' then
  return -1
end
if redis.call('EXISTS', KEYS[1]) == 1 then save(KEYS[1], KEYS[2], ARGV[1], ARGV[2], ARGV[3], ARGV[4]) end
if ARGV[6] == '1' or redis.call('EXISTS', KEYS[4]) == 1 then save(KEYS[5], KEYS[6], ARGV[1], ARGV[2], ARGV[3], ARGV[4]) end
return 1`,
  // A rebuild's entries read from the database, many a call: ARGV[1] the rebuild's lock token,
  // [2] the lock's time to live, renewed here, then fours (id, revision, z, member). A call fails
  // once the lock holds another token (it expired, and another process's rebuild took it and
  // started the set over). Each entry is saved as howlSave saves it into the set being rebuilt
  // (and the live one, where it exists), with no generation check (rows read from the database
  // are never stale); a removed id still wins. Ids the rebuilt hash does not hold yet (all but
  // those a write saved meanwhile) go in one ZADD and one HSET. (No ZMSCORE: Redis before 6.2
  // lacks it.)
  howlLoad: `${SAVE}
if redis.call('GET', KEYS[4]) ~= ARGV[1] then return redis.error_reply('the rebuild lost its lock') end
redis.call('PEXPIRE', KEYS[4], ARGV[2])
local n = (#ARGV - 2) / 4
local ids = {}
for i = 1, n do ids[i] = ARGV[4 * i - 1] end
local held = redis.call('HMGET', KEYS[6], unpack(ids))
local live = redis.call('EXISTS', KEYS[1]) == 1
local zadd, hset = {}, {}
for i = 1, n do
  local a = 4 * i - 1
  if not redis.call('ZSCORE', KEYS[3], ARGV[a]) then
    if live then save(KEYS[1], KEYS[2], ARGV[a], ARGV[a + 1], ARGV[a + 2], ARGV[a + 3]) end
    if held[i] then
      save(KEYS[5], KEYS[6], ARGV[a], ARGV[a + 1], ARGV[a + 2], ARGV[a + 3])
    else
      zadd[#zadd + 1] = ARGV[a + 2]
      zadd[#zadd + 1] = ARGV[a + 3]
      hset[#hset + 1] = ARGV[a]
      hset[#hset + 1] = ARGV[a + 1] .. '|' .. ARGV[a + 3]
    end
  end
end
if #zadd > 0 then
  redis.call('ZADD', KEYS[5], unpack(zadd))
  redis.call('HSET', KEYS[6], unpack(hset))
end
return 1`,
  // Removes an entry from both sets and remembers its id, so a late notice cannot bring it back.
  howlRemove: `
local function remove(z, rev)
  local old = redis.call('HGET', rev, ARGV[1])
  if old then
    redis.call('ZREM', z, string.sub(old, string.find(old, '|', 1, true) + 1))
    redis.call('HDEL', rev, ARGV[1])
  end
end
remove(KEYS[1], KEYS[2])
remove(KEYS[5], KEYS[6])
redis.call('ZADD', KEYS[3], ARGV[2], ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', ARGV[3])
redis.call('PEXPIRE', KEYS[3], ARGV[4])
return 1`,
  // The 0-based rank of a key (its own, found through ARGV[6], its id; or where it would go: ARGV[5]
  // '1' when it follows every tie of its score, so a ZCOUNT tells; else added and removed inside the
  // script), and with ARGV[3] > 0 that many members with their scores from ARGV[4] ('after',
  // 'above', or 'both': after, then above) of it. -1 when not ready.
  howlRank: `
if not redis.call('ZSCORE', KEYS[1], '') then return -1 end
local member = ARGV[2]
local own = false
local r
if ARGV[5] == '1' then
  r = redis.call('ZCOUNT', KEYS[1], '-inf', ARGV[1]) - 1
elseif member == '' then
  r = 0
else
  local stored = redis.call('HGET', KEYS[2], ARGV[6])
  if stored then
    stored = string.sub(stored, string.find(stored, '|', 1, true) + 1)
    local prefix = string.sub(stored, 1, #member)
    local rest = string.sub(stored, #member + 1, #member + 1)
    if prefix == member and (rest == '' or rest == '\\1') then
      -- The entry as asked about: not one saved since with another score (the same member otherwise).
      local z = redis.call('ZSCORE', KEYS[1], stored)
      if z and tonumber(z) == tonumber(ARGV[1]) then
        own = true
        member = stored
      end
    end
  end
  if own then
    r = redis.call('ZRANK', KEYS[1], member) - 1
  else
    redis.call('ZADD', KEYS[1], ARGV[1], member)
    r = redis.call('ZRANK', KEYS[1], member) - 1
    redis.call('ZREM', KEYS[1], member)
  end
end
local n = tonumber(ARGV[3])
if n <= 0 then return {r} end
local below = {}
if ARGV[4] ~= 'above' then
  local from = r + 1
  if own then from = r + 2 end
  below = redis.call('ZRANGE', KEYS[1], from, from + n - 1, 'WITHSCORES')
  if ARGV[4] == 'after' then return {r, below} end
end
local above = {}
if r > 0 then
  local from = r - n
  if from < 0 then from = 0 end
  above = redis.call('ZRANGE', KEYS[1], from + 1, r, 'WITHSCORES')
end
if ARGV[4] == 'above' then return {r, above} end
return {r, below, above}`,
  // The stored member of entry ARGV[1] and its score in the live set; nil when the set is not
  // ready or does not hold the entry.
  howlKeyOf: `
if not redis.call('ZSCORE', KEYS[1], '') then return false end
local stored = redis.call('HGET', KEYS[2], ARGV[1])
if not stored then return false end
local member = string.sub(stored, string.find(stored, '|', 1, true) + 1)
local z = redis.call('ZSCORE', KEYS[1], member)
if not z then return false end
return {member, z}`,
  // Puts a rebuilt period in place, unless the board was reset while it was being rebuilt
  // (KEYS[8] is the board's reset count, ARGV[1] its value when the rebuild began), or the
  // rebuild lost its lock (ARGV[3] its token): the set being rebuilt is then another's.
  howlReady: `
if redis.call('GET', KEYS[4]) ~= ARGV[3] then return 0 end
if (redis.call('GET', KEYS[8]) or '0') ~= ARGV[1] then
  redis.call('DEL', KEYS[5], KEYS[6])
  return 0
end
redis.call('ZADD', KEYS[5], '-inf', '')
redis.call('RENAME', KEYS[5], KEYS[1])
if redis.call('EXISTS', KEYS[6]) == 1 then redis.call('RENAME', KEYS[6], KEYS[2]) else redis.call('DEL', KEYS[2]) end
if tonumber(ARGV[2]) > 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  redis.call('PEXPIRE', KEYS[2], ARGV[2])
end
return 1`,
  // Lets go of a rebuild's lock (ARGV[1] its token) unless another rebuild holds it by now.
  howlUnlock: `
if redis.call('GET', KEYS[4]) == ARGV[1] then redis.call('DEL', KEYS[4]) end
return 1`,
} as const;

export type Scripts = { [K in keyof typeof SCRIPTS]: (...args: string[]) => Promise<unknown> };

/** How many of a script's arguments are keys: a period's seven (redis-index.ts), and one more for these. */
export const scriptKeys = (name: string) => (name === 'howlReady' || name === 'howlSave' ? 8 : 7);

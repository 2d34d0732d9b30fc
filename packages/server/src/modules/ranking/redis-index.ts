import { randomUUID } from 'node:crypto';
import type { RedisClient } from '../../lib/redis.js';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { behindRedis } from '../../lib/redis-outages.js';
import { hasMetadata } from '../../db/dialect-sql.js';
import { shownBits, shownOf } from './entry-table.js';
import { encode, shownOfMember, storedMember } from './redis-members.js';
import { followsTies, type OrderKey } from './order.js';
import {
  aroundByParts,
  shownOnly,
  sqlRankIndex,
  withReadRows,
  type BoardPeriod,
  type IndexedEntry,
  type RankIndex,
  type ShownRow,
} from './rank-index.js';

const SORTS = ['asc', 'desc'] as const;

/** How long a removed id is remembered: longer than a notice can take to arrive, or a rebuild to run. */
const REMEMBER_REMOVED_MS = 300_000;
/** How long a period is kept after it ends (the one before is still asked about for a while). */
const KEEP_ENDED_MS = 86_400_000;

// Keys of one period and sort: KEYS[1] live sorted set, [2] live id → "revision|member", [3] ids
// removed lately (sorted by when), [4] rebuild lock, [5] and [6] the set and hash a rebuild fills,
// [7] the board's generation. The live set exists only complete: a rebuild fills the other pair
// and renames it into place with the marker (the empty member at -inf), so any member at all
// means ready, and every rank the scripts give skips the marker.
const SCRIPTS = {
  // Saves an entry into the live set and the one being rebuilt, where each exists, unless the
  // notice is stale: an older generation, a removed id, or a revision no newer than the stored one.
  howlSave: `
if tonumber(redis.call('GET', KEYS[7]) or '0') > tonumber(ARGV[5]) then return 0 end
if redis.call('ZSCORE', KEYS[3], ARGV[1]) then return 0 end
local function save(z, rev)
  local old = redis.call('HGET', rev, ARGV[1])
  if old then
    local sep = string.find(old, '|', 1, true)
    if tonumber(string.sub(old, 1, sep - 1)) >= tonumber(ARGV[2]) then return end
    redis.call('ZREM', z, string.sub(old, sep + 1))
  end
  redis.call('ZADD', z, ARGV[3], ARGV[4])
  redis.call('HSET', rev, ARGV[1], ARGV[2] .. '|' .. ARGV[4])
end
if redis.call('EXISTS', KEYS[1]) == 1 then save(KEYS[1], KEYS[2]) end
if ARGV[6] == '1' or redis.call('EXISTS', KEYS[4]) == 1 then save(KEYS[5], KEYS[6]) end
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
  // Puts a rebuilt period in place, unless the board was reset while it was being rebuilt
  // (KEYS[8] is the board's reset count, ARGV[1] its value when the rebuild began).
  howlReady: `
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
} as const;

type Scripts = { [K in keyof typeof SCRIPTS]: (...args: string[]) => Promise<unknown> };

export interface RedisIndexOptions {
  /** Key prefix, so test runs and deployments sharing a Redis stay apart. */
  prefix?: string;
  /** Hears a notice that could not reach Redis (the board is then forgotten, to be rebuilt). */
  onError?: (err: unknown) => void;
}

/**
 * The rank index for several server processes: one Redis sorted set per board period, kept in
 * step by every process's writes and rebuilt from the database by whichever process first needs
 * it (under a lock; SQL answers until it is ready). Every process sees the same ranks; the
 * position of a value is one ZCOUNT, and every other question one script call: one round trip.
 */
export function redisRankIndex(
  db: Kysely<DB>,
  redis: RedisClient,
  options: RedisIndexOptions = {},
): RankIndex & { settled(): Promise<void> } {
  const sql = sqlRankIndex(db);
  const prefix = options.prefix ?? 'howl:rank';
  for (const [name, lua] of Object.entries(SCRIPTS)) {
    const numberOfKeys = name === 'howlReady' ? 8 : 7;
    if (!(name in redis)) redis.defineCommand(name, { numberOfKeys, lua });
  }
  const run = redis as unknown as Scripts;
  // The hash tag keeps a board's keys in one slot: its scripts and pipelines run on one node of a Redis Cluster.
  const boardKey = (boardId: string) => `${prefix}:{${boardId}}`;
  // Writes under way, by board: what a killed process leaves behind for `reconcile`.
  const underWay = `${prefix}:writing`;
  // Each sort has keys of its own, so a set built for the other order (a rebuild racing a change of sort) is never read.
  const keys = (boardId: string, periodStart: number, sort: BoardPeriod['sort']) => {
    const base = `${boardKey(boardId)}:${periodStart}:${sort}`;
    return [`${base}:z`, `${base}:rev`, `${base}:gone`, `${base}:building`, `${base}:z+`, `${base}:rev+`];
  };
  const generationKey = (boardId: string) => `${boardKey(boardId)}:gen`;
  const resetsKey = (boardId: string) => `${boardKey(boardId)}:resets`;
  // Periods with keys, scored by when they may go: what a reset deletes.
  const periodsKey = (boardId: string) => `${boardKey(boardId)}:periods`;
  const periodKeys = (board: BoardPeriod) => [
    ...keys(board.boardId, board.periodStart, board.sort),
    generationKey(board.boardId),
  ];
  const loads = new Set<Promise<void>>();

  function startRebuild(board: BoardPeriod): void {
    const load = rebuild(board)
      .catch(() => undefined) // the next read tries again; SQL keeps answering
      .finally(() => loads.delete(load));
    loads.add(load);
  }

  async function rebuild(board: BoardPeriod): Promise<void> {
    const k = periodKeys(board);
    const [, , , building, next, nextRevisions] = k as [string, string, string, string, string, string, string];
    // One process rebuilds; the others answer from SQL until it is done.
    if ((await redis.set(building, '1', 'EX', 120, 'NX')) !== 'OK') return;
    try {
      const resets = (await redis.get(resetsKey(board.boardId))) ?? '0';
      await redis.del(next, nextRevisions);
      const ttl = board.periodEnd === undefined ? 0 : Math.max(board.periodEnd - Date.now(), 0) + KEEP_ENDED_MS;
      await redis.zadd(
        periodsKey(board.boardId),
        ttl === 0 ? '+inf' : String(Date.now() + ttl),
        String(board.periodStart),
      );
      const rows = await db
        .selectFrom('scores')
        .select(['id', 'score', 'timestamp', 'player_name', 'revision', 'engine', hasMetadata(db).as('has_metadata')])
        .where('leaderboard_id', '=', board.boardId)
        .where('period_start', '=', board.periodStart)
        .execute();
      for (let i = 0; i < rows.length; i += 2000) {
        const batch = redis.pipeline() as unknown as Scripts & { exec(): Promise<unknown> };
        for (const row of rows.slice(i, i + 2000)) {
          const { z } = encode(row, board.sort);
          const member = storedMember(row, board.sort, shownBits(row.has_metadata, row.engine));
          // Generation 2^53: rows read from the database are never stale; a removal still wins.
          void batch.howlSave(...k, row.id, String(row.revision), z, member, String(Number.MAX_SAFE_INTEGER), '1');
        }
        await batch.exec();
      }
      await run.howlReady(...k, resetsKey(board.boardId), resets, String(ttl));
    } finally {
      await redis.del(building);
    }
  }

  /**
   * One round trip: the rank of `key` and, optionally, `limit` members after or above it, as
   * [member, z] pairs flattened. Undefined while not ready.
   */
  async function ask(
    board: BoardPeriod,
    key: OrderKey | undefined,
    limit: number,
    direction: 'after' | 'above' | 'both',
  ) {
    if (!outages.usable(board.boardId)) return undefined;
    const { z, member } = key ? encode(key, board.sort) : { z: '0', member: '' };
    const answer = (await run
      .howlRank(
        ...periodKeys(board),
        z,
        member,
        String(limit),
        direction,
        key && followsTies(key) ? '1' : '0',
        key?.id ?? '',
      )
      .catch(() => undefined)) as number | [number, string[]?, string[]?] | undefined;
    if (answer === undefined) return undefined; // Redis went away meanwhile: SQL answers
    if (answer === -1) {
      startRebuild(board);
      return undefined;
    }
    const [rank, members = [], above = []] = answer as [number, string[]?, string[]?];
    return { rank, members, above };
  }

  /** The rows of [member, z, …] pairs in the order given (`reverse`: the other way), reading only those with metadata. */
  const rowsOf = (board: BoardPeriod, pairs: string[], reverse = false) => {
    const rows: Array<ShownRow | string> = [];
    for (let i = 0; i < pairs.length; i += 2) rows.push(shownOfMember(board, pairs[i]!, pairs[i + 1]!));
    return withReadRows(db, reverse ? rows.reverse() : rows);
  };

  /** Forgets a board's sets (they are rebuilt when next asked for); a rebuild under way will not be put in place. */
  async function forget(boardId: string): Promise<void> {
    await redis.incr(resetsKey(boardId));
    const periods = await redis.zrange(periodsKey(boardId), 0, -1);
    const doomed = periods.flatMap((p) =>
      SORTS.flatMap((sort) => {
        const [z, revisions, , , next, nextRevisions] = keys(boardId, Number(p), sort);
        return [z!, revisions!, next!, nextRevisions!];
      }),
    );
    for (let i = 0; i < doomed.length; i += 500) await redis.del(...doomed.slice(i, i + 500));
    await redis.del(periodsKey(boardId));
  }

  // Boards whose sets missed a notice while Redis was away: SQL answers for them until they are forgotten.
  const outages = behindRedis(redis, forget);

  /** A notice that did not reach Redis leaves the set behind the database: forget the board instead. */
  async function notify(boardId: string, send: () => Promise<unknown>): Promise<void> {
    // Unreachable: no waiting on reconnection attempts; the board is forgotten once Redis is back.
    if (!outages.reachable()) return outages.mark(boardId);
    try {
      await send();
    } catch (err) {
      options.onError?.(err);
      await forget(boardId).catch(() => outages.mark(boardId));
    }
  }

  return {
    async page(board, after, limit) {
      if (limit <= 0) return [];
      const answer = await ask(board, after, limit, 'after');
      return answer ? shownOnly(await rowsOf(board, answer.members)) : sql.page(board, after, limit);
    },
    async above(board, key, limit) {
      if (limit <= 0) return [];
      const answer = await ask(board, key, limit, 'above');
      return answer ? shownOnly(await rowsOf(board, answer.members, true)) : sql.above(board, key, limit);
    },
    async countAbove(board, key) {
      if (followsTies(key)) {
        // A value's position is one plain ZCOUNT: the live set is only ever complete, with its
        // marker at -inf, so a count of 0 means no set yet.
        const z = board.sort === 'desc' ? -key.score : key.score;
        const count = outages.usable(board.boardId)
          ? await redis.zcount(periodKeys(board)[0]!, '-inf', String(z === 0 ? 0 : z)).catch(() => undefined)
          : undefined;
        if (count !== undefined && count > 0) return count - 1;
        if (count !== undefined) startRebuild(board);
        return sql.countAbove(board, key);
      }
      const answer = await ask(board, key, 0, 'after');
      return answer ? answer.rank : sql.countAbove(board, key);
    },
    async around(board, key, count) {
      const answer = await ask(board, key, count, 'both');
      if (!answer) return aroundByParts(sql, board, key, count);
      // Both sides at once (one query at most, for rows with metadata); the split is by count.
      const rows = await rowsOf(board, [...answer.above, ...answer.members]);
      const aboveCount = answer.above.length / 2;
      return {
        countAbove: answer.rank,
        above: shownOnly(rows.slice(0, aboveCount).reverse()),
        below: shownOnly(rows.slice(aboveCount)),
      };
    },
    async saved(board, entry: IndexedEntry) {
      const { z } = encode(entry, board.sort);
      const member = storedMember(entry, board.sort, shownOf(entry));
      await notify(board.boardId, () =>
        run.howlSave(...periodKeys(board), entry.id, String(entry.revision), z, member, String(board.generation), '0'),
      );
    },
    async removed(boardId, entries) {
      const now = Date.now();
      for (const e of entries) {
        for (const sort of SORTS) {
          await notify(boardId, () =>
            run.howlRemove(
              ...keys(boardId, e.period_start, sort),
              generationKey(boardId),
              e.id,
              String(now),
              String(now - REMEMBER_REMOVED_MS),
              String(REMEMBER_REMOVED_MS),
            ),
          );
        }
      }
    },
    async reset(boardId, generation) {
      try {
        if (generation === null) {
          await forget(boardId);
          await redis.del(generationKey(boardId), resetsKey(boardId));
          return;
        }
        // Notices made under an older generation are dropped from now on.
        await redis.eval(
          "if tonumber(redis.call('GET', KEYS[1]) or '-1') < tonumber(ARGV[1]) then redis.call('SET', KEYS[1], ARGV[1]) end",
          1,
          generationKey(boardId),
          String(generation),
        );
        await forget(boardId);
      } catch (err) {
        // The change is in the database already: the board is forgotten once Redis is back.
        options.onError?.(err);
        outages.mark(boardId);
      }
    },
    async track(boardIds, write) {
      const marks = boardIds.map((id) => `${id}\u0000${randomUUID()}`);
      const marked =
        marks.length > 0 &&
        outages.reachable() &&
        (await redis.zadd(underWay, ...marks.flatMap((m) => [String(Date.now()), m])).then(
          () => true,
          () => false,
        ));
      // Unmarked, a write cut off halfway would escape `reconcile`: its boards are forgotten once Redis is back instead.
      if (!marked) for (const id of boardIds) outages.mark(id);
      try {
        return await write();
      } finally {
        if (marked) redis.zrem(underWay, ...marks).catch(() => undefined);
      }
    },
    async reconcile() {
      // Another live process's write may be among these: forgetting its board costs a rebuild, nothing more.
      const marks = await redis.zrange(underWay, 0, -1);
      const boards = new Set(marks.map((m) => m.slice(0, m.indexOf('\u0000'))));
      for (const boardId of boards) await forget(boardId);
      await redis.zremrangebyscore(underWay, '-inf', String(Date.now() - 60_000));
      return boards.size;
    },
    async settled() {
      while (loads.size > 0) await Promise.all([...loads]);
    },
  };
}

import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { ScoreRow } from '../leaderboards/leaderboards.table.js';
import { followsTies, type OrderKey } from '../leaderboards/order.js';
import { sqlRankIndex, type BoardPeriod, type IndexedEntry, type RankIndex } from './rank-index.js';

/**
 * Encodes an entry so that Redis's sorted-set order is the board's total order: the set's score is
 * the game score (negated on `desc` boards, so the best comes first) and ties are broken by the
 * member, compared bytewise: a 16-digit timestamp, the player name (UTF-8 bytes compare in code
 * point order; names hold no control characters, so NUL ends them), then the score id.
 */
export function encode(key: OrderKey, sort: BoardPeriod['sort']): { z: string; member: string } {
  const z = sort === 'desc' ? -key.score : key.score;
  return {
    z: String(z === 0 ? 0 : z),
    member: `${String(key.timestamp).padStart(16, '0')}${key.player_name}\u0000${key.id}`,
  };
}

const SORTS = ['asc', 'desc'] as const;
const idOf = (member: string) => member.slice(member.lastIndexOf('\u0000') + 1);

// Keys of one period and sort: KEYS[1] sorted set, [2] id → "revision|member", [3] ids removed
// during a rebuild, [4] rebuild lock. A rebuilt set holds one marker, the empty member at -inf:
// the set answers only while the marker is there, and every rank the scripts give skips it.
const SCRIPTS = {
  // Saves an entry unless the stored revision is as new; replaces its old member.
  howlSave: `
local old = redis.call('HGET', KEYS[2], ARGV[1])
if old then
  local sep = string.find(old, '|', 1, true)
  if tonumber(string.sub(old, 1, sep - 1)) >= tonumber(ARGV[2]) then return 0 end
  redis.call('ZREM', KEYS[1], string.sub(old, sep + 1))
end
if redis.call('SISMEMBER', KEYS[3], ARGV[1]) == 1 then return 0 end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[4])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2] .. '|' .. ARGV[4])
return 1`,
  // Removes an entry; while a rebuild runs, remembers the id so the rebuild cannot bring it back.
  howlRemove: `
local old = redis.call('HGET', KEYS[2], ARGV[1])
if old then
  redis.call('ZREM', KEYS[1], string.sub(old, string.find(old, '|', 1, true) + 1))
  redis.call('HDEL', KEYS[2], ARGV[1])
end
if redis.call('EXISTS', KEYS[4]) == 1 then
  redis.call('SADD', KEYS[3], ARGV[1])
  redis.call('EXPIRE', KEYS[3], 600)
end
return 1`,
  // The 0-based rank of a key (its own, or where it would go: ARGV[5] '1' when it follows every
  // tie of its score, so a ZCOUNT tells; else added and removed inside the script), and with
  // ARGV[3] > 0 that many members from ARGV[4] ('after' or 'above') of it. -1 when not ready.
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
  own = redis.call('ZSCORE', KEYS[1], member)
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
if ARGV[4] == 'after' then
  local from = r + 1
  if own then from = r + 2 end
  return {r, redis.call('ZRANGE', KEYS[1], from, from + n - 1)}
end
if r == 0 then return {r, {}} end
local from = r - n
if from < 0 then from = 0 end
return {r, redis.call('ZRANGE', KEYS[1], from + 1, r)}`,
  // Members past the first ARGV[1]; -1 when not ready.
  howlTail: `
if not redis.call('ZSCORE', KEYS[1], '') then return -1 end
return redis.call('ZRANGE', KEYS[1], tonumber(ARGV[1]) + 1, -1)`,
  // Marks a rebuilt period ready, unless the board was reset while it was being rebuilt.
  howlReady: `
if (redis.call('GET', KEYS[5]) or '0') ~= ARGV[1] then
  redis.call('DEL', KEYS[1], KEYS[2])
  return 0
end
redis.call('ZADD', KEYS[1], '-inf', '')
return 1`,
} as const;

type Scripts = { [K in keyof typeof SCRIPTS]: (...args: string[]) => Promise<unknown> };

export interface RedisIndexOptions {
  /** Key prefix, so test runs and deployments sharing a Redis stay apart. */
  prefix?: string;
}

/**
 * The rank index for several server processes: one Redis sorted set per board period, kept in
 * step by every process's writes and rebuilt from the database by whichever process first needs
 * it (under a lock; SQL answers until it is ready). Every process sees the same ranks; the
 * position of a value is one ZCOUNT, and every other question one script call: one round trip.
 */
export function redisRankIndex(
  db: Kysely<DB>,
  redis: Redis,
  options: RedisIndexOptions = {},
): RankIndex & { settled(): Promise<void> } {
  const sql = sqlRankIndex(db);
  const prefix = options.prefix ?? 'howl:rank';
  for (const [name, lua] of Object.entries(SCRIPTS)) {
    const numberOfKeys = name === 'howlReady' ? 5 : 4;
    if (!(name in redis)) redis.defineCommand(name, { numberOfKeys, lua });
  }
  const run = redis as unknown as Scripts;
  const boardKey = (boardId: string) => `${prefix}:{${boardId}}`;
  // Each sort has keys of its own, so a set built for the other order (a rebuild racing a change of sort) is never read.
  const keys = (boardId: string, periodStart: number, sort: BoardPeriod['sort']) => {
    const base = `${boardKey(boardId)}:${periodStart}:${sort}`;
    return [`${base}:z`, `${base}:rev`, `${base}:gone`, `${base}:building`];
  };
  const periodKeys = (board: BoardPeriod) => keys(board.boardId, board.periodStart, board.sort);
  const loads = new Set<Promise<void>>();

  function startRebuild(board: BoardPeriod): void {
    const load = rebuild(board)
      .catch(() => undefined) // the next read tries again; SQL keeps answering
      .finally(() => loads.delete(load));
    loads.add(load);
  }

  async function rebuild(board: BoardPeriod): Promise<void> {
    const k = periodKeys(board);
    const [zset, revisions, removed, building] = k as [string, string, string, string];
    // One process rebuilds; the others answer from SQL until it is done.
    if ((await redis.set(building, '1', 'EX', 120, 'NX')) !== 'OK') return;
    try {
      const generation = (await redis.get(`${boardKey(board.boardId)}:gen`)) ?? '0';
      await redis.del(zset, revisions);
      await redis.sadd(`${boardKey(board.boardId)}:periods`, String(board.periodStart));
      const rows = await db
        .selectFrom('scores')
        .select(['id', 'score', 'timestamp', 'player_name', 'revision'])
        .where('leaderboard_id', '=', board.boardId)
        .where('period_start', '=', board.periodStart)
        .execute();
      for (let i = 0; i < rows.length; i += 2000) {
        const batch = redis.pipeline() as unknown as Scripts & { exec(): Promise<unknown> };
        for (const row of rows.slice(i, i + 2000)) {
          const { z, member } = encode(row, board.sort);
          void batch.howlSave(...k, row.id, String(row.revision), z, member);
        }
        await batch.exec();
      }
      await run.howlReady(...k, `${boardKey(board.boardId)}:gen`, generation);
    } finally {
      await redis.del(building, removed);
    }
  }

  /** One round trip: the rank of `key` and, optionally, `limit` members after or above it. Undefined while not ready. */
  async function ask(board: BoardPeriod, key: OrderKey | undefined, limit: number, direction: 'after' | 'above') {
    const { z, member } = key ? encode(key, board.sort) : { z: '0', member: '' };
    const answer = (await run.howlRank(
      ...periodKeys(board),
      z,
      member,
      String(limit),
      direction,
      key && followsTies(key) ? '1' : '0',
    )) as number | [number, string[]?];
    if (answer === -1) {
      startRebuild(board);
      return undefined;
    }
    const [rank, members = []] = answer as [number, string[]?];
    return { rank, members };
  }

  async function hydrate(members: string[]): Promise<ScoreRow[]> {
    if (members.length === 0) return [];
    const ids = members.map(idOf);
    const rows = await db.selectFrom('scores').selectAll().where('id', 'in', ids).execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.map((id) => byId.get(id)).filter((r): r is ScoreRow => r !== undefined);
  }

  return {
    async page(board, after, limit) {
      if (limit <= 0) return [];
      const answer = await ask(board, after, limit, 'after');
      return answer ? hydrate(answer.members) : sql.page(board, after, limit);
    },
    async above(board, key, limit) {
      if (limit <= 0) return [];
      const answer = await ask(board, key, limit, 'above');
      return answer ? hydrate(answer.members.reverse()) : sql.above(board, key, limit);
    },
    async countAbove(board, key) {
      if (followsTies(key)) {
        // A value's position is one plain ZCOUNT; a count of 0 means no marker: not ready.
        const z = board.sort === 'desc' ? -key.score : key.score;
        const zset = `${boardKey(board.boardId)}:${board.periodStart}:${board.sort}:z`;
        const count = await redis.zcount(zset, '-inf', String(z === 0 ? 0 : z));
        if (count > 0) return count - 1;
        startRebuild(board);
        return sql.countAbove(board, key);
      }
      const answer = await ask(board, key, 0, 'after');
      return answer ? answer.rank : sql.countAbove(board, key);
    },
    async overflow(board, keep) {
      const members = (await run.howlTail(...periodKeys(board), String(keep))) as string[] | number;
      if (members === -1) {
        startRebuild(board);
        return sql.overflow(board, keep);
      }
      return (members as string[]).map(idOf);
    },
    async saved(board, entry: IndexedEntry) {
      const { z, member } = encode(entry, board.sort);
      await run.howlSave(...periodKeys(board), entry.id, String(entry.revision), z, member);
    },
    async removed(boardId, entries) {
      for (const e of entries) {
        for (const sort of SORTS) await run.howlRemove(...keys(boardId, e.period_start, sort), e.id);
      }
    },
    async reset(boardId) {
      // A new generation stops any rebuild under way from marking its (older) data ready.
      await redis.incr(`${boardKey(boardId)}:gen`);
      const periods = await redis.smembers(`${boardKey(boardId)}:periods`);
      const doomed = periods.flatMap((p) => SORTS.flatMap((sort) => keys(boardId, Number(p), sort).slice(0, 3)));
      if (doomed.length > 0) await redis.del(...doomed);
      await redis.del(`${boardKey(boardId)}:periods`);
    },
    async settled() {
      while (loads.size > 0) await Promise.all([...loads]);
    },
  };
}

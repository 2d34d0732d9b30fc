import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll } from 'vitest';
import type { Database, Dialect } from '../../src/db/database.js';
import type { RedisClient } from '../../src/lib/redis.js';
import type { DB } from '../../src/db/schema.js';
import { memoryRankIndex } from '../../src/modules/ranking/memory-index.js';
import { sqlRankIndex, type BoardPeriod, type RankIndex } from '../../src/modules/ranking/rank-index.js';
import { redisRankIndex } from '../../src/modules/ranking/redis-index.js';
import { withTopRows } from '../../src/modules/ranking/top-rows.js';
import { CLUSTER_SKIP, useRedisCluster } from './redis-cluster.js';
import { REDIS_SKIP, services } from './services.js';

type TestedIndex = RankIndex & { settled?(): Promise<void> };
let redis: Redis | undefined;
let cluster: RedisClient | undefined;

interface IndexVariant {
  name: string;
  skip: string | false;
  /** The dialects it runs on, when not all (a variant whose database side others already cover). */
  dialects?: Dialect[];
  create(database: Database): TestedIndex;
}

/** Every RankIndex implementation; each must pass the property suites unchanged. `settled` waits for background loads. */
export const RANK_INDEXES: IndexVariant[] = [
  { name: 'sql', skip: false, create: (database) => sqlRankIndex(database.db) },
  { name: 'memory', skip: false, create: (database) => memoryRankIndex(database.db, { rows: database.rows }) },
  {
    name: 'memory, reading rows as objects',
    skip: false,
    create: (database) => memoryRankIndex(database.db, { chunk: 3 }),
  },
  { name: 'memory, loaded afresh after every step in chunks of 2', skip: false, create: reloadingMemoryIndex },
  // Four rows: boards outgrow them, so entries leave, enter and refill them; `max=3` pages come from them.
  {
    name: 'memory with its top 4 rows kept',
    skip: false,
    create: (database) => withTopRows(memoryRankIndex(database.db, { rows: database.rows }), { rows: 4 }),
  },
  { name: 'sql with its top 101 rows kept', skip: false, create: (database) => withTopRows(sqlRankIndex(database.db)) },
  {
    name: 'redis',
    skip: REDIS_SKIP,
    create: ({ db }) => {
      redis ??= new Redis(services.redisUrl!);
      return redisRankIndex(db, redis, { prefix: `howl-test:${randomUUID()}` });
    },
  },
  // As the app runs it: in one process, other processes' notices (leaderboards-top-rows-shared.test.ts) play no part.
  {
    name: 'redis with its top 4 rows kept',
    skip: REDIS_SKIP,
    dialects: ['postgres'],
    create: ({ db }) => {
      redis ??= new Redis(services.redisUrl!);
      return withTopRows(redisRankIndex(db, redis, { prefix: `howl-test:${randomUUID()}` }), { rows: 4 });
    },
  },
  // The same scripts on three masters: each board's keys share a hash tag, so every call stays in one slot.
  {
    name: 'redis cluster',
    skip: CLUSTER_SKIP,
    dialects: ['sqlite'],
    create: ({ db }) => {
      if (!cluster) throw new Error('call useRankIndexCluster() at the top of the test file');
      return redisRankIndex(db, cluster, { prefix: `howl-test:${randomUUID()}` });
    },
  },
];

/** Why `index` is skipped on `dialect`, if it is. */
export function indexSkip(index: IndexVariant, dialect: Dialect): string | false {
  return (
    index.skip || (index.dialects && !index.dialects.includes(dialect) ? `runs on ${index.dialects.join(', ')}` : false)
  );
}

/** Starts the Redis Cluster of the `redis cluster` variant for this test file (call it at the file's top). */
export function useRankIndexCluster(): void {
  const started = useRedisCluster();
  beforeAll(async () => {
    if (!CLUSTER_SKIP) cluster = await started().connect();
  });
  afterAll(async () => {
    await cluster?.quit();
    cluster = undefined;
  });
}

afterAll(async () => {
  await redis?.quit();
});

/** A memory index thrown away and loaded cold from the database at every `settled`: every state goes through a load. */
function reloadingMemoryIndex({ db, rows }: Database): TestedIndex {
  let current = memoryRankIndex(db, { chunk: 2, rows });
  const boards = new Map<string, BoardPeriod>();
  const seen = (board: BoardPeriod) => boards.set(`${board.boardId}/${board.periodStart}`, board);
  const anyKey = { score: 0, timestamp: 0, player_name: '', id: '' };
  return {
    page: (board, after, limit) => (seen(board), current.page(board, after, limit)),
    above: (board, key, limit) => (seen(board), current.above(board, key, limit)),
    countAbove: (board, key) => (seen(board), current.countAbove(board, key)),
    around: (board, key, count) => (seen(board), current.around(board, key, count)),
    keyOf: (board, id) => (seen(board), current.keyOf(board, id)),
    saved: (board, entry) => current.saved(board, entry),
    removed: (boardId, entries) => current.removed(boardId, entries),
    reset: (boardId, generation) => current.reset(boardId, generation),
    track: (boardIds, run) => current.track(boardIds, run),
    reconcile: () => current.reconcile(),
    async settled() {
      current = memoryRankIndex(db, { chunk: 2, rows });
      for (const board of boards.values()) await current.countAbove(board, anyKey);
      await current.settled();
    },
  };
}

/** A board's settings for tests: every entry kept, best first, never reset, no size limit. */
export const keepAllBoard = (name: string) => ({
  name,
  insert_option: 'keep' as const,
  sort: 'desc' as const,
  max_entries: null,
  time_based: 'na' as const,
  timezone: null,
});

/** A developer account row, the owner games need, written straight into the database. */
export async function insertDeveloperRow(db: Kysely<DB>, id: string): Promise<void> {
  await db
    .insertInto('identity_users')
    .values({
      id,
      pool_id: 'developers',
      username: `${id}@example.com`,
      email: null,
      password_hash: 'x',
      status: 'CONFIRMED',
      enabled: 1,
      created_at: 0,
      updated_at: 0,
    })
    .execute();
}

/** A developer `owner`, a game `game` and a board of it with this id, written straight into the database. */
export async function insertBoardRows(db: Kysely<DB>, boardId: string): Promise<void> {
  await insertDeveloperRow(db, 'owner');
  await db
    .insertInto('games')
    .values({ id: 'game', owner_id: 'owner', name: 'g', api_key: 'k', created_at: 0 })
    .execute();
  await insertBoardRow(db, boardId, 'na');
}

/** Another board of the game `insertBoardRows` wrote: best first, every entry kept, `latest` saves. */
export async function insertBoardRow(db: Kysely<DB>, boardId: string, timeBased: 'na' | 'weekly'): Promise<void> {
  await db
    .insertInto('leaderboards')
    .values({
      id: boardId,
      game_id: 'game',
      name: boardId,
      display_name: boardId,
      insert_option: 'latest',
      time_based: timeBased,
      timezone: null,
      max_entries: null,
      sort: 'desc',
      created_at: 0,
    })
    .execute();
}

import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import { afterAll } from 'vitest';
import type { Database } from '../../src/db/database.js';
import type { DB } from '../../src/db/schema.js';
import { memoryRankIndex } from '../../src/modules/ranking/memory-index.js';
import { sqlRankIndex, type BoardPeriod, type RankIndex } from '../../src/modules/ranking/rank-index.js';
import { redisRankIndex } from '../../src/modules/ranking/redis-index.js';
import { withTopRows } from '../../src/modules/ranking/top-rows.js';
import { REDIS_SKIP, services } from './services.js';

type TestedIndex = RankIndex & { settled?(): Promise<void> };
let redis: Redis | undefined;

/** Every RankIndex implementation; each must pass the property suites unchanged. `settled` waits for background loads. */
export const RANK_INDEXES: Array<{ name: string; skip: string | false; create(database: Database): TestedIndex }> = [
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
];

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

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../../test/support/database.js';
import { insertDeveloperRow } from '../../../test/support/rank-indexes.js';
import { DIALECTS } from '../../../test/support/services.js';
import { memoryRankIndex } from './memory-index.js';

const board = { boardId: 'board', periodStart: 0, sort: 'desc' as const, generation: 0 };
const top = { score: Number.MAX_VALUE, timestamp: 0, player_name: '', id: '' };
const entry = (id: string, score: number, revision: number) => ({
  id,
  score,
  timestamp: 1,
  player_name: `p-${id}`,
  revision,
});

for (const { dialect, skip } of DIALECTS) {
  describe.skipIf(skip)(`${dialect}: memory rank index upkeep`, () => {
    let database: Awaited<ReturnType<typeof openTestDatabase>>;
    beforeAll(async () => {
      database = await openTestDatabase(dialect);
      const db = database.db;
      await insertDeveloperRow(db, 'owner');
      await db
        .insertInto('games')
        .values({ id: 'game', owner_id: 'owner', name: 'g', api_key: 'k', created_at: 0 })
        .execute();
      await db
        .insertInto('leaderboards')
        .values({
          id: 'board',
          game_id: 'game',
          name: 'b',
          display_name: 'b',
          insert_option: 'latest',
          time_based: 'na',
          timezone: null,
          max_entries: null,
          sort: 'desc',
          created_at: 0,
        })
        .execute();
      const rows = [entry('a', 10, 3), entry('b', 20, 0), entry('c', 30, 0)];
      await db
        .insertInto('scores')
        .values(
          rows.map((r) => ({
            ...r,
            leaderboard_id: 'board',
            period_start: 0,
            player_key: r.id,
            metadata: null,
            engine: null,
          })),
        )
        .execute();
    });
    afterAll(() => database?.close());

    it('ignores a notification older than the state it holds, whether it arrives during the load or after', async () => {
      const index = memoryRankIndex(database.db, { chunk: 1, rows: database.rows });
      expect(await index.countAbove(board, entry('a', 10, 3))).toBe(2); // SQL, while the load starts
      // Arrives while loading: the rows read hold revision 3, so this stale state must not win.
      await index.saved(board, entry('a', 99, 2));
      await index.settled();
      expect(index.entries()).toBe(3);
      expect(await index.countAbove(board, entry('a', 10, 3))).toBe(2);
      expect(await index.countAbove(board, { ...top, score: 99 })).toBe(0);

      await index.saved(board, entry('b', 5, 2));
      await index.saved(board, entry('b', 40, 1)); // late
      expect(await index.countAbove(board, entry('b', 5, 2))).toBe(2);
      expect((await index.page(board, undefined, 10)).map((r) => r.id)).toEqual(['c', 'a', 'b']);

      await index.removed('board', [{ ...entry('c', 30, 0), period_start: 0 }]);
      expect(index.entries()).toBe(2);
      expect((await index.page(board, undefined, 10)).map((r) => r.id)).toEqual(['a', 'b']);
    });
  });
}

import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../../test/support/database.js';
import { insertDeveloperRow, keepAllBoard } from '../../../test/support/rank-indexes.js';
import { DIALECTS, REDIS_SKIP, services } from '../../../test/support/services.js';
import { manualClock } from '../../lib/clock.js';
import { memoryRankIndex } from '../ranking/memory-index.js';
import { sqlRankIndex, type RankIndex } from '../ranking/rank-index.js';
import { redisRankIndex } from '../ranking/redis-index.js';
import { withTopRows } from '../ranking/top-rows.js';
import { createLeaderboards } from './service.js';

// A client may name a score's id (SilentWolf's save_score, an import), so a deleted score's id can
// be saved again. The indexes remember removed ids to turn away late notices; a notice of the id
// saved again must not be turned away, or the entry stays off the board while the database holds it.
const INDEXES = [
  { index: 'memory', skip: false },
  { index: 'redis', skip: REDIS_SKIP },
] as const;

for (const { dialect, skip } of DIALECTS) {
  for (const { index: kind, skip: noIndex } of INDEXES) {
    describe.skipIf(skip || noIndex)(`${dialect} + ${kind} index: a deleted score's id saved again`, () => {
      const clock = manualClock(Date.UTC(2026, 10, 1));
      let database: Awaited<ReturnType<typeof openTestDatabase>>;
      let redis: Redis | undefined;
      const prefix = `howl-test:${randomUUID()}`;
      let service: ReturnType<typeof createLeaderboards>;
      let truth: ReturnType<typeof createLeaderboards>;

      beforeAll(async () => {
        database = await openTestDatabase(dialect);
        await insertDeveloperRow(database.db, 'owner');
        await database.db
          .insertInto('games')
          .values({ id: 'game', owner_id: 'owner', name: 'g', api_key: 'k', created_at: 0 })
          .execute();
        let index: RankIndex;
        if (kind === 'redis') {
          redis = new Redis(services.redisUrl!);
          index = redisRankIndex(database.db, redis, { prefix });
        } else {
          index = memoryRankIndex(database.db, { rows: database.rows });
        }
        service = createLeaderboards({ db: database.db, clock, rankIndex: withTopRows(index) });
        truth = createLeaderboards({ db: database.db, clock, rankIndex: sqlRankIndex(database.db) });
        await service.create('game', keepAllBoard('b'));
      });
      afterAll(async () => {
        await redis?.quit();
        await database?.close();
      });

      const board = async (of = service) =>
        (await of.scores('game', 'b', { max: 0, period_offset: 0 })).scores.map((s) => [s.player_name, s.score]);
      /** Reads until the index answers as the database does: a Redis set builds in the background. */
      const settledBoard = async () => {
        for (let tries = 0; tries < 100; tries++) {
          const [shown, stored] = [await board(), await board(truth)];
          if (JSON.stringify(shown) === JSON.stringify(stored)) return shown;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        return board();
      };

      it('shows the entry and ranks it, as the database holds it', async () => {
        const id = randomUUID();
        for (const [name, score] of [
          ['first', 30],
          ['third', 10],
        ] as const) {
          clock.advance(1);
          await service.submit('game', 'b', { player_name: name, score }, null);
        }
        expect(await settledBoard()).toEqual([
          ['first', 30],
          ['third', 10],
        ]);

        clock.advance(1);
        expect((await service.submit('game', 'b', { player_name: 'named', score: 5, score_id: id }, 4)).score_id).toBe(
          id,
        );
        await service.deleteScore('game', id);
        // With Redis, the removal is remembered under both orders of the board's period.
        const goneKeys = redis ? await redis.keys(`${prefix}:*:gone`) : [];
        expect(goneKeys).toHaveLength(redis ? 2 : 0);
        for (const key of goneKeys) expect(await redis!.zscore(key, id), key).not.toBeNull();
        clock.advance(1);
        const again = await service.submit('game', 'b', { player_name: 'again', score: 20, score_id: id }, 4);
        expect(again).toEqual({ score_id: id, position: 2, kept: true });

        const expected = [
          ['first', 30],
          ['again', 20],
          ['third', 10],
        ];
        expect(await board(truth)).toEqual(expected);
        expect(await board()).toEqual(expected);
        expect((await service.position('game', 'b', { score_id: id, period_offset: 0 })).position).toBe(2);
        // With Redis, its removal is forgotten under both orders, so a rebuild after a change of order keeps it.
        for (const key of goneKeys) expect(await redis!.zscore(key, id), key).toBeNull();
        const near = await service.around('game', 'b', { score: 15, count: 3, period_offset: 0 });
        expect([near.scores_above, near.scores_below].map((side) => side.map((s) => s.player_name))).toEqual([
          ['first', 'again'],
          ['third'],
        ]);
      });
    });
  }
}

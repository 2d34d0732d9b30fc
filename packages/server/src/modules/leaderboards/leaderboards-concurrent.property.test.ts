import { insertOptions, type CreateLeaderboardBody, type InsertOption, type SortOrder } from '@howl/contract';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../../test/support/database.js';
import {
  indexSkip,
  insertDeveloperRow,
  RANK_INDEXES,
  useRankIndexCluster,
} from '../../../test/support/rank-indexes.js';
import { DIALECTS } from '../../../test/support/services.js';
import { manualClock } from '../../lib/clock.js';
import { sqlRankIndex } from '../ranking/rank-index.js';
import { createLeaderboards } from './service.js';

const PLAYERS = ['a', 'b', 'B', 'é', '😀', 'ab'];
const SCORES = [-1.5, 0, 1, 2, 2.5];

type ConcurrentOp =
  | { kind: 'save'; player: string; score: number; metadata?: { n: number }; engine: 3 | 4 | null }
  | { kind: 'delete'; pick: number }
  | { kind: 'wipe' }
  | { kind: 'mode'; mode: InsertOption }
  | { kind: 'rebuild' };

const concurrentOp: fc.Arbitrary<ConcurrentOp> = fc.oneof(
  {
    weight: 10,
    arbitrary: fc.record(
      {
        kind: fc.constant('save' as const),
        player: fc.constantFrom(...PLAYERS),
        score: fc.constantFrom(...SCORES),
        // Rows without metadata are shown from the index, the others read: both must follow the writes.
        metadata: fc.constantFrom(undefined, { n: 1 }, { n: 2 }),
        engine: fc.constantFrom<3 | 4 | null>(null, 3, 4),
      },
      { requiredKeys: ['kind', 'player', 'score', 'engine'] },
    ),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'wipe' as const }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('mode' as const), mode: fc.constantFrom<InsertOption>(...insertOptions) }),
  },
  { weight: 1, arbitrary: fc.constant({ kind: 'rebuild' as const }) },
);

// Issue 14: races between writes lost scores and left indexes out of step. Here every batch of
// operations runs at once (interleaved promises; several connections on PostgreSQL), and after
// each batch the index must answer exactly what SQL over the database answers.
useRankIndexCluster();

for (const { dialect, skip } of DIALECTS) {
  for (const index of RANK_INDEXES.filter((i) => !i.name.startsWith('memory, '))) {
    describe.skipIf(skip || indexSkip(index, dialect))(
      `${dialect}: concurrent writes keep the ${index.name} rank index equal to the database`,
      () => {
        let database: Awaited<ReturnType<typeof openTestDatabase>>;
        let runs = 0;
        beforeAll(async () => {
          database = await openTestDatabase(dialect);
          await insertDeveloperRow(database.db, 'race-owner');
        });
        afterAll(() => database?.close());

        it('agrees with SQL after every batch of saves, deletes, wipes, trims, mode changes and rebuilds run at once', async () => {
          await fc.assert(
            fc.asyncProperty(
              fc.record({
                mode: fc.constantFrom<InsertOption>(...insertOptions),
                sort: fc.constantFrom<SortOrder>('desc', 'asc'),
                maxEntries: fc.constantFrom<number | null>(3, 5, null),
              }),
              fc.array(fc.array(concurrentOp, { minLength: 2, maxLength: 12 }), { minLength: 1, maxLength: 4 }),
              async (config, batches) => {
                const gameId = `race-game-${runs++}`;
                await database.db
                  .insertInto('games')
                  .values({ id: gameId, owner_id: 'race-owner', name: gameId, api_key: `key-${gameId}`, created_at: 0 })
                  .execute();
                const clock = manualClock(Date.UTC(2026, 2, 29, 0, 10));
                const rankIndex = index.create(database);
                const service = createLeaderboards({ db: database.db, clock, rankIndex });
                const truth = createLeaderboards({
                  db: database.db,
                  clock,
                  rankIndex: sqlRankIndex(database.db),
                });
                await service.create(gameId, {
                  name: 'b',
                  insert_option: config.mode,
                  sort: config.sort,
                  // Smaller than the site offers, so that saves trim often.
                  max_entries: config.maxEntries as CreateLeaderboardBody['max_entries'],
                  time_based: 'na',
                  timezone: null,
                });
                for (const batch of batches) {
                  const ids = (await truth.scores(gameId, 'b', { max: 0, period_offset: 0 })).scores.map(
                    (s) => s.score_id,
                  );
                  await Promise.all(
                    batch.map(async (step) => {
                      clock.advance(1);
                      if (step.kind === 'save')
                        await service.submit(
                          gameId,
                          'b',
                          { player_name: step.player, score: step.score, metadata: step.metadata },
                          step.engine,
                        );
                      else if (step.kind === 'delete') {
                        if (ids.length > 0) await service.deleteScores(gameId, [ids[step.pick % ids.length]!]);
                      } else if (step.kind === 'wipe') await service.wipe(gameId, 'b');
                      else if (step.kind === 'mode') await service.update(gameId, 'b', { insert_option: step.mode });
                      else {
                        const board = await database.db
                          .selectFrom('leaderboards')
                          .select(['id', 'generation'])
                          .where('game_id', '=', gameId)
                          .executeTakeFirstOrThrow();
                        await rankIndex.reset(board.id, board.generation);
                      }
                    }),
                  );
                  await service.scores(gameId, 'b', { max: 1, period_offset: 0 });
                  await rankIndex.settled?.();
                  const expected = await truth.scores(gameId, 'b', { max: 0, period_offset: 0 });
                  expect((await service.scores(gameId, 'b', { max: 0, period_offset: 0 })).scores).toEqual(
                    expected.scores,
                  );
                  // A top page smaller than the board, which an index keeping top rows answers from them.
                  expect((await service.scores(gameId, 'b', { max: 3, period_offset: 0 })).scores).toEqual(
                    expected.scores.slice(0, 3),
                  );
                  const board = (await truth.list(gameId))[0]!;
                  if (config.maxEntries !== null) expect(expected.scores.length).toBeLessThanOrEqual(config.maxEntries);
                  if (board.insert_option !== 'keep') {
                    const names = expected.scores.map((s) => s.player_name);
                    expect(new Set(names).size).toBe(names.length);
                  }
                  for (const s of expected.scores) {
                    expect(
                      (await service.position(gameId, 'b', { score_id: s.score_id, period_offset: 0 })).position,
                    ).toBe(s.position);
                  }
                  for (const value of [-1.5, 1, 2.5]) {
                    expect(await service.position(gameId, 'b', { score: value, period_offset: 0 })).toEqual(
                      await truth.position(gameId, 'b', { score: value, period_offset: 0 }),
                    );
                  }
                }
              },
            ),
            { numRuns: dialect === 'sqlite' ? 40 : 25 },
          );
        }, 240_000);
      },
    );
  }
}

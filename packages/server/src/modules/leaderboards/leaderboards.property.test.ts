import { insertOptions, type InsertOption, type ScoreEntry, type SortOrder } from '@howl/contract';
import type { Kysely } from 'kysely';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../../test/support/database.js';
import { LeaderboardModel } from '../../../test/support/leaderboard-model.js';
import {
  indexSkip,
  insertDeveloperRow,
  RANK_INDEXES,
  useRankIndexCluster,
} from '../../../test/support/rank-indexes.js';
import { DIALECTS } from '../../../test/support/services.js';
import { manualClock } from '../../lib/clock.js';
import type { DB } from '../../db/schema.js';
import { toEntry } from './format.js';
import { periodAt } from './periods.js';
import { createLeaderboards } from './service.js';

const PLAYERS = ['a', 'b', 'B', 'é', '😀', 'ab'];
const SCORES = [-1.5, 0, 1, 2, 2.5];
const HOUR = 3_600_000;

type Op =
  | { kind: 'save'; player: string; score: number; advance: number; metadata?: { n: number }; engine: 3 | 4 | null }
  | { kind: 'delete'; pick: number }
  | { kind: 'wipe' };

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record(
      {
        kind: fc.constant('save' as const),
        player: fc.constantFrom(...PLAYERS),
        score: fc.constantFrom(...SCORES),
        advance: fc.constantFrom(0, 0, 1, 7, HOUR / 2),
        // What an answer shows besides the order: an index shows a row without metadata from its own memory.
        metadata: fc.constantFrom(undefined, undefined, { n: 1 }, { n: 2 }),
        engine: fc.constantFrom<3 | 4 | null>(null, 3, 4),
      },
      { requiredKeys: ['kind', 'player', 'score', 'advance', 'engine'] },
    ),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'wipe' as const }) },
);

const boardArb = fc.record({
  mode: fc.constantFrom<InsertOption>(...insertOptions),
  sort: fc.constantFrom<SortOrder>('desc', 'asc'),
  maxEntries: fc.constantFrom<10 | 20 | null>(10, 20, null),
  hourly: fc.boolean(),
});

useRankIndexCluster();

for (const { dialect, skip } of DIALECTS) {
  for (const index of RANK_INDEXES) {
    describe.skipIf(skip || indexSkip(index, dialect))(
      `${dialect}: leaderboard semantics against the reference model (${index.name} rank index)`,
      () => {
        let database: Awaited<ReturnType<typeof openTestDatabase>>;
        let ownerId: string;
        let runs = 0;
        beforeAll(async () => {
          database = await openTestDatabase(dialect);
          ownerId = 'model-owner';
          await insertDeveloperRow(database.db, ownerId);
        });
        afterAll(() => database?.close());

        it('answers every query as the model does, after every save, delete and wipe', async () => {
          await fc.assert(
            fc.asyncProperty(boardArb, fc.array(op, { minLength: 1, maxLength: 28 }), async (config, ops) => {
              const gameId = `model-game-${runs++}`;
              await database.db
                .insertInto('games')
                .values({ id: gameId, owner_id: ownerId, name: gameId, api_key: `key-${gameId}`, created_at: 0 })
                .execute();
              // Kolkata's half-hour offset puts hour boundaries at :30 UTC.
              const clock = manualClock(Date.UTC(2026, 2, 29, 0, 10));
              const rankIndex = index.create(database);
              const service = createLeaderboards({ db: database.db, clock, rankIndex });
              await service.create(gameId, {
                name: 'b',
                insert_option: config.mode,
                sort: config.sort,
                max_entries: config.maxEntries,
                time_based: config.hourly ? 'hourly' : 'na',
                timezone: config.hourly ? 'Asia/Kolkata' : null,
              });
              const model = new LeaderboardModel({
                mode: config.mode,
                sort: config.sort,
                maxEntries: config.maxEntries,
              });
              const periodStart = (offset = 0) =>
                config.hourly ? periodAt('hourly', 'Asia/Kolkata', clock.now(), offset).start : 0;

              for (const step of ops) {
                if (step.kind === 'save') {
                  clock.advance(step.advance);
                  const answer = await service.submit(
                    gameId,
                    'b',
                    { player_name: step.player, score: step.score, metadata: step.metadata },
                    step.engine,
                  );
                  const expected = model.save({
                    period: periodStart(),
                    player: step.player,
                    score: step.score,
                    now: clock.now(),
                    id: answer.score_id,
                  });
                  expect(answer).toEqual(expected);
                } else if (step.kind === 'delete') {
                  if (model.entries.length === 0) continue;
                  const victim = model.entries[step.pick % model.entries.length]!;
                  expect(await service.deleteScores(gameId, [victim.id])).toBe(1);
                  model.delete(victim.id);
                } else {
                  await service.wipe(gameId, 'b');
                  model.wipe();
                }
                // Ask once so an index that loads in the background starts, and wait for it: the
                // comparisons must see the index's own answers, not its SQL fallback.
                for (const offset of config.hourly ? [0, -1] : [0]) {
                  await service.scores(gameId, 'b', { max: 1, period_offset: offset });
                }
                await rankIndex.settled?.();
                await compare(service, model, gameId, config, periodStart, database.db);
              }
            }),
            { numRuns: dialect === 'sqlite' ? 60 : 30 },
          );
        }, 240_000);
      },
    );
  }
}

async function compare(
  service: ReturnType<typeof createLeaderboards>,
  model: LeaderboardModel,
  gameId: string,
  config: { hourly: boolean; maxEntries: number | null; sort: SortOrder },
  periodStart: (offset?: number) => number,
  db: Kysely<DB>,
) {
  // Every entry shown carries its stored row's metadata and engine, whatever the index answered from.
  const shownAsStored = async (entries: ScoreEntry[]) => {
    const rows = await db
      .selectFrom('scores')
      .selectAll()
      .where('id', 'in', ['', ...entries.map((e) => e.score_id)])
      .execute();
    const stored = new Map(rows.map((r) => [r.id, toEntry(r, 0)]));
    expect(entries.map((e) => [e.score_id, e.metadata, e.engine])).toEqual(
      entries.map((e) => [e.score_id, stored.get(e.score_id)?.metadata, stored.get(e.score_id)?.engine]),
    );
  };
  for (const offset of config.hourly ? [0, -1] : [0]) {
    const expected = model.ranked(periodStart(offset));
    const view = (
      e: { id?: string; score_id?: string; score: number; player_name: string; timestamp: number },
      i: number,
    ) => ({
      id: e.score_id ?? e.id,
      score: e.score,
      player_name: e.player_name,
      timestamp: e.timestamp,
      position: i + 1,
    });
    const all = await service.scores(gameId, 'b', { max: 0, period_offset: offset });
    expect(all.scores.map((s) => view(s, s.position - 1))).toEqual(expected.map(view));
    await shownAsStored(all.scores);

    // Pages of 3, walked by cursor, add up to the whole board.
    const walked: typeof all.scores = [];
    let cursor: string | undefined;
    do {
      const page = await service.scores(gameId, 'b', { max: 3, period_offset: offset, cursor });
      walked.push(...page.scores);
      cursor = page.cursor ?? undefined;
    } while (cursor);
    expect(walked).toEqual(all.scores);

    for (const [i, entry] of expected.entries()) {
      expect((await service.position(gameId, 'b', { score_id: entry.id, period_offset: offset })).position).toBe(i + 1);
    }
    for (const value of [-1.5, 1, 2, 3]) {
      const p = model.positionForScore(periodStart(offset), value);
      const onBoard = config.maxEntries === null || p <= config.maxEntries;
      expect((await service.position(gameId, 'b', { score: value, period_offset: offset })).position).toBe(
        onBoard ? p : null,
      );
      const around = await service.around(gameId, 'b', { score: value, count: 2, period_offset: offset });
      await shownAsStored([...around.scores_above, ...around.scores_below]);
      expect(around.scores_above.map((s) => s.score_id)).toEqual(
        expected.slice(Math.max(0, p - 3), p - 1).map((e) => e.id),
      );
      // Below a value that would land at p, entries would stand at p + 1, p + 2: only those within the limit.
      const belowEnd = Math.min(p + 1, (config.maxEntries ?? Infinity) - 1);
      expect(around.scores_below.map((s) => s.score_id)).toEqual(
        onBoard ? expected.slice(p - 1, belowEnd).map((e) => e.id) : [],
      );
    }
    const middle = expected[Math.floor(expected.length / 2)];
    if (middle) {
      const p = expected.indexOf(middle) + 1;
      const around = await service.around(gameId, 'b', { score_id: middle.id, count: 2, period_offset: offset });
      await shownAsStored([...around.scores_above, ...around.scores_below]);
      expect(around.position).toBe(p);
      expect(around.scores_above.map((s) => [s.score_id, s.position])).toEqual(
        expected.slice(Math.max(0, p - 3), p - 1).map((e) => [e.id, expected.indexOf(e) + 1]),
      );
      expect(around.scores_below.map((s) => [s.score_id, s.position])).toEqual(
        expected.slice(p, p + 2).map((e) => [e.id, expected.indexOf(e) + 1]),
      );
    }
    for (const player of PLAYERS) {
      const mine = expected.filter((e) => e.player_name === player);
      const scores = await service.playerScores(gameId, 'b', player, { max: 10, period_offset: offset });
      expect(scores.scores.map((s) => [s.score_id, s.position])).toEqual(
        mine.slice(0, 10).map((e) => [e.id, expected.indexOf(e) + 1]),
      );
      const top = await service.playerTop(gameId, 'b', player, { period_offset: offset });
      expect(top.score?.score_id ?? null).toBe(mine[0]?.id ?? null);
    }
  }
}

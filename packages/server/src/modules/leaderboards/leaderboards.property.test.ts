import { insertOptions, type CreateLeaderboardBody, type InsertOption, type SortOrder } from '@howl/contract';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../../test/support/database.js';
import { LeaderboardModel } from '../../../test/support/leaderboard-model.js';
import { DIALECTS, REDIS_SKIP, services } from '../../../test/support/services.js';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { redisRankIndex } from '../ranking/redis-index.js';
import type { Database } from '../../db/database.js';
import { manualClock } from '../../lib/clock.js';
import { periodAt } from './periods.js';
import { memoryRankIndex } from '../ranking/memory-index.js';
import { sqlRankIndex, type BoardPeriod, type RankIndex } from '../ranking/rank-index.js';
import { createLeaderboards } from './service.js';

type TestedIndex = RankIndex & { settled?(): Promise<void> };
let redis: Redis | undefined;

/** Every RankIndex implementation must pass this suite unchanged. `settled` waits for background loads. */
export const RANK_INDEXES: Array<{ name: string; skip: string | false; create(database: Database): TestedIndex }> = [
  { name: 'sql', skip: false, create: (database) => sqlRankIndex(database.db) },
  { name: 'memory', skip: false, create: (database) => memoryRankIndex(database.db, { rows: database.rows }) },
  {
    name: 'memory, reading rows as objects',
    skip: false,
    create: (database) => memoryRankIndex(database.db, { chunk: 3 }),
  },
  { name: 'memory, loaded afresh after every step in chunks of 2', skip: false, create: reloadingMemoryIndex },
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

const PLAYERS = ['a', 'b', 'B', 'é', '😀', 'ab'];
const SCORES = [-1.5, 0, 1, 2, 2.5];
const HOUR = 3_600_000;

type Op =
  | { kind: 'save'; player: string; score: number; advance: number }
  | { kind: 'delete'; pick: number }
  | { kind: 'wipe' };

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constant('save' as const),
      player: fc.constantFrom(...PLAYERS),
      score: fc.constantFrom(...SCORES),
      advance: fc.constantFrom(0, 0, 1, 7, HOUR / 2),
    }),
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

for (const { dialect, skip } of DIALECTS) {
  for (const index of RANK_INDEXES) {
    describe.skipIf(skip || index.skip)(
      `${dialect}: leaderboard semantics against the reference model (${index.name} rank index)`,
      () => {
        let database: Awaited<ReturnType<typeof openTestDatabase>>;
        let ownerId: string;
        let runs = 0;
        beforeAll(async () => {
          database = await openTestDatabase(dialect);
          ownerId = 'model-owner';
          await database.db
            .insertInto('identity_users')
            .values({
              id: ownerId,
              pool_id: 'developers',
              username: 'model@example.com',
              email: null,
              password_hash: 'x',
              status: 'CONFIRMED',
              enabled: 1,
              created_at: 0,
              updated_at: 0,
            })
            .execute();
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
              const service = createLeaderboards({ db: database.db, dialect, clock, rankIndex });
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
                    { player_name: step.player, score: step.score },
                    null,
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
                await compare(service, model, gameId, config, periodStart);
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
) {
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

type ConcurrentOp =
  | { kind: 'save'; player: string; score: number }
  | { kind: 'delete'; pick: number }
  | { kind: 'wipe' }
  | { kind: 'mode'; mode: InsertOption }
  | { kind: 'rebuild' };

const concurrentOp: fc.Arbitrary<ConcurrentOp> = fc.oneof(
  {
    weight: 10,
    arbitrary: fc.record({
      kind: fc.constant('save' as const),
      player: fc.constantFrom(...PLAYERS),
      score: fc.constantFrom(...SCORES),
    }),
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
for (const { dialect, skip } of DIALECTS) {
  for (const index of RANK_INDEXES.filter((i) => !i.name.startsWith('memory, '))) {
    describe.skipIf(skip || index.skip)(
      `${dialect}: concurrent writes keep the ${index.name} rank index equal to the database`,
      () => {
        let database: Awaited<ReturnType<typeof openTestDatabase>>;
        let runs = 0;
        beforeAll(async () => {
          database = await openTestDatabase(dialect);
          await database.db
            .insertInto('identity_users')
            .values({
              id: 'race-owner',
              pool_id: 'developers',
              username: 'race@example.com',
              email: null,
              password_hash: 'x',
              status: 'CONFIRMED',
              enabled: 1,
              created_at: 0,
              updated_at: 0,
            })
            .execute();
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
                const service = createLeaderboards({ db: database.db, dialect, clock, rankIndex });
                const truth = createLeaderboards({
                  db: database.db,
                  dialect,
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
                        await service.submit(gameId, 'b', { player_name: step.player, score: step.score }, null);
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

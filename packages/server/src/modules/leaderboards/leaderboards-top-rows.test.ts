import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../../test/support/database.js';
import { insertDeveloperRow } from '../../../test/support/rank-indexes.js';
import { DIALECTS } from '../../../test/support/services.js';
import { createCaches, type Caches } from '../../lib/cache.js';
import { manualClock } from '../../lib/clock.js';
import { createLeaderboards } from './service.js';
import { memoryRankIndex } from '../ranking/memory-index.js';
import { sqlRankIndex } from '../ranking/rank-index.js';
import { withTopRows } from '../ranking/top-rows.js';

// Exactness under interleaved writes is the property suites' part (test/support/rank-indexes.ts);
// here: what a read costs once the top rows are kept.
for (const { dialect, skip } of DIALECTS) {
  describe.skipIf(skip)(`${dialect}: top rows kept beside the in-process index`, () => {
    let database: Awaited<ReturnType<typeof openTestDatabase>>;
    let caches: Caches;
    const statements: string[] = [];
    let recording = false;
    const clock = manualClock(Date.UTC(2026, 2, 29));
    let service: ReturnType<typeof createLeaderboards>;
    let truth: ReturnType<typeof createLeaderboards>;
    /** The statements `run` sends to the database. */
    const queries = async (run: () => Promise<unknown>) => {
      statements.length = 0;
      recording = true;
      try {
        await run();
      } finally {
        recording = false;
      }
      return [...statements];
    };

    beforeAll(async () => {
      database = await openTestDatabase(dialect, {
        onQuery: (text) => {
          if (recording) statements.push(text);
        },
      });
      await insertDeveloperRow(database.db, 'owner');
      await database.db
        .insertInto('games')
        .values({ id: 'game', owner_id: 'owner', name: 'g', api_key: 'k', created_at: 0 })
        .execute();
      caches = await createCaches();
      const rankIndex = withTopRows(memoryRankIndex(database.db, { rows: database.rows }));
      service = createLeaderboards({ db: database.db, clock, rankIndex, caches });
      truth = createLeaderboards({ db: database.db, clock, rankIndex: sqlRankIndex(database.db) });
      for (const name of ['b', 'plain']) {
        await service.create('game', {
          name,
          insert_option: 'keep',
          sort: 'desc',
          max_entries: null,
          time_based: 'na',
          timezone: null,
        });
      }
      for (let i = 0; i < 150; i++) {
        clock.advance(1);
        // On `b` every third score has metadata, which only its row holds; `plain` has none.
        const metadata = i % 3 === 0 ? { level: i } : undefined;
        await service.submit('game', 'b', { player_name: `p${i % 40}`, score: (i * 37) % 101, metadata }, 4);
        await service.submit('game', 'plain', { player_name: `p${i % 40}`, score: (i * 37) % 101 }, i % 2 ? 3 : null);
      }
      // Warm-up: the first read loads the index, the next fills the top rows from it.
      for (const name of ['b', 'plain']) await service.scores('game', name, { max: 10, period_offset: 0 });
      await rankIndex.settled();
      await service.scores('game', 'b', { max: 10, period_offset: 0 });
    });
    afterAll(async () => {
      await caches?.close();
      await database?.close();
    });

    const top = (max: number) => service.scores('game', 'b', { max, period_offset: 0 });
    const expected = (max: number) => truth.scores('game', 'b', { max, period_offset: 0 });

    it('answers top pages up to 100, positions and arounds within them with no SQL', async () => {
      const fifth = (await expected(10)).scores[4]!;
      const sent = await queries(async () => {
        expect(await top(100)).toEqual(await withoutRecording(() => expected(100)));
        expect(await top(10)).toEqual(await withoutRecording(() => expected(10)));
        expect(await service.position('game', 'b', { score: 99, period_offset: 0 })).toEqual(
          await withoutRecording(() => truth.position('game', 'b', { score: 99, period_offset: 0 })),
        );
        const near = await service.around('game', 'b', { score: fifth.score, count: 3, period_offset: 0 });
        expect(near).toEqual(
          await withoutRecording(() => truth.around('game', 'b', { score: fifth.score, count: 3, period_offset: 0 })),
        );
      });
      expect(sent).toEqual([]);
    });

    it('answers the top page with no SQL after a save enters it, and refills it in one query once a delete leaves it short', async () => {
      clock.advance(1);
      const { score_id } = await service.submit('game', 'b', { player_name: 'new', score: 1000 }, null);
      const first = await queries(() => top(100));
      expect(first).toEqual([]);
      expect((await top(100)).scores[0]!.score_id).toBe(score_id);
      await service.deleteScore('game', score_id);
      expect(
        await queries(async () => expect(await top(10)).toEqual(await withoutRecording(() => expected(10)))),
      ).toEqual([]);
      // One row short of a page of 100 now: refilled with one query, then kept again.
      const refill = await queries(async () => {
        expect(await top(100)).toEqual(await withoutRecording(() => expected(100)));
      });
      expect(refill).toHaveLength(1);
      expect(await queries(() => top(100))).toEqual([]);
    });

    it('answers an around below the kept rows with no SQL when no row there has metadata', async () => {
      const q = { max: 0, period_offset: 0 };
      const deep = (await withoutRecording(() => truth.scores('game', 'plain', q))).scores[130]!;
      const ask = { score: deep.score, count: 5, period_offset: 0 };
      const sent = await queries(async () => {
        expect(await service.around('game', 'plain', ask)).toEqual(
          await withoutRecording(() => truth.around('game', 'plain', ask)),
        );
      });
      expect(sent).toEqual([]);
    });

    it('reads both sides of an around below the kept rows in one query, and a player in one', async () => {
      const deep = (await expected(0)).scores[130]!;
      const around = await queries(() =>
        service.around('game', 'b', { score: deep.score, count: 5, period_offset: 0 }),
      );
      expect(around).toHaveLength(1);
      expect(around[0]).toMatch(/"id" in \(/);
      const ask = { score: deep.score, count: 5, period_offset: 0 };
      expect(await withoutRecording(() => service.around('game', 'b', ask))).toEqual(
        await withoutRecording(() => truth.around('game', 'b', ask)),
      );
      const player = await queries(() => service.playerScores('game', 'b', 'p7', { max: 10, period_offset: 0 }));
      expect(player).toHaveLength(1);
      const best = await queries(() => service.playerTop('game', 'b', 'p7', { period_offset: 0 }));
      expect(best).toHaveLength(1);
    });

    it('answers a top page as one shared, frozen object until a save, a delete or a change of settings changes it', async () => {
      const q = { max: 20, period_offset: 0 };
      const page = () => service.scores('game', 'shared', q);
      const truthOf = () => withoutRecording(() => truth.scores('game', 'shared', q));
      await service.create('game', {
        name: 'shared',
        insert_option: 'keep',
        sort: 'desc',
        max_entries: null,
        time_based: 'na',
        timezone: null,
      });
      for (let i = 0; i < 20; i++) {
        clock.advance(1);
        await service.submit('game', 'shared', { player_name: `s${i}`, score: i * 10, metadata: { i } }, 4);
      }
      await page();
      const first = await page();
      expect(await page()).toBe(first);
      expect(first).toEqual(await truthOf());
      expect(Object.isFrozen(first.scores[0]!.metadata)).toBe(true);
      // A save below the page changes the kept rows and the cursor, not the scores shown.
      clock.advance(1);
      await service.submit('game', 'shared', { player_name: 'low', score: -5 }, 4);
      const below = await page();
      expect(below.scores).toEqual(first.scores);
      expect(below).toEqual(await truthOf());
      clock.advance(1);
      const { score_id } = await service.submit('game', 'shared', { player_name: 'high', score: 500 }, 3);
      const entered = await page();
      expect(entered.scores[0]!.score_id).toBe(score_id);
      expect(entered).toEqual(await truthOf());
      expect(await page()).toBe(entered);
      await service.deleteScore('game', score_id);
      expect(await page()).toEqual(below);
      // Ten places: no more rows shown, and no cursor to an eleventh.
      await service.update('game', 'shared', { max_entries: 10 });
      const fewer = await page();
      expect(fewer.scores).toHaveLength(10);
      expect(fewer.cursor).toBeNull();
      expect(fewer).toEqual(await truthOf());
      expect(await service.scores('game', 'shared', { max: 2, period_offset: 0 })).toEqual(
        await withoutRecording(() => truth.scores('game', 'shared', { max: 2, period_offset: 0 })),
      );
    });

    it('shares the first pages of four sizes per board period at most; other sizes are made on every call', async () => {
      await board('sizes', 'keep');
      for (let i = 0; i < 12; i++) {
        clock.advance(1);
        await service.submit('game', 'sizes', { player_name: `z${i}`, score: i }, null);
      }
      const sized = (max: number) => service.scores('game', 'sizes', { max, period_offset: 0 });
      await sized(1);
      for (const max of [1, 2, 3, 4]) expect(await sized(max)).toBe(await sized(max));
      expect(await sized(5)).not.toBe(await sized(5));
      expect(await sized(5)).toEqual(
        await withoutRecording(() => truth.scores('game', 'sizes', { max: 5, period_offset: 0 })),
      );
      expect(await sized(1)).toBe(await sized(1));
    });

    it('answers a new page when a shown entry of a `latest` board is saved again below the kept rows', async () => {
      await board('latest', 'latest');
      // More than the 101 rows kept: the entry saved again leaves them, and nothing enters in its place.
      for (let i = 0; i < 105; i++) {
        clock.advance(1);
        await service.submit('game', 'latest', { player_name: `l${i}`, score: 100 + i }, null);
      }
      const q = { max: 3, period_offset: 0 };
      await service.scores('game', 'latest', q);
      const before = await service.scores('game', 'latest', q);
      expect(await service.scores('game', 'latest', q)).toBe(before);
      clock.advance(1);
      await service.submit('game', 'latest', { player_name: before.scores[0]!.player_name, score: -1 }, null);
      const after = await service.scores('game', 'latest', q);
      expect(after.scores.map((e) => e.player_name)).not.toContain(before.scores[0]!.player_name);
      expect(after).toEqual(await withoutRecording(() => truth.scores('game', 'latest', q)));
    });

    it('shares no more than its byte budget across boards, and shares again once a change frees some', async () => {
      const small = withTopRows(memoryRankIndex(database.db, { rows: database.rows }), { sharedBytes: 6 * 512 });
      const tight = createLeaderboards({ db: database.db, clock, rankIndex: small, caches });
      for (const name of ['budget1', 'budget2']) {
        await board(name, 'keep');
        for (let i = 0; i < 10; i++) {
          clock.advance(1);
          await tight.submit('game', name, { player_name: `b${i}`, score: i }, null);
        }
      }
      const q = { max: 5, period_offset: 0 };
      const page = (name: string) => tight.scores('game', name, q);
      // The first reads load the index; the next fill the kept rows, the first board's first.
      await page('budget1');
      await page('budget2');
      await small.settled();
      await page('budget1');
      await page('budget2');
      // Six rows (five and the one that tells of a next page) fill the budget: the second board's page is made every time.
      expect(await page('budget1')).toBe(await page('budget1'));
      expect(await page('budget2')).not.toBe(await page('budget2'));
      clock.advance(1);
      await tight.submit('game', 'budget1', { player_name: 'top', score: 99 }, null);
      await page('budget2');
      expect(await page('budget2')).toBe(await page('budget2'));
      expect(await page('budget1')).not.toBe(await page('budget1'));
      expect(await page('budget1')).toEqual(await withoutRecording(() => truth.scores('game', 'budget1', q)));
    });

    /** Creates an unlimited board of `game` that never resets. */
    async function board(name: string, insert_option: 'keep' | 'latest') {
      await service.create('game', {
        name,
        insert_option,
        sort: 'desc',
        max_entries: null,
        time_based: 'na',
        timezone: null,
      });
    }

    /** Reads the reference without counting its statements. */
    async function withoutRecording<T>(run: () => Promise<T>): Promise<T> {
      recording = false;
      try {
        return await run();
      } finally {
        recording = true;
      }
    }
  });
}

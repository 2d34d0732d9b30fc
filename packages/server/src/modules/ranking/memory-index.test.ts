import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openTestDatabase } from '../../../test/support/database.js';
import { insertBoardRow, insertBoardRows } from '../../../test/support/rank-indexes.js';
import { DIALECTS } from '../../../test/support/services.js';
import { memoryRankIndex } from './memory-index.js';
import { LOAD_RETRY_MS, PAST_PERIOD_IDLE_MS } from './rank-index.js';

const MINUTE = 60_000;
const WEEK = 7 * 86_400_000;
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
      await insertBoardRows(db, 'board');
      await insertScores('board', 0, [entry('a', 10, 3), entry('b', 20, 0), entry('c', 30, 0)]);
    });
    const insertScores = (boardId: string, periodStart: number, rows: Array<ReturnType<typeof entry>>) =>
      database.db
        .insertInto('scores')
        .values(
          rows.map((r) => ({
            ...r,
            leaderboard_id: boardId,
            period_start: periodStart,
            player_key: r.id,
            metadata: null,
            engine: null,
          })),
        )
        .execute();
    afterAll(() => database?.close());

    it('ignores a notification older than the state it holds, whether it arrives during the load or after', async () => {
      const index = memoryRankIndex(database.db, { chunk: 1, rows: database.rows });
      expect((await index.page(board, undefined, 10)).map((r) => r.id)).toEqual(['c', 'b', 'a']); // SQL, while the load starts
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

    it('lets the event loop turn between the chunks of a load, so a big board loading holds no request', async () => {
      const index = memoryRankIndex(database.db, { chunk: 1, rows: database.rows });
      expect((await index.page(board, undefined, 10)).map((r) => r.id)).toEqual(['c', 'b', 'a']); // SQL, while the load starts
      let turns = 0;
      let loading = true;
      const turn = () => {
        if (!loading) return;
        turns++;
        setImmediate(turn);
      };
      setImmediate(turn);
      await index.settled();
      loading = false;
      // Three rows a chunk at a time: the loop turns between chunks (SQLite's driver alone would give no turn).
      expect(turns).toBeGreaterThanOrEqual(2);
      expect(index.entries()).toBe(3);
    });

    it('answers a count and an around asked while the period loads from the loaded index, running no count of its own', async () => {
      const queries: string[] = [];
      const logged = await openTestDatabase(dialect, { onQuery: (text) => queries.push(text) });
      try {
        await insertBoardRows(logged.db, 'board');
        await logged.db
          .insertInto('scores')
          .values(
            ['a', 'b', 'c'].map((id, i) => ({
              ...entry(id, 10 * (i + 1), 0),
              leaderboard_id: 'board',
              period_start: 0,
              player_key: id,
              metadata: null,
              engine: null,
            })),
          )
          .execute();
        const index = memoryRankIndex(logged.db, { chunk: 1, rows: logged.rows });
        queries.length = 0;
        // Asked together before the load has read a chunk: each waits for it.
        const [count, around] = await Promise.all([
          index.countAbove(board, entry('a', 10, 0)),
          index.around(board, entry('b', 20, 0), 1),
        ]);
        expect(count).toBe(2);
        expect(around.countAbove).toBe(1);
        expect(around.above.map((r) => r.id)).toEqual(['c']);
        expect(around.below.map((r) => r.id)).toEqual(['a']);
        expect(index.entries()).toBe(3);
        // SQL's count of the entries above a key walks them all; the load's own count of the period has no key.
        expect(queries.filter((q) => q.includes(`as "n"`) && q.includes(`"score"`))).toEqual([]);
      } finally {
        await logged.close();
      }
    });

    it('waits on no load for a while after one failed, and at most loadWaitMs on one that hangs', async () => {
      let at = 0;
      let reads = 0;
      // The first load fails; every later one never answers.
      const flaky = () =>
        ++reads === 1 ? Promise.reject(new Error('the database went away')) : new Promise<never>(() => {});
      const index = memoryRankIndex(database.db, { rows: flaky, loadWaitMs: 3_000, now: () => at });
      const timed = async () => {
        const t = performance.now();
        expect(await index.countAbove(board, entry('a', 10, 3))).toBe(2); // SQL
        return performance.now() - t;
      };
      await timed(); // waited on the first load, which failed
      expect(reads).toBe(1);
      // Another load starts, but so soon after a failure the count does not wait on it.
      expect(await timed()).toBeLessThan(1_500);
      expect(reads).toBe(2);
      // Later, the count waits on the load under way, and gives up on it after loadWaitMs.
      at += LOAD_RETRY_MS + 1;
      expect(await timed()).toBeGreaterThanOrEqual(2_900);
      expect(reads).toBe(2);
    });

    it('counts by SQL two at a time when a load outlasts loadWaitMs, and by the index once it has loaded', async () => {
      // SQL's counts of the entries above a key, as Kysely runs them: how many, and how many at once.
      let counting = 0;
      let most = 0;
      let counts = 0;
      // Until when each count is held: a while, or until the test lets them go.
      let hold = () => new Promise((resolve) => setTimeout(resolve, 100));
      const tracked = database.db.withPlugin({
        transformQuery({ node }) {
          // The load's own count of the period, compiled here too, has no key: only counts above one are SQL's answers.
          if (node.kind === 'SelectQueryNode' && JSON.stringify(node.where ?? null).includes('"score"')) {
            if (!JSON.stringify(node.selections).includes('"n"')) return node;
            counts++;
            most = Math.max(most, ++counting);
          }
          return node;
        },
        async transformResult({ result }) {
          if (result.rows[0] && 'n' in (result.rows[0] as object)) {
            // Held, so that the calls after the first two find both places taken.
            await hold();
            counting--;
          }
          return result;
        },
      });
      const keys = [entry('c', 30, 0), entry('b', 20, 0), entry('a', 10, 3), { ...top, score: 0 }];

      // The load never answers: every call gives up on it after loadWaitMs, and SQL answers them all.
      const hung = memoryRankIndex(tracked, { rows: () => new Promise<never>(() => {}), loadWaitMs: 50 });
      const counted = await Promise.all([...keys, ...keys].map((key) => hung.countAbove(board, key)));
      expect(counted).toEqual([0, 1, 2, 3, 0, 1, 2, 3]);
      const near = await Promise.all([
        hung.around(board, entry('b', 20, 0), 1),
        hung.around(board, entry('b', 20, 0), 1),
      ]);
      expect(near.map((n) => [n.countAbove, n.above.map((r) => r.id), n.below.map((r) => r.id)])).toEqual([
        [1, ['c'], ['a']],
        [1, ['c'], ['a']],
      ]);
      expect(counts).toBe(10); // an around counts once, and reads its rows apart
      expect(most).toBe(2);

      // The load ends while the first two counts run: the two calls waiting their turn are answered
      // by the index then, without waiting for those counts.
      counts = 0;
      most = 0;
      let letCountsGo!: () => void;
      const countsHeld = new Promise<void>((resolve) => (letCountsGo = resolve));
      hold = () => countsHeld;
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const late = memoryRankIndex(tracked, {
        rows: async (query) => {
          await gate;
          return database.rows(query);
        },
        loadWaitMs: 50,
      });
      const asked = keys.map((key) => late.countAbove(board, key));
      await vi.waitFor(() => expect(counting).toBe(2), { timeout: 5_000 });
      release();
      await late.settled();
      // Answered while both counts are still held (or, without the race, still waiting after 2 s).
      const waiting = new Promise((resolve) => setTimeout(() => resolve('still waiting'), 2_000));
      const answered = await Promise.race([Promise.all(asked.slice(2)), waiting]);
      letCountsGo();
      expect(answered).toEqual([2, 3]);
      expect(await Promise.all(asked)).toEqual([0, 1, 2, 3]);
      expect(counts).toBe(2);
      expect(most).toBe(2);
    });

    it('lets a past period go once nobody asked about it for 10 minutes, keeps the current one, and loads it again from SQL', async () => {
      // A weekly board: last week's period ended at `ended`, this week's runs a week more.
      const ended = WEEK * 2900;
      const lastWeek = { ...board, boardId: 'weekly', periodStart: ended - WEEK, periodEnd: ended };
      const thisWeek = { ...board, boardId: 'weekly', periodStart: ended, periodEnd: ended + WEEK };
      await insertBoardRow(database.db, 'weekly', 'weekly');
      await insertScores('weekly', lastWeek.periodStart, [entry('w1', 10, 0), entry('w2', 20, 0)]);
      await insertScores('weekly', thisWeek.periodStart, [entry('w3', 30, 0)]);
      let at = ended + MINUTE;
      const index = memoryRankIndex(database.db, { rows: database.rows, now: () => at });
      const ids = async (period: typeof lastWeek) => (await index.page(period, undefined, 10)).map((r) => r.id);

      expect(await ids(lastWeek)).toEqual(['w2', 'w1']);
      expect(await ids(thisWeek)).toEqual(['w3']);
      await index.settled();
      expect(index.periods()).toBe(2);
      expect(index.entries()).toBe(3);

      // Asked about this week only: last week stays until its idle time has passed, then goes.
      at += PAST_PERIOD_IDLE_MS - MINUTE;
      expect(await ids(thisWeek)).toEqual(['w3']);
      expect(index.periods()).toBe(2);
      at += 2 * MINUTE;
      expect(await ids(thisWeek)).toEqual(['w3']);
      expect(index.periods()).toBe(1);
      expect(index.entries()).toBe(1);

      // A score reaches last week's rows while it is not held (an import, another tool): asked again, it is read afresh.
      await insertScores('weekly', lastWeek.periodStart, [entry('w4', 15, 0)]);
      at += 60 * MINUTE;
      expect(await index.countAbove(lastWeek, entry('w1', 10, 0))).toBe(2); // once loaded again
      await index.settled();
      expect(index.periods()).toBe(2); // this week, idle an hour, stays
      expect(index.entries()).toBe(4);
      expect(await ids(lastWeek)).toEqual(['w2', 'w4', 'w1']);
      expect(await index.countAbove(lastWeek, entry('w1', 10, 0))).toBe(2);
      expect(await ids(thisWeek)).toEqual(['w3']);
    });

    it('holds at most so many past periods, SQL answering the rest, and so many bytes of them', async () => {
      const ended = WEEK * 3000;
      const week = (offset: number) => ({
        ...board,
        boardId: 'capped',
        periodStart: ended + offset * WEEK,
        periodEnd: ended + (offset + 1) * WEEK,
      });
      await insertBoardRow(database.db, 'capped', 'weekly');
      for (let offset = -6; offset <= 0; offset++) {
        await insertScores('capped', week(offset).periodStart, [entry(`c${-offset}`, 10 - offset, 0)]);
      }
      let at = ended + MINUTE;
      const index = (pastPeriods: { count: number; bytes: number; loads: number }) =>
        memoryRankIndex(database.db, { rows: database.rows, now: () => at, pastPeriods });
      /** Reads each week in turn, a second apart; answers the weeks the index then holds. */
      const read = async (i: ReturnType<typeof index>, offsets: number[]) => {
        for (const offset of offsets) {
          at += 1000;
          // Every read answers right, held or not (SQL while it is not).
          expect((await i.page(week(offset), undefined, 10)).map((r) => r.id)).toEqual([`c${-offset}`]);
          await i.settled();
        }
        return [0, -1, -2, -3, -4, -5, -6].filter((offset) => i.holds(week(offset)));
      };

      // The current week, and the first two past weeks asked about; SQL answers the others, loading nothing.
      const byCount = index({ count: 2, bytes: Number.MAX_SAFE_INTEGER, loads: 2 });
      expect(await read(byCount, [0, -1, -2, -3, -4])).toEqual([0, -1, -2]);
      expect(await read(byCount, [-5, -3])).toEqual([0, -1, -2]);
      expect(await byCount.countAbove(week(-5), { ...top, score: 0 })).toBe(1);
      // Once one is idle long enough to go, the next past week asked about loads in its place.
      at += PAST_PERIOD_IDLE_MS;
      expect(await read(byCount, [-2])).toEqual([0, -2]);
      expect(await read(byCount, [-6])).toEqual([0, -2, -6]);

      // By bytes: room for one past week beside the current one, not two; the one asked about least lately goes.
      const one = index({ count: 64, bytes: Number.MAX_SAFE_INTEGER, loads: 2 });
      await read(one, [-1]);
      const byBytes = index({ count: 64, bytes: Math.ceil(one.bytes() * 1.5), loads: 2 });
      expect(await read(byBytes, [0, -1, -2])).toEqual([0, -2]);
      expect(await read(byBytes, [-3])).toEqual([0, -3]);

      // By loads at once: while one past week loads (here, never ends), asking about another starts no load.
      let loads = 0;
      const hanging = memoryRankIndex(database.db, {
        rows: () => (loads++, new Promise<never>(() => {})),
        now: () => at,
        loadWaitMs: 10,
        pastPeriods: { count: 64, bytes: Number.MAX_SAFE_INTEGER, loads: 1 },
      });
      for (const offset of [-1, -2, -3]) {
        expect((await hanging.page(week(offset), undefined, 10)).map((r) => r.id)).toEqual([`c${-offset}`]);
      }
      expect([loads, hanging.periods()]).toEqual([1, 1]);
    });
  });
}

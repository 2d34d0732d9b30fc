import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, gameCall, signedInDeveloper, startTestApp, type TestApp } from '../../../test/support/app.js';
import { openTestDatabase } from '../../../test/support/database.js';
import { DIALECTS } from '../../../test/support/services.js';

const MINUTE = 60_000;
const WEEK = 7 * 86_400_000;
/** The statement that starts loading a board period into the in-process index (memory-index.ts `read`). */
const LOAD =
  /^select count\(\*\) as "n" from "scores" where "leaderboard_id" = (\?|\$1) and "period_start" = (\?|\$2)$/;
/** A page the SQL reference answers (rank-index.ts `sqlRankIndex`), while the period is not held. */
const BY_SQL = /^select "id", "leaderboard_id", .* from "scores" where "leaderboard_id" = (\?|\$1) and "period_start"/;

for (const { dialect, skip } of DIALECTS) {
  describe.skipIf(skip)(`${dialect}: past periods leave the in-process rank index (issue 20)`, () => {
    let database: Awaited<ReturnType<typeof openTestDatabase>>;
    let t: TestApp;
    let game: { game_id: string; api_key: string };
    const statements: string[] = [];
    beforeAll(async () => {
      database = await openTestDatabase(dialect, { onQuery: (text) => statements.push(text) });
      t = await startTestApp({ dialect, database });
      const { cookie } = await signedInDeveloper(t);
      game = (await call(t.app, 'POST', '/api/games', { body: { name: 'Weekly' }, cookie })).json();
      const board = { name: 'weekly', time_based: 'weekly', timezone: 'UTC', max_entries: null };
      const created = await call(t.app, 'POST', `/api/games/${game.game_id}/leaderboards`, { body: board, cookie });
      expect(created.statusCode).toBe(201);
    });
    afterAll(async () => {
      await t?.close();
      await database?.close();
    });

    const v1 = (method: 'GET' | 'POST', url: string, body?: unknown) =>
      gameCall(t.app, method, url, { apiKey: game.api_key, gameId: game.game_id, ...(body ? { body } : {}) });
    /** Every score of a period, best first (`max=0` reads past the top rows kept beside the index). */
    const names = async (periodOffset: number) =>
      (await v1('GET', `/v1/leaderboards/weekly/scores?max=0&period_offset=${periodOffset}`))
        .json()
        .scores.map((s: { player_name: string; position: number }) => `${s.position}. ${s.player_name}`);
    /**
     * Reads a period until the index answers it rather than SQL (a load runs in the background);
     * answers what it showed and how many loads the reads started.
     */
    const read = async (periodOffset: number) => {
      statements.length = 0;
      for (let tries = 0; ; tries++) {
        const from = statements.length;
        const shown = await names(periodOffset);
        const bySql = statements.slice(from).some((s) => BY_SQL.test(s));
        if (!bySql) return { shown, loads: statements.filter((s) => LOAD.test(s)).length };
        if (tries === 100) throw new Error('the period never loaded');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    };
    const lastWeek = { shown: ['1. best', '2. early'] };

    it('drops last week after 10 minutes nobody asked, loads it again from SQL when asked, and keeps this week', async () => {
      await v1('POST', '/v1/leaderboards/weekly/scores', { player_name: 'early', score: 10 });
      await v1('POST', '/v1/leaderboards/weekly/scores', { player_name: 'best', score: 20 });
      t.clock.advance(WEEK);
      await v1('POST', '/v1/leaderboards/weekly/scores', { player_name: 'now', score: 30 });

      // Both periods are read until they are held (loaded by these reads or by the writes' positions).
      await read(-1);
      await read(0);
      expect(await read(-1)).toEqual({ ...lastWeek, loads: 0 });

      // This week is read; last week is not, and stays until 10 minutes have passed.
      t.clock.advance(9 * MINUTE);
      expect(await read(0)).toEqual({ shown: ['1. now'], loads: 0 });
      t.clock.advance(2 * MINUTE);
      expect(await read(0)).toEqual({ shown: ['1. now'], loads: 0 });
      expect(await read(-1)).toEqual({ ...lastWeek, loads: 1 });
      expect(await read(-1)).toEqual({ ...lastWeek, loads: 0 });

      // An hour with nobody asking about either: this week is current and stays, last week goes again.
      t.clock.advance(60 * MINUTE);
      expect(await read(0)).toEqual({ shown: ['1. now'], loads: 0 });
      expect(await read(-1)).toEqual({ ...lastWeek, loads: 1 });
    });
  });
}

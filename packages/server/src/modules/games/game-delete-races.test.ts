import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  gameCall,
  signedInDeveloper,
  startTestApp,
  STRONG_PASSWORD,
  type TestApp,
} from '../../../test/support/app.js';
import { DIALECTS } from '../../../test/support/services.js';
import { playerPoolId } from './service.js';

for (const { dialect, skip } of DIALECTS) {
  describe.skipIf(skip)(`${dialect}: deleting a game while its players write`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ dialect, env: { GAME_API_REQUESTS_PER_KEY_PER_MINUTE: '100000' } });
    });
    afterAll(() => t?.close());

    it('leaves no score, board, player data or player account of the game behind, and answers no 500', async () => {
      const { cookie } = await signedInDeveloper(t);
      const game = (await call(t.app, 'POST', '/api/games', { body: { name: 'Doomed' }, cookie })).json();
      await call(t.app, 'PUT', `/api/games/${game.game_id}/player-auth`, {
        body: { enabled: true, reg_type: 'un_pwd' },
        cookie,
      });
      const boardIds = (
        await t.database.db.selectFrom('leaderboards').select('id').where('game_id', '=', game.game_id).execute()
      ).map((b) => b.id);
      const key = { apiKey: game.api_key, gameId: game.game_id };
      // Each module's writes, many at once on several connections; the delete starts once the first
      // writes have landed, so others are still in flight and more arrive after it.
      const write = (i: number) => {
        if (i % 3 === 0)
          return gameCall(t.app, 'POST', '/v1/leaderboards/main/scores', {
            ...key,
            body: { player_name: `p${i}`, score: i },
          });
        if (i % 3 === 1)
          return gameCall(t.app, 'PUT', `/v1/player-data/p${i}`, { ...key, body: { player_data: { level: i } } });
        return gameCall(t.app, 'POST', '/v1/players', {
          ...key,
          body: { player_name: `p${i}`, email: '', password: STRONG_PASSWORD, confirm_password: STRONG_PASSWORD },
        });
      };
      const before = Array.from({ length: 45 }, (_, i) => write(i));
      await Promise.all(before.slice(0, 6));
      const deleted = call(t.app, 'DELETE', `/api/games/${game.game_id}`, { cookie });
      const after = Array.from({ length: 15 }, (_, i) => write(45 + i));
      const answers = await Promise.all([...before, ...after, deleted]);
      const landed = answers.filter((a) => a.statusCode === 200).length;
      // Some writes landed before the delete and some were refused after it: the race really ran.
      expect(landed).toBeGreaterThan(1);
      expect(answers.some((a) => a.statusCode === 403 || a.statusCode === 404)).toBe(true);

      expect(answers.filter((a) => a.statusCode >= 500).map((a) => a.body)).toEqual([]);
      expect((await deleted).statusCode).toBe(200);
      const db = t.database.db;
      const left = async (table: 'leaderboards' | 'player_data') =>
        (await db.selectFrom(table).select('game_id').where('game_id', '=', game.game_id).execute()).length;
      expect(await left('leaderboards')).toBe(0);
      expect(await left('player_data')).toBe(0);
      const scores = await db.selectFrom('scores').select('id').where('leaderboard_id', 'in', boardIds).execute();
      expect(scores).toEqual([]);
      const accounts = await db
        .selectFrom('identity_users')
        .select('id')
        .where('pool_id', '=', playerPoolId(game.game_id))
        .execute();
      expect(accounts).toEqual([]);
    });

    it("changes a board's settings while the game is deleted with no deadlock: one answers, then the other, never a 500", async () => {
      const { cookie } = await signedInDeveloper(t);
      for (let round = 0; round < 4; round++) {
        const game = (await call(t.app, 'POST', '/api/games', { body: { name: `Race ${round}` }, cookie })).json();
        const board = { name: 'wide', insert_option: 'keep', sort: 'desc', max_entries: null, time_based: 'na' };
        expect(
          (await call(t.app, 'POST', `/api/games/${game.game_id}/leaderboards`, { body: board, cookie })).statusCode,
        ).toBe(201);
        const { id } = await t.database.db
          .selectFrom('leaderboards')
          .select('id')
          .where('game_id', '=', game.game_id)
          .where('name', '=', 'wide')
          .executeTakeFirstOrThrow();
        // Enough entries that trimming them to 10 takes a while: the delete arrives while it runs.
        const rows = Array.from({ length: 3000 }, (_, i) => ({
          id: `${id}-${i}`,
          leaderboard_id: id,
          period_start: 0,
          player_name: `p${i}`,
          // A `keep` board keys each entry by itself.
          player_key: `${id}-${i}`,
          score: i,
          timestamp: i,
          metadata: null,
          engine: null,
        }));
        for (let i = 0; i < rows.length; i += 500) {
          await t.database.db
            .insertInto('scores')
            .values(rows.slice(i, i + 500))
            .execute();
        }
        const changed = call(t.app, 'PUT', `/api/games/${game.game_id}/leaderboards/wide`, {
          body: { max_entries: 10, sort: 'asc' },
          cookie,
        });
        await new Promise((resolve) => setTimeout(resolve, round * 3));
        const deleted = call(t.app, 'DELETE', `/api/games/${game.game_id}`, { cookie });
        const answers = await Promise.all([changed, deleted]);
        expect(answers.map((a) => a.statusCode)).not.toContain(500);
        expect((await deleted).statusCode).toBe(200);
        expect([200, 404]).toContain((await changed).statusCode);
        const left = await t.database.db.selectFrom('scores').select('id').where('leaderboard_id', '=', id).execute();
        expect(left).toEqual([]);
      }
    });
  });
}

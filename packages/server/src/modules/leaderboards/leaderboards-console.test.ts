import { describe, expect, it } from 'vitest';
import { call, signedInDeveloper } from '../../../test/support/app.js';
import { boardGame } from '../../../test/support/boards.js';
import { DIALECTS } from '../../../test/support/services.js';

for (const { dialect, skip } of DIALECTS) {
  describe.skipIf(skip)(`${dialect}: leaderboards on the console`, () => {
    const { ctx, boards, v1, submit, createBoard } = boardGame(dialect);

    describe('the dashboard (console API)', () => {
      it('pages 60 scores by 50 with a cursor, and shows engines and counts per board', async () => {
        await createBoard({ name: 'sixty', max_entries: null });
        for (let i = 0; i < 60; i++)
          await v1('POST', '/v1/leaderboards/sixty/scores', {
            body: { player_name: `p${i}`, score: i },
            headers: { 'x-howl-engine': i % 2 ? '3.5' : '4.1' },
          });
        const first = (await call(ctx.t.app, 'GET', boards('/sixty/scores'), { cookie: ctx.cookie })).json();
        expect(first.scores).toHaveLength(50);
        const second = (
          await call(ctx.t.app, 'GET', boards(`/sixty/scores?cursor=${first.cursor}`), { cookie: ctx.cookie })
        ).json();
        expect(second.scores.map((s: { position: number }) => s.position)).toEqual(
          Array.from({ length: 10 }, (_, i) => 51 + i),
        );
        expect(second.cursor).toBeNull();
        const listed = (await call(ctx.t.app, 'GET', boards(), { cookie: ctx.cookie }))
          .json()
          .leaderboards.find((b: { name: string }) => b.name === 'sixty');
        expect(listed).toMatchObject({ engine: 'both', entry_count: 60 });
      });

      it('deletes several scores at once, only of this game', async () => {
        await createBoard({ name: 'batch' });
        const ids = [];
        for (let i = 0; i < 3; i++) ids.push((await submit('batch', `p${i}`, i)).json().score_id);
        const res = await call(ctx.t.app, 'POST', `/api/games/${ctx.game.game_id}/scores/delete`, {
          body: { score_ids: [...ids.slice(0, 2), 'not-a-score'] },
          cookie: ctx.cookie,
        });
        expect(res.json()).toEqual({ deleted: 2 });
        expect(
          (await v1('GET', '/v1/leaderboards/batch/scores')).json().scores.map((s: { score_id: string }) => s.score_id),
        ).toEqual([ids[2]]);
      });

      it('refuses score_ids that is not a list, saying so', async () => {
        const res = await call(ctx.t.app, 'POST', `/api/games/${ctx.game.game_id}/scores/delete`, {
          body: { score_ids: 'x' },
          cookie: ctx.cookie,
        });
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toEqual({
          code: 'InvalidParameter',
          message: 'score_ids must be a list.',
          field: 'score_ids',
        });
      });
    });

    describe('ownership', () => {
      const routes: Array<[string, 'GET' | 'POST' | 'PUT' | 'DELETE', string, unknown]> = [
        ['list boards', 'GET', '/leaderboards', undefined],
        ['create a board', 'POST', '/leaderboards', { name: 'stolen' }],
        ['update a board', 'PUT', '/leaderboards/main', { display_name: 'stolen' }],
        ['delete a board', 'DELETE', '/leaderboards/main', undefined],
        ['read scores', 'GET', '/leaderboards/main/scores', undefined],
        ['wipe a board', 'DELETE', '/leaderboards/main/scores', undefined],
        ['delete scores', 'POST', '/scores/delete', { score_ids: ['x'] }],
      ];

      it.each(routes)('answers 404 NotFound when another developer tries to %s', async (_what, method, path, body) => {
        const intruder = (await signedInDeveloper(ctx.t)).cookie;
        const res = await call(ctx.t.app, method, `/api/games/${ctx.game.game_id}${path}`, {
          cookie: intruder,
          ...(body ? { body } : {}),
        });
        expect([res.statusCode, res.json().error.code]).toEqual([404, 'NotFound']);
        const main = await ctx.t.database.db
          .selectFrom('leaderboards')
          .select('display_name')
          .where('game_id', '=', ctx.game.game_id)
          .where('name', '=', 'main')
          .executeTakeFirst();
        expect(main?.display_name).toBe('main');
      });

      it.each(routes)(
        'answers 401 NotAuthorized when signed out and trying to %s',
        async (_what, method, path, body) => {
          const res = await call(ctx.t.app, method, `/api/games/${ctx.game.game_id}${path}`, body ? { body } : {});
          expect([res.statusCode, res.json().error.code]).toEqual([401, 'NotAuthorized']);
        },
      );
    });
  });
}

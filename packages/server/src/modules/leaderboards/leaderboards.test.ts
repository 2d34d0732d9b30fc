import { beforeAll, describe, expect, it } from 'vitest';
import { call, gameCall } from '../../../test/support/app.js';
import { boardGame } from '../../../test/support/boards.js';
import { DIALECTS } from '../../../test/support/services.js';

for (const { dialect, skip } of DIALECTS) {
  describe.skipIf(skip)(`${dialect}: leaderboards`, () => {
    const { ctx, boards, v1, submit, createBoard } = boardGame(dialect);

    describe('configuration', () => {
      it('gives every new game the board main (keep, no reset, 10 entries)', async () => {
        const res = await call(ctx.t.app, 'GET', boards(), { cookie: ctx.cookie });
        expect(res.json().leaderboards).toEqual([
          expect.objectContaining({
            name: 'main',
            insert_option: 'keep',
            time_based: 'na',
            timezone: null,
            max_entries: 10,
            sort: 'desc',
            engine: '-',
            entry_count: 0,
          }),
        ]);
      });

      it('creates a board with defaults and answers 409 LeaderboardExists for its name again', async () => {
        const res = await createBoard({ name: 'races' });
        expect(res.statusCode).toBe(201);
        expect(res.json()).toMatchObject({
          name: 'races',
          display_name: 'races',
          insert_option: 'keep',
          time_based: 'na',
          max_entries: 10,
          sort: 'desc',
        });
        const again = await createBoard({ name: 'races' });
        expect([again.statusCode, again.json().error.code]).toEqual([409, 'LeaderboardExists']);
      });

      it.each([
        ['a name with spaces', { name: 'my board' }, 'name'],
        ['a name over 64 characters', { name: 'x'.repeat(65) }, 'name'],
        ['an unknown save mode', { name: 'x1', insert_option: 'best' }, 'insert_option'],
        ['an unknown reset period', { name: 'x2', time_based: 'minutely' }, 'time_based'],
        ['max entries outside the list', { name: 'x3', max_entries: 15 }, 'max_entries'],
        ['a reset without a time zone', { name: 'x4', time_based: 'daily' }, 'timezone'],
        ['an unknown time zone', { name: 'x5', time_based: 'daily', timezone: 'Mars/Base' }, 'timezone'],
        ['an unknown sort', { name: 'x6', sort: 'up' }, 'sort'],
      ])('answers 400 InvalidParameter for %s', async (_what, body, field) => {
        const res = await createBoard(body);
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toMatchObject({ code: 'InvalidParameter', field });
      });

      it('accepts unlimited boards (max_entries null)', async () => {
        expect((await createBoard({ name: 'unlimited', max_entries: null })).json().max_entries).toBeNull();
      });

      it('updates settings but never the name, and a lower max_entries trims at once', async () => {
        await createBoard({ name: 'trimmed', max_entries: 20 });
        for (let i = 1; i <= 15; i++) await submit('trimmed', `p${i}`, i);
        const res = await call(ctx.t.app, 'PUT', boards('/trimmed'), {
          body: { max_entries: 10, display_name: 'Trimmed!' },
          cookie: ctx.cookie,
        });
        expect(res.json()).toMatchObject({ name: 'trimmed', display_name: 'Trimmed!', max_entries: 10 });
        const left = await ctx.t.database.db
          .selectFrom('scores')
          .innerJoin('leaderboards', 'leaderboards.id', 'scores.leaderboard_id')
          .select(['scores.score'])
          .where('leaderboards.name', '=', 'trimmed')
          .where('leaderboards.game_id', '=', ctx.game.game_id)
          .execute();
        expect(left.map((r) => r.score).sort((a, b) => a - b)).toEqual([6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
        const missing = await call(ctx.t.app, 'PUT', boards('/no-such-board'), {
          body: { display_name: 'x' },
          cookie: ctx.cookie,
        });
        expect([missing.statusCode, missing.json().error.code]).toEqual([404, 'LeaderboardNotFound']);
      });

      it('deletes a board with its scores', async () => {
        await createBoard({ name: 'doomed' });
        await submit('doomed', 'p', 1);
        expect((await call(ctx.t.app, 'DELETE', boards('/doomed'), { cookie: ctx.cookie })).json()).toEqual({
          ok: true,
        });
        expect((await submit('doomed', 'p', 1)).json().error.code).toBe('LeaderboardNotFound');
      });

      it('refuses a 101st board with 409 LeaderboardLimitReached', async () => {
        const other = (
          await call(ctx.t.app, 'POST', '/api/games', { body: { name: 'Many boards' }, cookie: ctx.cookie })
        ).json();
        for (let i = 1; i < 100; i++) {
          expect(
            (
              await call(ctx.t.app, 'POST', `/api/games/${other.game_id}/leaderboards`, {
                body: { name: `b${i}` },
                cookie: ctx.cookie,
              })
            ).statusCode,
          ).toBe(201);
        }
        const res = await call(ctx.t.app, 'POST', `/api/games/${other.game_id}/leaderboards`, {
          body: { name: 'b100' },
          cookie: ctx.cookie,
        });
        expect([res.statusCode, res.json().error.code]).toEqual([409, 'LeaderboardLimitReached']);
      });
    });

    describe('saving scores (POST /v1/leaderboards/:name/scores)', () => {
      it('answers a 36-character score id, the position and kept, and stores the engine and metadata', async () => {
        await createBoard({ name: 'saves' });
        const res = await v1('POST', '/v1/leaderboards/saves/scores', {
          body: { player_name: ' Wolf ', score: -2.5, metadata: { level: 3, boss: { beaten: true, name: 'Howler' } } },
          headers: { 'x-howl-engine': '4.2.1' },
        });
        expect(res.statusCode).toBe(200);
        const { score_id, position, kept } = res.json();
        expect(score_id).toHaveLength(36);
        expect([position, kept]).toEqual([1, true]);
        const list = (await v1('GET', '/v1/leaderboards/saves/scores')).json();
        expect(list).toEqual({
          scores: [
            {
              score_id,
              player_name: 'Wolf',
              score: -2.5,
              timestamp: ctx.t.clock.now(),
              metadata: { level: 3, boss: { beaten: true, name: 'Howler' } },
              position: 1,
              engine: 4,
            },
          ],
          period: null,
          cursor: null,
        });
      });

      it('answers kept false and no position for a score that does not make a full board', async () => {
        await createBoard({ name: 'full' });
        for (let i = 0; i < 10; i++) await submit('full', `p${i}`, 100 + i);
        const res = await submit('full', 'late', 5);
        expect(res.json()).toEqual({ score_id: expect.any(String), position: null, kept: false });
        expect((await v1('GET', '/v1/leaderboards/full/scores?max=0')).json().scores).toHaveLength(10);
        // Its id names no entry.
        const byId = await v1('GET', `/v1/leaderboards/full/position?score_id=${res.json().score_id}`);
        expect([byId.statusCode, byId.json().error.code]).toEqual([404, 'ScoreNotFound']);
      });

      it.each([
        ['a missing player name', { score: 1 }, 'player_name'],
        ['an empty player name', { player_name: '  ', score: 1 }, 'player_name'],
        ['a player name over 100 characters', { player_name: 'x'.repeat(101), score: 1 }, 'player_name'],
        ['a control character in the name', { player_name: 'a\u0007', score: 1 }, 'player_name'],
        ['a score that is text', { player_name: 'p', score: '12' }, 'score'],
        ['a score beyond 1e15', { player_name: 'p', score: 1e16 }, 'score'],
        ['metadata that is an array', { player_name: 'p', score: 1, metadata: [1, 2] }, 'metadata'],
        ['metadata holding an array', { player_name: 'p', score: 1, metadata: { list: [1] } }, 'metadata.list'],
      ])('answers 400 InvalidParameter for %s', async (_what, body, field) => {
        const res = await v1('POST', '/v1/leaderboards/main/scores', { body });
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toMatchObject({ code: 'InvalidParameter', field });
      });

      it('answers 413 MetadataTooLarge past 4,096 bytes, and takes exactly 4,096', async () => {
        const at = (bytes: number) => ({ m: 'x'.repeat(bytes - '{"m":""}'.length) });
        expect((await submit('main', 'meta', 1, { metadata: at(4096) })).statusCode).toBe(200);
        const res = await submit('main', 'meta', 1, { metadata: at(4097) });
        expect(res.statusCode).toBe(413);
        expect(res.json().error).toMatchObject({
          code: 'MetadataTooLarge',
          message: 'Metadata is 4097 bytes; the limit is 4096 bytes.',
        });
      });

      it('answers 404 LeaderboardNotFound, saying how to create it', async () => {
        const res = await submit('nope', 'p', 1);
        expect(res.statusCode).toBe(404);
        expect(res.json().error.code).toBe('LeaderboardNotFound');
        expect(res.json().error.message).toContain('Create it on the Howl site');
      });

      it('loses no accumulator increment among 40 parallel submissions', async () => {
        await createBoard({ name: 'sum', insert_option: 'accumulator' });
        await Promise.all(Array.from({ length: 40 }, () => submit('sum', 'racer', 1)));
        const top = (await v1('GET', '/v1/leaderboards/sum/players/racer/top')).json();
        expect(top.score.score).toBe(40);
      });

      it("holds an accumulator total at the score range's end, submitted in parallel or one by one", async () => {
        await createBoard({ name: 'capped', insert_option: 'accumulator' });
        await Promise.all(Array.from({ length: 6 }, () => submit('capped', 'up', 9e14)));
        for (let i = 0; i < 3; i++) await submit('capped', 'down', -9e14);
        const total = async (player: string) =>
          (await v1('GET', `/v1/leaderboards/capped/players/${player}/top`)).json().score.score;
        expect([await total('up'), await total('down')]).toEqual([1e15, -1e15]);
        // A total at the end can still be asked about (a new equal score stands after it) and come back down.
        const position = await v1('GET', '/v1/leaderboards/capped/position?score=1000000000000000');
        expect([position.statusCode, position.json().position]).toEqual([200, 2]);
        await submit('capped', 'up', -5e14);
        expect(await total('up')).toBe(5e14);
      });

      it('keeps one entry per player under parallel highest submissions, with the best score', async () => {
        await createBoard({ name: 'best', insert_option: 'highest' });
        await Promise.all(Array.from({ length: 30 }, (_, i) => submit('best', 'racer', i)));
        const mine = (await v1('GET', '/v1/leaderboards/best/players/racer/scores')).json().scores;
        expect(mine.map((s: { score: number }) => s.score)).toEqual([29]);
      });
    });

    describe('reading scores', () => {
      beforeAll(async () => {
        await createBoard({ name: 'read', max_entries: null });
        for (let i = 1; i <= 25; i++) {
          ctx.t.clock.advance(1);
          await submit('read', `p${i % 5}`, i);
        }
      });

      it('lists the best 10 by default, all with max=0, and continues with the cursor', async () => {
        expect(
          (await v1('GET', '/v1/leaderboards/read/scores')).json().scores.map((s: { score: number }) => s.score),
        ).toEqual([25, 24, 23, 22, 21, 20, 19, 18, 17, 16]);
        const first = (await v1('GET', '/v1/leaderboards/read/scores?max=20')).json();
        expect(first.scores).toHaveLength(20);
        const rest = (await v1('GET', `/v1/leaderboards/read/scores?max=20&cursor=${first.cursor}`)).json();
        expect(rest.scores.map((s: { position: number }) => s.position)).toEqual([21, 22, 23, 24, 25]);
        expect(rest.cursor).toBeNull();
        expect((await v1('GET', '/v1/leaderboards/read/scores?max=0')).json().scores).toHaveLength(25);
      });

      it("answers every one of a player's many scores with its position, best first", async () => {
        await createBoard({ name: 'many', max_entries: null });
        for (let i = 0; i < 70; i++) {
          await submit('many', 'grinder', i * 2);
          await submit('many', 'other', i * 2 + 1);
        }
        const mine = (await v1('GET', '/v1/leaderboards/many/players/grinder/scores?max=0')).json().scores;
        expect(mine.map((s: { score: number; position: number }) => [s.score, s.position])).toEqual(
          Array.from({ length: 70 }, (_, i) => [138 - i * 2, i * 2 + 2]),
        );
      });

      it("answers positions by id and by value, scores around, and a player's scores and top", async () => {
        const top = (await v1('GET', '/v1/leaderboards/read/players/p1/top')).json().score;
        expect([top.score, top.position]).toEqual([21, 5]);
        expect((await v1('GET', `/v1/leaderboards/read/position?score_id=${top.score_id}`)).json().position).toBe(5);
        expect((await v1('GET', '/v1/leaderboards/read/position?score=21')).json().position).toBe(6);
        const around = (await v1('GET', `/v1/leaderboards/read/around?score_id=${top.score_id}`)).json();
        expect(around.scores_above.map((s: { score: number }) => s.score)).toEqual([24, 23, 22]);
        expect(around.scores_below.map((s: { score: number }) => s.score)).toEqual([20, 19, 18]);
        const mine = (await v1('GET', '/v1/leaderboards/read/players/p1/scores?max=2')).json().scores;
        expect(mine.map((s: { score: number; position: number }) => [s.score, s.position])).toEqual([
          [21, 5],
          [16, 10],
        ]);
        expect((await v1('GET', '/v1/leaderboards/read/players/nobody/top')).json().score).toBeNull();
      });

      it.each([
        ['/v1/leaderboards/read/position', 'score_id'],
        ['/v1/leaderboards/read/scores?max=1001', 'max'],
        ['/v1/leaderboards/read/scores?max=-1', 'max'],
        ['/v1/leaderboards/read/scores?period_offset=1', 'period_offset'],
        ['/v1/leaderboards/read/scores?period_offset=-1', 'period_offset'],
        ['/v1/leaderboards/read/scores?cursor=garbage', 'cursor'],
        ['/v1/leaderboards/read/around?score=abc', 'score'],
        ['/v1/leaderboards/read/position?score=', 'score'],
      ])('answers 400 InvalidParameter for %s', async (url, field) => {
        const res = await v1('GET', url);
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toMatchObject({ code: 'InvalidParameter', field });
      });

      it('answers 404 ScoreNotFound for an unknown score id', async () => {
        expect((await v1('GET', '/v1/leaderboards/read/position?score_id=nope')).json().error).toEqual({
          code: 'ScoreNotFound',
          message: 'No score with this id in this game.',
        });
      });

      it('reads an hourly board 1,000 periods back and refuses 1,001 (issue 14: deep offsets stalled the server)', async () => {
        await createBoard({ name: 'deep', time_based: 'hourly', timezone: 'Europe/London' });
        const ok = await v1('GET', '/v1/leaderboards/deep/scores?period_offset=-1000');
        expect(ok.statusCode).toBe(200);
        expect(ok.json().period.offset).toBe(-1000);
        for (const offset of [-1001, -100000]) {
          const res = await v1('GET', `/v1/leaderboards/deep/scores?period_offset=${offset}`);
          expect(res.statusCode).toBe(400);
          expect(res.json().error).toEqual({
            code: 'InvalidParameter',
            message: 'period_offset must be a whole number from -1000 to 0.',
            field: 'period_offset',
          });
        }
      });

      it('carries the period with its start, end and next reset on time-based boards, and reads past periods', async () => {
        await createBoard({ name: 'hourly', time_based: 'hourly', timezone: 'Europe/London' });
        await submit('hourly', 'early', 5);
        ctx.t.clock.advance(3_600_000);
        await submit('hourly', 'later', 7);
        const now = (await v1('GET', '/v1/leaderboards/hourly/scores')).json();
        expect(now.scores.map((s: { player_name: string }) => s.player_name)).toEqual(['later']);
        expect(now.period).toEqual({
          offset: 0,
          start: expect.any(String),
          end: expect.any(String),
          next_reset: now.period.end,
        });
        expect(Date.parse(now.period.end) - Date.parse(now.period.start)).toBe(3_600_000);
        const before = (await v1('GET', '/v1/leaderboards/hourly/scores?period_offset=-1')).json();
        expect(before.scores.map((s: { player_name: string }) => s.player_name)).toEqual(['early']);
        expect(before.period).toMatchObject({ offset: -1, end: now.period.start, next_reset: now.period.end });
      });
    });

    describe('deleting and wiping', () => {
      it('refuses client deletes on a new game until the developer allows them (issue 14)', async () => {
        const fresh = (
          await call(ctx.t.app, 'POST', '/api/games', { body: { name: 'Fresh' }, cookie: ctx.cookie })
        ).json();
        const asGame = (method: Parameters<typeof gameCall>[1], url: string, body?: unknown) =>
          gameCall(ctx.t.app, method, url, { apiKey: fresh.api_key, gameId: fresh.game_id, body });
        const { score_id } = (
          await asGame('POST', '/v1/leaderboards/main/scores', { player_name: 'p', score: 1 })
        ).json();
        for (const url of [`/v1/scores/${score_id}`, '/v1/leaderboards/main/scores']) {
          const res = await asGame('DELETE', url);
          expect([res.statusCode, res.json().error.code]).toEqual([403, 'ClientWritesDisabled']);
        }
        expect((await asGame('GET', '/v1/leaderboards/main/scores')).json().scores).toHaveLength(1);
      });

      it('deletes one score and wipes a board from the game when client deletes are allowed', async () => {
        const allow = await call(ctx.t.app, 'PATCH', `/api/games/${ctx.game.game_id}`, {
          body: { allow_client_deletes: true },
          cookie: ctx.cookie,
        });
        expect(allow.json().allow_client_deletes).toBe(true);
        await createBoard({ name: 'wipe-me' });
        const { score_id } = (await submit('wipe-me', 'p', 1)).json();
        await submit('wipe-me', 'q', 2);
        expect((await v1('DELETE', `/v1/scores/${score_id}`)).json()).toEqual({ ok: true });
        expect((await v1('DELETE', `/v1/scores/${score_id}`)).json().error.code).toBe('ScoreNotFound');
        expect((await v1('DELETE', '/v1/leaderboards/wipe-me/scores')).json()).toEqual({ ok: true });
        expect((await v1('GET', '/v1/leaderboards/wipe-me/scores')).json().scores).toEqual([]);
      });

      it('refuses deletes from the game with 403 ClientWritesDisabled when the developer turned them off; the console still can', async () => {
        const g = (
          await call(ctx.t.app, 'POST', '/api/games', { body: { name: 'Locked' }, cookie: ctx.cookie })
        ).json();
        await call(ctx.t.app, 'PATCH', `/api/games/${g.game_id}`, {
          body: { allow_client_deletes: false },
          cookie: ctx.cookie,
        });
        const locked = (method: Parameters<typeof gameCall>[1], url: string, body?: unknown) =>
          gameCall(ctx.t.app, method, url, { apiKey: g.api_key, gameId: g.game_id, body });
        const { score_id } = (
          await locked('POST', '/v1/leaderboards/main/scores', { player_name: 'p', score: 1 })
        ).json();
        for (const url of [`/v1/scores/${score_id}`, '/v1/leaderboards/main/scores']) {
          const res = await locked('DELETE', url);
          expect([res.statusCode, res.json().error.code]).toEqual([403, 'ClientWritesDisabled']);
        }
        const res = await call(ctx.t.app, 'POST', `/api/games/${g.game_id}/scores/delete`, {
          body: { score_ids: [score_id] },
          cookie: ctx.cookie,
        });
        expect(res.json()).toEqual({ deleted: 1 });
        expect(
          (
            await call(ctx.t.app, 'DELETE', `/api/games/${g.game_id}/leaderboards/main/scores`, { cookie: ctx.cookie })
          ).json(),
        ).toEqual({ ok: true });
      });

      it("cannot delete another game's score with its own key", async () => {
        const g = (
          await call(ctx.t.app, 'POST', '/api/games', { body: { name: 'Victim' }, cookie: ctx.cookie })
        ).json();
        const { score_id } = (
          await gameCall(ctx.t.app, 'POST', '/v1/leaderboards/main/scores', {
            apiKey: g.api_key,
            gameId: g.game_id,
            body: { player_name: 'p', score: 1 },
          })
        ).json();
        const res = await v1('DELETE', `/v1/scores/${score_id}`);
        expect([res.statusCode, res.json().error.code]).toEqual([404, 'ScoreNotFound']);
        const wrongKey = await gameCall(ctx.t.app, 'GET', '/v1/leaderboards/main/scores', {
          apiKey: ctx.game.api_key,
          gameId: g.game_id,
        });
        expect([wrongKey.statusCode, wrongKey.json().error.code]).toEqual([403, 'InvalidApiKey']);
      });
    });
  });
}

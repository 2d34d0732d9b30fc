import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../test/support/app.js';
import { boardGame } from '../../../test/support/boards.js';
import { DIALECTS } from '../../../test/support/services.js';

import { swCall, type SwClient } from '../../../test/support/silentwolf.js';

const shortAndLong = (id: string, name: string, score: number, position: number) => ({
  sid: id,
  score_id: id,
  pn: name,
  player_name: name,
  s: score,
  score,
  t: expect.any(Number),
  timestamp: expect.any(Number),
  position,
});
/** The two plugin lines: 0.9.x, and 0.6.20's score calls (key and plugin version only). */
type Line = '0.6' | '0.9';
const client = (line: Line): SwClient => (line === '0.9' ? '0.9.7' : '0.6.20-short');
const MAIN_CONFIG = { insert_opt: 'keep', max_entries: 10, display_name: 'main', sort: 'desc' };

for (const { dialect, skip } of DIALECTS) {
  describe.skipIf(skip)(`${dialect}: SilentWolf scores`, () => {
    const { ctx, createBoard, v1 } = boardGame(dialect);
    const sw = (line: Line, method: 'GET' | 'POST', url: string, opts: Parameters<typeof swCall>[4] = {}) =>
      swCall(ctx.t, ctx.game, method, url, { ...opts, client: client(line) });
    const G = () => ctx.game.game_id;
    /** 0.9.x: `POST /save_score`; 0.6.20: `POST /post_new_score` with `game_version`. */
    const save = (line: Line, body: Record<string, unknown>, headers?: Record<string, string>) =>
      sw(line, 'POST', line === '0.9' ? '/save_score' : '/post_new_score', {
        body: {
          score_id: randomUUID(),
          game_id: G(),
          ldboard_name: 'main',
          ...(line === '0.6' ? { game_version: '1.0' } : {}),
          ...body,
        },
        ...(headers ? { headers } : {}),
      });
    const allowDeletes = (allow: boolean) =>
      call(ctx.t.app, 'PATCH', `/api/games/${G()}`, { body: { allow_client_deletes: allow }, cookie: ctx.cookie });

    describe('saving', () => {
      it('0.9.x: keeps the client score_id, takes 12.0, and answers {success, score_id}', async () => {
        await createBoard({ name: 'saves', max_entries: null });
        const id = randomUUID();
        const raw = `{"game_id":"${G()}","ldboard_name":"saves","player_name":"Wolf","score":12.0,"score_id":"${id}"}`;
        const res = await sw('0.9', 'POST', '/save_score', { raw });
        expect([res.statusCode, res.json()]).toEqual([200, { success: true, score_id: id }]);
        const top = await sw('0.9', 'GET', `/get_scores/${G()}?max=10.0&ldboard_name=saves&period_offset=0`);
        expect(top.json().top_scores).toEqual([shortAndLong(id, 'Wolf', 12, 1)]);
      });

      it('0.6.20: post_new_score with game_version and metadata; get_top_scores with version= answers long keys and md', async () => {
        await createBoard({ name: 'legacy', max_entries: null });
        const id = randomUUID();
        const res = await save('0.6', {
          score_id: id,
          player_name: 'Old Fox',
          score: 40,
          ldboard_name: 'legacy',
          metadata: { level: 3 },
        });
        expect(res.json()).toEqual({ success: true, score_id: id });
        const top = await sw(
          '0.6',
          'GET',
          `/get_top_scores/${G()}?version=1.0&max=10&ldboard_name=legacy&period_offset=0`,
        );
        expect(top.json()).toEqual({
          success: true,
          top_scores: [{ ...shortAndLong(id, 'Old Fox', 40, 1), md: { level: 3 }, metadata: { level: 3 } }],
          ld_name: 'legacy',
          ld_config: { ...MAIN_CONFIG, max_entries: null, display_name: 'legacy' },
        });
      });

      it('gives a fresh id when the client id is taken or is no UUID, and both scores stay', async () => {
        await createBoard({ name: 'dupes', max_entries: null });
        const id = randomUUID();
        expect(
          (await save('0.9', { score_id: id, player_name: 'a', score: 1, ldboard_name: 'dupes' })).json().score_id,
        ).toBe(id);
        const again = (await save('0.9', { score_id: id, player_name: 'b', score: 2, ldboard_name: 'dupes' })).json();
        const odd = (
          await save('0.9', { score_id: 'not-a-uuid', player_name: 'c', score: 3, ldboard_name: 'dupes' })
        ).json();
        expect(again.success && odd.success).toBe(true);
        expect(new Set([id, again.score_id, odd.score_id]).size).toBe(3);
        const top = (await sw('0.9', 'GET', `/get_scores/${G()}?max=0&ldboard_name=dupes`)).json();
        expect(top.top_scores.map((s: { sid: string }) => s.sid)).toEqual([odd.score_id, again.score_id, id]);
      });

      it('saves every one of several parallel saves sharing a client id, the id going to one of them', async () => {
        await createBoard({ name: 'race', max_entries: null });
        const id = randomUUID();
        const answers = await Promise.all(
          Array.from({ length: 6 }, (_, i) =>
            save('0.9', { score_id: id, player_name: `r${i}`, score: i, ldboard_name: 'race' }),
          ),
        );
        expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
        const ids = answers.map((r) => r.json().score_id as string);
        expect([new Set(ids).size, ids.filter((x) => x === id).length]).toEqual([6, 1]);
      });

      it('answers the stored id when a highest board keeps the better entry', async () => {
        await createBoard({ name: 'best', insert_option: 'highest' });
        const first = randomUUID();
        await save('0.9', { score_id: first, player_name: 'p', score: 50, ldboard_name: 'best' });
        const worse = await save('0.9', { player_name: 'p', score: 10, ldboard_name: 'best' });
        expect(worse.json()).toEqual({ success: true, score_id: first });
      });

      it('defaults the board to main (pre-0.5 bodies) and refuses a text score in the envelope', async () => {
        const res = await sw('0.6', 'POST', '/post_new_score', {
          body: { score_id: randomUUID(), player_name: 'legacy', game_id: G(), game_version: '0.0.0', score: 5 },
        });
        expect(res.json().success).toBe(true);
        const bad = await save('0.9', { player_name: 'x', score: '5' });
        expect([bad.statusCode, bad.json()]).toEqual([
          400,
          { success: false, error: 'score must be a number.', code: 'InvalidParameter' },
        ]);
      });

      it('keeps the JSON checks: a NUL in a name is refused with 400 in the envelope', async () => {
        const res = await save('0.9', { player_name: 'a\u0000b', score: 1 });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({ success: false, code: 'InvalidParameter' });
      });

      it('saves with a digest that does not match (a signal, not a refusal)', async () => {
        const res = await save(
          '0.9',
          { player_name: 'signed', score: 3 },
          { 'x-sw-act-tmst': '512', 'x-sw-act-dig': '0'.repeat(32) },
        );
        expect(res.json().success).toBe(true);
      });
    });

    describe('reading', () => {
      beforeAll(async () => {
        await createBoard({ name: 'all', max_entries: null });
        for (let i = 1; i <= 12; i++) await save('0.9', { player_name: `p${i}`, score: i * 10, ldboard_name: 'all' });
        await createBoard({ name: 'Weekly', time_based: 'weekly', timezone: 'UTC' });
      });

      it('max=0 answers all, and a max past the largest page is read as that page', async () => {
        const all = await sw('0.9', 'GET', `/get_scores/${G()}?max=0&ldboard_name=all&period_offset=0`);
        expect(all.json().top_scores).toHaveLength(12);
        expect(all.json().top_scores[0]).toMatchObject({ pn: 'p12', s: 120, position: 1 });
        const huge = await sw('0.9', 'GET', `/get_scores/${G()}?max=99999&ldboard_name=all`);
        expect([huge.statusCode, huge.json().top_scores.length]).toEqual([200, 12]);
        const three = await sw(
          '0.6',
          'GET',
          `/get_top_scores/${G()}?version=1.0&max=3&ldboard_name=all&period_offset=0`,
        );
        expect(three.json().top_scores.map((s: { score: number }) => s.score)).toEqual([120, 110, 100]);
      });

      it('echoes period_offset only when non-zero, reads -1.0, and names time_based only for boards that reset', async () => {
        const now = await sw('0.9', 'GET', `/get_scores/${G()}?max=10&ldboard_name=Weekly&period_offset=0`);
        expect(now.json()).toEqual({
          success: true,
          top_scores: [],
          ld_name: 'Weekly',
          ld_config: { ...MAIN_CONFIG, display_name: 'Weekly', time_based: 'weekly', timezone: 'UTC' },
        });
        // Blank and Null are the plugin's "nothing": the current period (the game API refuses a blank).
        for (const blank of ['', 'Null']) {
          const same = await sw('0.9', 'GET', `/get_scores/${G()}?max=10&ldboard_name=Weekly&period_offset=${blank}`);
          expect(same.json()).toEqual(now.json());
        }
        const past = await sw('0.9', 'GET', `/get_scores/${G()}?max=10&ldboard_name=Weekly&period_offset=-1.0`);
        expect(past.json()).toMatchObject({ success: true, period_offset: -1, ld_name: 'Weekly' });
        const main = (await sw('0.9', 'GET', `/get_scores/${G()}`)).json();
        expect(main).toEqual({ success: true, top_scores: expect.any(Array), ld_name: 'main', ld_config: MAIN_CONFIG });
        expect(main).not.toHaveProperty('period_offset');
      });

      it("answers a player's scores and top score by a percent-encoded name; {} when the player has none", async () => {
        await save('0.9', { player_name: 'HW Fox&Co ü+1', score: 7, ldboard_name: 'all' });
        await save('0.9', { player_name: 'HW Fox&Co ü+1', score: 9, ldboard_name: 'all' });
        const name = encodeURIComponent('HW Fox&Co ü+1');
        const scores = await sw(
          '0.9',
          'GET',
          `/get_scores_by_player/${G()}?max=10&ldboard_name=all&player_name=${name}&period_offset=0`,
        );
        expect(scores.json()).toMatchObject({
          success: true,
          player_name: 'HW Fox&Co ü+1',
          ld_name: 'all',
          ld_config: { insert_opt: 'keep' },
        });
        expect(scores.json().top_scores.map((s: { s: number }) => s.s)).toEqual([9, 7]);
        const top = await sw(
          '0.6',
          'GET',
          `/get_top_score_by_player/${G()}?version=1.0&max=10&ldboard_name=all&player_name=${name}&period_offset=0`,
        );
        expect(top.json().top_score).toMatchObject({
          pn: 'HW Fox&Co ü+1',
          player_name: 'HW Fox&Co ü+1',
          s: 9,
          score: 9,
          position: 13,
        });
        const none = await sw(
          '0.9',
          'GET',
          `/get_top_score_by_player/${G()}?max=10&ldboard_name=all&player_name=nobody&period_offset=0`,
        );
        expect(none.json()).toEqual({
          success: true,
          top_score: {},
          player_name: 'nobody',
          ld_name: 'all',
          ld_config: expect.objectContaining({ insert_opt: 'keep' }),
        });
      });

      it('answers a position for a score id, a value, the legacy alias and for neither field (the value 0)', async () => {
        const top = (await sw('0.9', 'GET', `/get_scores/${G()}?max=3&ldboard_name=all`)).json().top_scores;
        const position = async (line: Line, body: Record<string, unknown>) =>
          (
            await sw(line, 'POST', '/get_score_position', { body: { game_id: G(), ldboard_name: 'all', ...body } })
          ).json();
        expect(await position('0.9', { score_id: top[1].sid })).toEqual({ success: true, position: 2 });
        expect(await position('0.9', { score_value: 115.0 })).toEqual({ success: true, position: 2 });
        expect(await position('0.6', { score: 105, game_version: '1.0' })).toEqual({ success: true, position: 3 });
        const zero = await position('0.9', {});
        const last = (await sw('0.9', 'GET', `/get_scores/${G()}?max=0&ldboard_name=all`)).json().top_scores.length;
        expect(zero).toEqual({ success: true, position: last + 1 });
      });

      it.each([
        ['0.9.7 (Null)', '0.9' as Line, 'Null'],
        ['0.9.0 (<null>)', '0.9' as Line, '<null>'],
        ['0.6.20 (Null, version=)', '0.6' as Line, 'Null'],
      ])('answers scores around a value, best first in each list, for %s', async (_what, line, absent) => {
        const version = line === '0.6' ? 'version=1.0&' : '';
        const res = await sw(
          line,
          'GET',
          `/get_scores_around/${G()}?${version}scores_to_fetch=2&ldboard_name=all&score_id=${encodeURIComponent(absent)}&score_value=65.0`,
        );
        const body = res.json();
        expect(body).toMatchObject({
          success: true,
          score_position: 7,
          ld_name: 'all',
          ld_config: { insert_opt: 'keep' },
        });
        expect(body.scores_above.map((s: { s: number; position: number }) => [s.s, s.position])).toEqual([
          [80, 5],
          [70, 6],
        ]);
        expect(body.scores_below.map((s: { score: number; position: number }) => [s.score, s.position])).toEqual([
          [60, 8],
          [50, 9],
        ]);
      });

      it('answers scores around a saved score id with the value sent as Null', async () => {
        const top = (await sw('0.9', 'GET', `/get_scores/${G()}?max=2&ldboard_name=all`)).json().top_scores;
        const res = await sw(
          '0.9',
          'GET',
          `/get_scores_around/${G()}?scores_to_fetch=3&ldboard_name=all&score_id=${top[1].sid}&score_value=Null`,
        );
        expect(res.json()).toMatchObject({ success: true, score_position: 2 });
        expect(res.json().scores_above.map((s: { s: number }) => s.s)).toEqual([120]);
        expect(res.json().scores_below).toHaveLength(3);
      });

      it('answers an unknown board with 404 in the envelope on every read', async () => {
        for (const url of [
          `/get_scores/${G()}?ldboard_name=nope`,
          `/get_scores_by_player/${G()}?ldboard_name=nope&player_name=a`,
          `/get_top_score_by_player/${G()}?ldboard_name=nope&player_name=a`,
          `/get_scores_around/${G()}?ldboard_name=nope&score_value=1`,
        ]) {
          const res = await sw('0.9', 'GET', url);
          expect([res.statusCode, res.json()]).toEqual([
            404,
            {
              success: false,
              code: 'LeaderboardNotFound',
              error: expect.stringContaining('no leaderboard named "nope"'),
            },
          ]);
        }
      });
    });

    describe('deleting', () => {
      it('refuses delete_score and wipe_leaderboard while client deletes are off', async () => {
        await allowDeletes(false);
        const id = (await save('0.9', { player_name: 'keep', score: 1 })).json().score_id;
        for (const res of [
          await sw('0.9', 'GET', `/delete_score?game_id=${G()}&ldboard_name=main&score_id=${id}`),
          await sw('0.9', 'POST', '/wipe_leaderboard', { body: { game_id: G(), ldboard_name: 'main' } }),
        ]) {
          expect(res.statusCode).toBe(403);
          expect(res.json()).toMatchObject({
            success: false,
            code: 'ClientWritesDisabled',
            error: expect.stringContaining('turned off deleting'),
          });
        }
      });

      it('deletes by id without a board (0.6.20) and wipes a board (0.9.x) when allowed', async () => {
        await allowDeletes(true);
        await createBoard({ name: 'gone', max_entries: null });
        const id = (await save('0.6', { player_name: 'x', score: 1, ldboard_name: 'gone' })).json().score_id;
        await save('0.6', { player_name: 'y', score: 2, ldboard_name: 'gone' });
        const del = await sw('0.6', 'GET', `/delete_score?game_id=${G()}&game_version=1.0&score_id=${id}`);
        expect(del.json()).toEqual({ success: true });
        expect(
          (await sw('0.9', 'GET', `/get_scores/${G()}?ldboard_name=gone`))
            .json()
            .top_scores.map((s: { pn: string }) => s.pn),
        ).toEqual(['y']);
        const wipe = await sw('0.6', 'POST', '/wipe_leaderboard', {
          body: { game_id: G(), game_version: '1.0', ldboard_name: 'gone' },
        });
        expect(wipe.json()).toEqual({ success: true });
        expect((await sw('0.9', 'GET', `/get_scores/${G()}?ldboard_name=gone`)).json().top_scores).toEqual([]);
      });
    });

    describe('the key and the game id', () => {
      it('answers a wrong key with the Forbidden body both lines recognise', async () => {
        const res = await swCall(
          ctx.t,
          { ...ctx.game, api_key: 'howl_wrong' },
          'GET',
          `/get_top_scores/${G()}?max=10`,
          { client: '0.6.20-short' },
        );
        expect(res.statusCode).toBe(403);
        expect(res.json()).toEqual({
          message: 'Forbidden',
          success: false,
          error: expect.stringMatching(/^Forbidden: /),
          code: 'InvalidApiKey',
        });
      });

      it('answers 403 when the path and the header name different games', async () => {
        const res = await sw('0.9', 'GET', '/get_scores/SomeOtherGame0001');
        expect([res.statusCode, res.json().code, res.json().success]).toEqual([403, 'InvalidApiKey', false]);
      });
    });

    it('answers the same ids, names, scores, positions and timestamps as /v1 for the same game', async () => {
      await createBoard({ name: 'both', max_entries: null });
      await save('0.9', { player_name: 'sw-one', score: 30, ldboard_name: 'both', metadata: { a: 1 } });
      await v1('POST', '/v1/leaderboards/both/scores', { body: { player_name: 'v1-two', score: 20 } });
      await save('0.6', { player_name: 'sw-three', score: 25, ldboard_name: 'both' });
      const howl = (await v1('GET', '/v1/leaderboards/both/scores?max=0')).json().scores;
      const silent = (await sw('0.9', 'GET', `/get_scores/${G()}?max=0&ldboard_name=both`)).json().top_scores;
      const pick = (s: Record<string, unknown>) => [
        s.score_id,
        s.player_name,
        s.score,
        s.position,
        s.timestamp,
        s.metadata ?? null,
      ];
      expect(silent.map(pick)).toEqual(howl.map(pick));
      expect(howl.map((s: { engine: number | null }) => s.engine)).toEqual([4, 3, null]);
      const around = (await v1('GET', `/v1/leaderboards/both/around?score=26&count=5`)).json();
      const swAround = (
        await sw(
          '0.9',
          'GET',
          `/get_scores_around/${G()}?scores_to_fetch=5&ldboard_name=both&score_id=Null&score_value=26`,
        )
      ).json();
      expect([swAround.score_position, swAround.scores_above.map(pick), swAround.scores_below.map(pick)]).toEqual([
        around.position,
        around.scores_above.map(pick),
        around.scores_below.map(pick),
      ]);
    });
  });
}

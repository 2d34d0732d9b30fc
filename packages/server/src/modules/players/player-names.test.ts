import { describe, expect, it } from 'vitest';
import { gameCall, STRONG_PASSWORD, uniqueIp } from '../../../test/support/app.js';
import { playerGame } from '../../../test/support/players.js';
import { DIALECTS } from '../../../test/support/services.js';

/** Names that looked like "reuse" on the board and were taken without its session. */
const invisible = [
  ['a zero-width space', 'reuse\u200b'],
  ['a soft hyphen', 're\u00aduse'],
  ['a right-to-left override', '\u202eesuer'],
  ['a byte order mark', 're\ufeffuse'],
  ['a C1 control', 'reuse\u0085'],
  ['a Hangul filler', 'reuse\u3164'],
  ['a half-width Hangul filler', '\uffa0reuse'],
] as const;

for (const { dialect, skip } of DIALECTS) {
  describe.skipIf(skip)(`${dialect}: what a player name may hold`, () => {
    const { ctx, newGame } = playerGame(dialect);
    let game: { game_id: string; api_key: string };
    const v1 = (method: 'GET' | 'POST', url: string, body?: unknown) =>
      gameCall(ctx.t.app, method, url, { apiKey: game.api_key, gameId: game.game_id, body, ip: uniqueIp() });
    const submit = (player_name: string) => v1('POST', '/v1/leaderboards/main/scores', { player_name, score: 5 });
    const register = (player_name: string) =>
      v1('POST', '/v1/players', { player_name, password: STRONG_PASSWORD, confirm_password: STRONG_PASSWORD });
    const scoresOf = async () =>
      (await v1('GET', '/v1/leaderboards/main/scores?max=0'))
        .json()
        .scores.map((s: { player_name: string }) => s.player_name);

    it('registers "reuse" and "José" on a game that requires player sessions', async () => {
      game = await newGame('Names', { reg_type: 'un_pwd', require_player_session: true });
      expect((await register('reuse')).statusCode).toBe(200);
      expect((await register('Jos\u00e9')).statusCode).toBe(200);
    });

    it.each(invisible)('refuses a name with %s with 400 and saves nothing', async (_what, name) => {
      const res = await submit(name);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toEqual({
        code: 'InvalidParameter',
        message: 'player_name cannot contain control or invisible formatting characters.',
        field: 'player_name',
      });
      expect(await scoresOf()).toEqual([]);
    });

    it('refuses a name that mixes Latin and Cyrillic letters (a Cyrillic е in "rеuse")', async () => {
      for (const name of ['r\u0435use', 'reus\u0435', '\u0455cope']) {
        const res = await submit(name);
        expect(res.statusCode, name).toBe(400);
        expect(res.json().error).toMatchObject({
          message: 'player_name cannot mix Latin, Greek and Cyrillic letters.',
          field: 'player_name',
        });
      }
      // One script alone is a name like any other.
      expect((await submit('\u0412\u043e\u043b\u043a')).statusCode).toBe(200);
    });

    it('registers no player named "." or ".." (a browser drops them from a web address, so the dashboard could not manage them); scores under such names still save', async () => {
      for (const name of ['.', '..', ' .. ', '\uff0e\uff0e']) {
        const res = await register(name);
        expect([res.statusCode, res.json().error], name).toEqual([
          400,
          { code: 'InvalidParameter', message: 'player_name cannot be "." or "..".', field: 'player_name' },
        ]);
      }
      // Only new accounts: a game already sending such a name for scores keeps working.
      expect((await submit('..')).statusCode).toBe(200);
      expect(await scoresOf()).toContain('..');
      // Dots with more around them are names like any other.
      expect((await register('...')).statusCode).toBe(200);
    });

    it('compares names after NFKC: full-width "ｒｅｕｓｅ" and a decomposed "José" are the registered players', async () => {
      for (const name of ['\uff52\uff45\uff55\uff53\uff45', 'Jose\u0301']) {
        const res = await submit(name);
        expect([res.statusCode, res.json().error?.code], name).toEqual([401, 'PlayerSessionRequired']);
        const taken = await register(name);
        expect([taken.statusCode, taken.json().error.code], name).toEqual([409, 'PlayerNameTaken']);
      }
      const data = await v1('GET', `/v1/player-data/${encodeURIComponent('\uff52\uff45\uff55\uff53\uff45')}`);
      expect(data.json().player_name).toBe('reuse');
    });

    it('refuses unpaired surrogates with 400 on both databases: no two names collapse or split', async () => {
      for (const escaped of ['reuse\\ud800', 'reuse\\udfff', '\\ud800reuse']) {
        const res = await ctx.t.app.inject({
          method: 'POST',
          url: '/v1/leaderboards/main/scores',
          remoteAddress: uniqueIp(),
          headers: { 'content-type': 'application/json', 'x-api-key': game.api_key, 'x-game-id': game.game_id },
          payload: `{"player_name":"${escaped}","score":1}`,
        });
        expect([res.statusCode, res.json().error.field], escaped).toEqual([400, 'player_name']);
      }
    });

    it('refuses the same characters in other single-line text, such as a game name', async () => {
      const res = await ctx.t.app.inject({
        method: 'POST',
        url: '/api/games',
        cookies: { howl_session: ctx.cookie },
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ name: 'Wolf\u200bRun' }),
      });
      expect(res.json().error).toEqual({
        code: 'InvalidParameter',
        message: 'The game name cannot contain control or invisible formatting characters.',
        field: 'name',
      });
    });
  });
}

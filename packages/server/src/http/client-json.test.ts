import { describe, expect, it } from 'vitest';
import { uniqueEmail, uniqueIp } from '../../test/support/app.js';
import { playerGame } from '../../test/support/players.js';
import { DIALECTS } from '../../test/support/services.js';

/** `{"a":{"a":…{}…}}` nesting `depth` objects. */
const nested = (depth: number) => '{"a":'.repeat(depth - 1) + '{}' + '}'.repeat(depth - 1);

for (const { dialect, skip } of DIALECTS) {
  describe.skipIf(skip)(`${dialect}: one rule for every JSON body a client sends`, () => {
    const { ctx, fresh } = playerGame(dialect);
    /** Sends the JSON text as it is: numbers like 1e309 and lone surrogates cannot survive JSON.stringify. */
    const raw = (method: 'POST' | 'PUT', url: string, payload: string, game = true) =>
      ctx.t.app.inject({
        method,
        url,
        remoteAddress: uniqueIp(),
        headers: {
          'content-type': 'application/json',
          ...(game ? { 'x-api-key': ctx.game.api_key, 'x-game-id': ctx.game.game_id } : {}),
        },
        ...(game ? {} : { cookies: { howl_session: ctx.cookie } }),
        payload,
      });
    const score = (metadata: string) =>
      raw('POST', '/v1/leaderboards/main/scores', `{"player_name":"${fresh().name}","score":1,"metadata":${metadata}}`);
    const playerData = (data: string) => raw('PUT', `/v1/player-data/${fresh().name}`, `{"player_data":${data}}`);
    const refused = (res: { statusCode: number; json(): { error: unknown } }) => [res.statusCode, res.json().error];

    describe('depth: at most 64 levels of objects and arrays below the body', () => {
      it('takes score metadata nested 64 levels and refuses 65 and 2,000 with 400 and the field', async () => {
        expect((await score(nested(64))).statusCode).toBe(200);
        for (const depth of [65, 2000]) {
          expect(refused(await score(nested(depth))), `depth ${depth}`).toEqual([
            400,
            {
              code: 'InvalidParameter',
              message: 'metadata can nest objects and arrays at most 64 levels deep.',
              field: 'metadata',
            },
          ]);
        }
      });

      it('takes player data nested 64 levels and refuses 65 with the same rule', async () => {
        expect((await playerData(nested(64))).statusCode).toBe(200);
        expect(refused(await playerData(nested(65)))).toEqual([
          400,
          {
            code: 'InvalidParameter',
            message: 'player_data can nest objects and arrays at most 64 levels deep.',
            field: 'player_data',
          },
        ]);
      });
    });

    describe('numbers: JSON.parse turns 1e309 into Infinity, which no database stores', () => {
      it.each(['1e309', '-1e309', '[1,2,1e400]'])(
        'refuses %s in player data with 400 and stores nothing',
        async (n) => {
          const name = fresh().name;
          const res = await raw('PUT', `/v1/player-data/${name}`, `{"player_data":{"hp":${n}}}`);
          expect(res.statusCode).toBe(400);
          expect(res.json().error).toMatchObject({
            code: 'InvalidParameter',
            field: expect.stringMatching(/^player_data\.hp/),
          });
          expect(res.json().error.message).toMatch(/is too large a number/);
          const stored = await ctx.t.database.db
            .selectFrom('player_data')
            .select('data')
            .where('player_name', '=', name)
            .execute();
          expect(stored).toEqual([]);
        },
      );

      it('still takes the largest finite double', async () => {
        expect((await playerData('{"hp":1.7976931348623157e308}')).statusCode).toBe(200);
      });
    });

    describe('text: NUL and unpaired surrogates are refused on both databases', () => {
      it('refuses NUL in a contact message with 400 and stores nothing', async () => {
        const email = uniqueEmail('nul');
        const res = await raw('POST', '/api/contact', `{"email":"${email}","message":"hi\\u0000there"}`, false);
        expect(refused(res)).toEqual([
          400,
          { code: 'InvalidParameter', message: 'message cannot contain the NUL character.', field: 'message' },
        ]);
        const rows = await ctx.t.database.db
          .selectFrom('contact_messages')
          .select('id')
          .where('message', 'like', 'hi%there')
          .execute();
        expect(rows).toEqual([]);
      });

      it('refuses NUL in a player mail body and keeps the old one', async () => {
        const url = `/api/games/${ctx.game.game_id}/player-auth/emails`;
        const res = await raw('PUT', url, '{"confirmation_body":"Code: {{code}}\\u0000"}', false);
        expect(refused(res)).toEqual([
          400,
          {
            code: 'InvalidParameter',
            message: 'confirmation_body cannot contain the NUL character.',
            field: 'confirmation_body',
          },
        ]);
      });

      it('refuses NUL in a key of player data, naming where it is', async () => {
        const res = await playerData('{"inv":{"a\\u0000b":1}}');
        expect(res.statusCode).toBe(400);
        expect(res.json().error.field).toBe('player_data.inv');
      });

      it.each(['\\ud800', 'a\\udc00b', '\\udc00\\ud800'])(
        'refuses the unpaired surrogate %s in any string',
        async (s) => {
          const res = await playerData(`{"note":"${s}"}`);
          expect(refused(res)).toEqual([
            400,
            {
              code: 'InvalidParameter',
              message: 'player_data.note is not well-formed Unicode text (an unpaired surrogate).',
              field: 'player_data.note',
            },
          ]);
        },
      );

      it('walks a wide body to its last value: 100,000 empty objects and arrays, then a problem named by its index', async () => {
        const wide = (last: string) => `{"w":[${'{},[],'.repeat(50_000)}${last}]}`;
        // A clean wide body passes the rule and meets the player data size limit after it.
        const tooLarge = [413, expect.objectContaining({ code: 'PlayerDataTooLarge' })];
        expect(refused(await playerData(wide('{"a":"b"}')))).toEqual(tooLarge);
        expect(refused(await playerData(wide('{"a":"x\\u0000"}')))).toEqual([
          400,
          {
            code: 'InvalidParameter',
            message: 'player_data.w.100000.a cannot contain the NUL character.',
            field: 'player_data.w.100000.a',
          },
        ]);
        expect(refused(await playerData(wide(nested(63))))[1]).toMatchObject({ field: 'player_data' });
        expect(refused(await playerData(wide(nested(62))))).toEqual(tooLarge);
      });

      it('takes a surrogate pair (an emoji) written as escapes', async () => {
        const res = await playerData('{"note":"\\ud83d\\udc3a"}');
        expect(res.statusCode).toBe(200);
        expect(res.json().player_data.note).toBe('🐺');
      });
    });
  });
}

import { describe, expect, it } from 'vitest';
import { STRONG_PASSWORD } from '../../../test/support/app.js';
import { playerGame } from '../../../test/support/players.js';
import { DIALECTS } from '../../../test/support/services.js';
import { swCall, swFailure, type SwClient, type SwGame } from '../../../test/support/silentwolf.js';

for (const { dialect, skip } of DIALECTS) {
  describe.skipIf(skip)(`${dialect}: SilentWolf player data calls`, () => {
    const { ctx, newGame, settings, v1, fresh, loggedIn } = playerGame(dialect);
    const game = (g?: SwGame) => g ?? ctx.game;
    const get = (name: string, opts: { client?: SwClient; game?: SwGame } = {}) =>
      swCall(
        ctx.t,
        game(opts.game),
        'GET',
        `/get_player_data/${game(opts.game).game_id}/${encodeURIComponent(name)}`,
        opts,
      );
    const push = (body: Record<string, unknown>, opts: { client?: SwClient; token?: string; game?: SwGame } = {}) =>
      swCall(ctx.t, game(opts.game), 'POST', '/push_player_data', { body, ...opts });
    const remove = (body: Record<string, unknown>, opts: { client?: SwClient; token?: string } = {}) =>
      swCall(ctx.t, ctx.game, 'POST', '/remove_player_data', { body, ...opts });

    it('answers {} for a player with no data, the name as sent (spaces, & and UTF-8)', async () => {
      const name = `HW Fox&Co ü+1 ${fresh().name}`;
      for (const client of ['0.9.7', '0.6.20'] as const) {
        const res = await get(name, { client });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ success: true, player_name: name, player_data: {} });
      }
    });

    it('refuses to save under a name the plugin cannot read back (#, ?, / or %), writing nothing', async () => {
      const other = `A${fresh().name}`;
      await push({ player_name: other, player_data: { mine: true }, overwrite: true });
      for (const name of [`${other}#B`, `${other}?B`, `${other}/B`, `100%${other}`]) {
        const error = swFailure(
          await push({ player_name: name, player_data: { lost: 1 }, overwrite: true }),
          400,
          'InvalidParameter',
        );
        expect(error).toBe(
          'The SilentWolf plugin cannot read back data saved under a player name holding #, ?, / or %, so none is saved. Use another name, or the Howl plugin.',
        );
        expect((await v1('GET', `/v1/player-data/${encodeURIComponent(name)}`)).json().version).toBe(0);
      }
      // What a read of `A#B` reaches, A's data, is untouched.
      expect((await get(other)).json().player_data).toEqual({ mine: true });
      // Data saved under such a name before (or through /v1) can still be removed: the name comes in the body.
      const old = `${other}#old`;
      const put = await v1('PUT', `/v1/player-data/${encodeURIComponent(old)}`, { body: { player_data: { a: 1 } } });
      expect(put.statusCode).toBe(200);
      expect((await remove({ player_name: old })).json()).toMatchObject({ success: true, player_data: {} });
      expect((await v1('GET', `/v1/player-data/${encodeURIComponent(old)}`)).json().version).toBe(0);
      // A full-width ＃ is read back as it was saved.
      const wide = `${other}＃wide`;
      expect((await push({ player_name: wide, player_data: { w: 1 }, overwrite: true })).json().success).toBe(true);
      expect((await get(wide)).json().player_data).toEqual({ w: 1 });
    });

    it('replaces with overwrite true, merges top-level keys with overwrite false, and /v1 reads the same document', async () => {
      const name = `Wolf ${fresh().name}`;
      const first = { Money: 10, Weapons: ['axe'], stats: { strength: 3 } };
      const saved = await push({ player_name: name, player_data: first, overwrite: true }, { client: '0.6.20' });
      expect(saved.json()).toEqual({ success: true, player_name: name });
      expect((await get(name)).json()).toEqual({ success: true, player_name: name, player_data: first });

      const merged = await push({ player_name: name, player_data: { Money: 12.5, gold: 3 }, overwrite: false });
      expect(merged.json()).toEqual({ success: true, player_name: name });
      const expected = { Money: 12.5, Weapons: ['axe'], stats: { strength: 3 }, gold: 3 };
      expect((await get(name)).json().player_data).toEqual(expected);
      const viaV1 = await v1('GET', `/v1/player-data/${encodeURIComponent(name)}`);
      expect(viaV1.json().player_data).toEqual(expected);

      await push({ player_name: name, player_data: { only: true }, overwrite: true });
      expect((await get(name)).json().player_data).toEqual({ only: true });

      // And the other way: what /v1 writes, the plugin reads.
      await v1('PUT', `/v1/player-data/${encodeURIComponent(name)}`, { body: { player_data: { from: 'v1' } } });
      expect((await get(name, { client: '0.6.20' })).json().player_data).toEqual({ from: 'v1' });
    });

    it('removes the listed top-level keys and answers what remains; {}, "" and no player_data remove everything', async () => {
      const name = fresh().name;
      const full = { Weapons: ['axe'], Money: 5, item: 'key', keep: 1 };
      await push({ player_name: name, player_data: full, overwrite: true });
      const weapons = await remove({ player_name: name, player_data: { Weapons: [] } });
      expect(weapons.json()).toEqual({
        success: true,
        player_name: name,
        player_data: { Money: 5, item: 'key', keep: 1 },
      });
      const two = await remove({ player_name: name, player_data: { Money: 0, item: '' } });
      expect(two.json().player_data).toEqual({ keep: 1 });

      for (const [client, everything] of [
        ['0.9.7', {}],
        ['0.6.20', ''],
        ['0.9.7', undefined],
      ] as const) {
        await push({ player_name: name, player_data: full, overwrite: true });
        const body = { player_name: name, ...(everything === undefined ? {} : { player_data: everything }) };
        const res = await remove(body, { client });
        expect(res.json(), JSON.stringify(everything)).toEqual({ success: true, player_name: name, player_data: {} });
        expect((await get(name)).json().player_data).toEqual({});
        expect((await v1('GET', `/v1/player-data/${encodeURIComponent(name)}`)).json().version).toBe(0);
      }
    });

    it('refuses data that is not an object, and a missing name, with success:false and a sentence', async () => {
      const name = fresh().name;
      expect(
        swFailure(await push({ player_name: name, player_data: 'text', overwrite: true }), 400, 'InvalidParameter'),
      ).toBe('player_data must be a JSON object.');
      swFailure(await push({ player_data: {}, overwrite: true }), 400, 'InvalidParameter');
      swFailure(await remove({ player_name: name, player_data: 42 }), 400, 'InvalidParameter');
      expect((await get(name)).json().player_data).toEqual({});
    });

    it("writes under a registered player's name need that player's session when the game asks for it (x-sw-access-token)", async () => {
      await settings({ require_player_session: true });
      try {
        const p = await loggedIn('sw-writer');
        const other = await loggedIn('sw-other');
        const body = { player_name: p.name, player_data: { a: 1 }, overwrite: true };
        swFailure(await push(body), 401, 'PlayerSessionRequired');
        swFailure(await push(body, { token: other.access_token }), 401, 'PlayerSessionRequired');
        swFailure(await remove({ player_name: p.name, player_data: {} }), 401, 'PlayerSessionRequired');
        // The token 0.9.x got from login_player.
        const login = await swCall(ctx.t, ctx.game, 'POST', '/login_player', {
          body: { username: p.name, password: STRONG_PASSWORD, remember_me: 'false' },
        });
        const swtoken = login.json().swtoken as string;
        expect((await push(body, { token: swtoken })).json()).toEqual({ success: true, player_name: p.name });
        expect(
          (await remove({ player_name: p.name, player_data: { a: 0 } }, { token: swtoken })).json().player_data,
        ).toEqual({});
        // Reads stay open, and names nobody registered stay open to every client.
        expect((await get(p.name)).json().success).toBe(true);
        const open = await push({ player_name: fresh('unregistered').name, player_data: { b: 2 }, overwrite: true });
        expect(open.json().success).toBe(true);
      } finally {
        await settings({ require_player_session: false });
      }
    });

    it('player data works while player accounts are off, as on /v1', async () => {
      const off = await newGame('SW data only', { enabled: false, require_player_session: true });
      const name = fresh().name;
      const saved = await push({ player_name: name, player_data: { x: 1 }, overwrite: true }, { game: off });
      expect(saved.json()).toEqual({ success: true, player_name: name });
      expect((await get(name, { game: off })).json().player_data).toEqual({ x: 1 });
    });

    it("keeps games apart: another game's key cannot read or write this game's player data", async () => {
      const name = fresh().name;
      await push({ player_name: name, player_data: { secret: 1 }, overwrite: true });
      const other = await newGame('SW data other');
      const crossed = { game_id: ctx.game.game_id, api_key: other.api_key };
      const read = await get(name, { game: crossed });
      expect(read.statusCode).toBe(403);
      expect(read.json()).toMatchObject({ message: 'Forbidden', success: false, code: 'InvalidApiKey' });
      expect((await push({ player_name: name, player_data: {}, overwrite: true }, { game: crossed })).statusCode).toBe(
        403,
      );
      // The other game's own id in the header, this game's in the path.
      const mixed = await swCall(
        ctx.t,
        other,
        'GET',
        `/get_player_data/${ctx.game.game_id}/${encodeURIComponent(name)}`,
      );
      expect(mixed.statusCode).toBe(403);
      // Under its own id, the other game has no data of that name.
      expect((await get(name, { game: other })).json().player_data).toEqual({});
      expect((await get(name)).json().player_data).toEqual({ secret: 1 });
    });
  });
}

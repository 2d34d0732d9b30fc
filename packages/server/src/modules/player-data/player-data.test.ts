import { describe, expect, it } from 'vitest';
import { playerGame } from '../../../test/support/players.js';
import { DIALECTS } from '../../../test/support/services.js';

const LIMIT = 40_960;
/** A document of exactly `bytes` bytes of compact JSON: {"pad":"xxx…"}. */
const docOf = (bytes: number) => ({ pad: 'x'.repeat(bytes - '{"pad":""}'.length) });

for (const { dialect, skip } of DIALECTS) {
  describe.skipIf(skip)(`${dialect}: player data through the game API`, () => {
    const { ctx, console, settings, v1, fresh, register, loggedIn } = playerGame(dialect);
    const path = (player: string, character?: string) =>
      `/v1/player-data/${encodeURIComponent(player)}${character === undefined ? '' : `/characters/${encodeURIComponent(character)}`}`;
    const put = (player: string, body: Record<string, unknown>, opts: { character?: string; token?: string } = {}) =>
      v1('PUT', path(player, opts.character), { body, ...(opts.token ? { token: opts.token } : {}) });
    const get = (player: string, character?: string) => v1('GET', path(player, character));
    /** A put of the body's text as it is, with this Content-Type. */
    const putText = (player: string, type: string, payload: string) =>
      ctx.t.app.inject({
        method: 'PUT',
        url: path(player),
        headers: { 'x-api-key': ctx.game.api_key, 'x-game-id': ctx.game.game_id, 'content-type': type },
        payload,
      });

    it('answers {} and version 0 for a player without data', async () => {
      const res = await get('nobody-yet');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ player_name: 'nobody-yet', player_data: {}, version: 0, updated_at: null });
    });

    it('replaces, merges and reads back the stored JSON text as it is', async () => {
      const name = fresh().name;
      const first = await put(name, { player_data: { level: 3, inventory: ['sword', { gem: 'ruby' }], z: null } });
      expect(first.statusCode).toBe(200);
      expect(first.json()).toEqual({
        player_name: name,
        player_data: { level: 3, inventory: ['sword', { gem: 'ruby' }], z: null },
        version: 1,
        updated_at: new Date(ctx.t.clock.now()).toISOString(),
      });
      const merged = await put(name, { player_data: { level: 4, gold: 10 }, overwrite: false });
      expect(merged.json().player_data).toEqual({ level: 4, inventory: ['sword', { gem: 'ruby' }], z: null, gold: 10 });
      expect(merged.json().version).toBe(2);
      // Key order as stored: the text is sent back without being parsed and re-serialised.
      expect((await get(name)).body).toContain(
        '"player_data":{"level":4,"inventory":["sword",{"gem":"ruby"}],"z":null,"gold":10}',
      );

      const replaced = await put(name, { player_data: { fresh: true } });
      expect(replaced.json()).toMatchObject({ player_data: { fresh: true }, version: 3 });
      expect((await get(name)).json()).toEqual(replaced.json());
    });

    it('deletes listed top-level keys, or the whole document, and answers what remains', async () => {
      const name = fresh().name;
      await put(name, { player_data: { a: 1, b: 2, c: 3 } });
      const some = await v1('DELETE', path(name), { body: { keys: ['a', 'c', 'not-there'] } });
      expect(some.statusCode).toBe(200);
      expect(some.json()).toMatchObject({ player_data: { b: 2 }, version: 2 });
      const all = await v1('DELETE', path(name));
      expect(all.json()).toEqual({ player_name: name, player_data: {}, version: 0, updated_at: null });
      expect((await get(name)).json().version).toBe(0);
    });

    it('deletes with if_version only from that version, and refuses a stale one writing nothing', async () => {
      const name = fresh().name;
      await put(name, { player_data: { a: 1, b: 2 } });
      await put(name, { player_data: { c: 3 }, overwrite: false });
      const stale = await v1('DELETE', path(name), { body: { if_version: 1 } });
      expect(stale.statusCode).toBe(409);
      expect(stale.json().error).toMatchObject({ code: 'VersionConflict', current_version: 2 });
      expect((await v1('DELETE', path(name), { body: { keys: ['a'], if_version: 1 } })).statusCode).toBe(409);
      expect((await get(name)).json()).toMatchObject({ player_data: { a: 1, b: 2, c: 3 }, version: 2 });

      const some = await v1('DELETE', path(name), { body: { keys: ['a'], if_version: 2 } });
      expect(some.json()).toMatchObject({ player_data: { b: 2, c: 3 }, version: 3 });
      const all = await v1('DELETE', path(name), { body: { if_version: 3 } });
      expect(all.json()).toMatchObject({ player_data: {}, version: 0 });
    });

    it('lets one of several conditional deletes and puts of one version through at once', async () => {
      const name = fresh().name;
      await put(name, { player_data: { a: 1 } });
      const answers = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          i % 2
            ? v1('DELETE', path(name), { body: { if_version: 1 } })
            : put(name, { player_data: { by: i }, if_version: 1 }),
        ),
      );
      const statuses = answers.map((r) => r.statusCode).sort();
      expect(statuses).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
      const winner = answers.find((r) => r.statusCode === 200)!.json();
      expect((await get(name)).json()).toMatchObject({ player_data: winner.player_data, version: winner.version });
    });

    // A misspelt field would otherwise be ignored: `key` would delete the whole document, `overWrite` replace it.
    it.each([
      ['DELETE' as const, { key: ['gold'] }, 'key'],
      ['DELETE' as const, { keys: ['gold'], ifVersion: 1 }, 'ifVersion'],
      ['PUT' as const, { player_data: { xp: 5 }, overWrite: false }, 'overWrite'],
    ])('refuses a %s with a field it does not take (%j), writing nothing', async (method, body, field) => {
      const name = fresh().name;
      await put(name, { player_data: { gold: 1, lvl: 2 } });
      const res = await v1(method, path(name), { body });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toEqual({
        code: 'InvalidParameter',
        message: `${field} is not a field of this request.`,
        field,
      });
      expect((await get(name)).json()).toMatchObject({ player_data: { gold: 1, lvl: 2 }, version: 1 });
    });

    it('keeps characters apart from the player, lists them, and deletes one without the others', async () => {
      const name = fresh().name;
      await put(name, { player_data: { account: 'own' } });
      await put(name, { player_data: { class: 'mage' } }, { character: 'Zed' });
      await put(name, { player_data: { class: 'rogue' } }, { character: 'Ann' });
      const list = await v1('GET', `${path(name)}/characters`);
      expect(list.json()).toEqual({ player_name: name, characters: ['Ann', 'Zed'] });
      const zed = await get(name, 'Zed');
      expect(zed.json()).toMatchObject({
        player_name: name,
        character: 'Zed',
        player_data: { class: 'mage' },
        version: 1,
      });
      await v1('DELETE', path(name, 'Zed'));
      expect((await v1('GET', `${path(name)}/characters`)).json().characters).toEqual(['Ann']);
      expect((await get(name)).json().player_data).toEqual({ account: 'own' });
    });

    it('keeps game state under the reserved name __game__, which no player may register', async () => {
      expect((await put('__game__', { player_data: { season: 4 } })).statusCode).toBe(200);
      expect((await get('__game__')).json().player_data).toEqual({ season: 4 });
      const res = await register('__game__', 'game@example.com');
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toContain('reserved');
    });

    it(`stores a document of exactly ${LIMIT} bytes and refuses one byte more (413), writing nothing`, async () => {
      const name = fresh().name;
      expect((await put(name, { player_data: docOf(LIMIT) })).json().version).toBe(1);
      const over = await put(name, { player_data: docOf(LIMIT + 1) });
      expect(over.statusCode).toBe(413);
      expect(over.json().error).toMatchObject({
        code: 'PlayerDataTooLarge',
        message: `This player data would be ${LIMIT + 1} bytes; the limit is ${LIMIT} bytes. Nothing was saved.`,
      });
      const after = (await get(name)).json();
      expect(after.version).toBe(1);
      expect(JSON.stringify(after.player_data).length).toBe(LIMIT);
    });

    it('refuses a merge that would grow the stored document past the limit, and counts UTF-8 bytes', async () => {
      const name = fresh().name;
      await put(name, { player_data: docOf(LIMIT - 20) });
      const grow = await put(name, { player_data: { more: 'y'.repeat(20) }, overwrite: false });
      expect(grow.statusCode).toBe(413);
      expect(grow.json().error.code).toBe('PlayerDataTooLarge');
      expect((await get(name)).json().version).toBe(1);
      // 'é' is two bytes: 20,480 of them are 40,960 bytes of text alone.
      const wide = await put(fresh().name, { player_data: { t: 'é'.repeat(LIMIT / 2) } });
      expect(wide.statusCode).toBe(413);
    });

    it('refuses a stale if_version with 409 VersionConflict and the current version', async () => {
      const name = fresh().name;
      expect((await put(name, { player_data: { n: 1 }, if_version: 0 })).statusCode).toBe(200);
      const stale = await put(name, { player_data: { n: 2 }, if_version: 0 });
      expect(stale.statusCode).toBe(409);
      expect(stale.json().error).toMatchObject({ code: 'VersionConflict', current_version: 1 });
      expect((await put(name, { player_data: { n: 2 }, if_version: 1 })).json().version).toBe(2);
      expect((await get(name)).json().player_data).toEqual({ n: 2 });
    });

    it('keeps every key of parallel merges of different keys', async () => {
      const name = fresh().name;
      const results = await Promise.all(
        Array.from({ length: 20 }, (_, i) => put(name, { player_data: { [`k${i}`]: i }, overwrite: false })),
      );
      expect(results.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
      const stored = (await get(name)).json();
      expect(stored.version).toBe(20);
      expect(Object.keys(stored.player_data).sort()).toEqual(Array.from({ length: 20 }, (_, i) => `k${i}`).sort());
    });

    it('refuses documents nested deeper than 64 levels with 400, however deep, and stores 64', async () => {
      const nested = (depth: number) => `{"player_data":${'['.repeat(depth - 1)}{}${']'.repeat(depth - 1)}}`;
      const raw = (body: string) =>
        ctx.t.app.inject({
          method: 'PUT',
          url: path(fresh().name),
          headers: { 'x-api-key': ctx.game.api_key, 'x-game-id': ctx.game.game_id, 'content-type': 'application/json' },
          payload: body,
        });
      expect((await raw(`{"player_data":{"a":${nested(63).slice(15, -1)}}}`)).statusCode).toBe(200);
      for (const depth of [66, 5000, 200_000]) {
        const res = await raw(`{"player_data":{"a":${nested(depth).slice(15, -1)}}}`);
        expect(res.statusCode, `depth ${depth}`).toBe(400);
        expect(res.json().error.code).toBe('InvalidParameter');
      }
    });

    it('refuses characters under the game-state name', async () => {
      const res = await put('__game__', { player_data: { slot: 1 } }, { character: 'slot' });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'InvalidParameter', field: 'player' });
    });

    it('gives a name longer than 100 characters the name rule, not a router error', async () => {
      const res = await get('x'.repeat(101));
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toBe('player_name can be at most 100 characters.');
    });

    it.each([
      ['no player_data', {}, 'player_data'],
      ['player_data that is a list', { player_data: [1, 2] }, 'player_data'],
      ['player_data that is text', { player_data: 'x' }, 'player_data'],
      ['overwrite that is text', { player_data: {}, overwrite: 'no' }, 'overwrite'],
      ['a negative if_version', { player_data: {}, if_version: -1 }, 'if_version'],
    ])('answers 400 InvalidParameter for %s', async (_what, body, field) => {
      const res = await put('someone', body);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'InvalidParameter', field });
    });

    // Each says what is wrong in the field's own name, not in the validation library's terms.
    it.each([
      ['player_data that is a list', { player_data: [1, 2] }, 'player_data must be a JSON object.'],
      ['a negative if_version', { player_data: {}, if_version: -1 }, 'if_version must be a whole number, 0 or more.'],
      ['overwrite that is text', { player_data: {}, overwrite: 'no' }, 'overwrite must be true or false.'],
    ])('words the refusal of %s for a person', async (_what, body, message) => {
      expect((await put('someone', body)).json().error.message).toBe(message);
    });

    it("names the character, not the player, when a character's name is too long", async () => {
      const res = await put('someone', { player_data: {} }, { character: 'c'.repeat(101) });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({
        field: 'character',
        message: 'character can be at most 100 characters.',
      });
    });

    it('says which keys to delete must be text', async () => {
      const res = await v1('DELETE', path('someone'), { body: { keys: ['gold', 2] } });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toEqual({ code: 'InvalidParameter', message: 'keys.1 must be text.', field: 'keys.1' });
    });

    it('refuses a __proto__ key as such, not as JSON that is not valid', async () => {
      const res = await putText('someone', 'application/json', '{"player_data":{"__proto__":{"admin":true}}}');
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toEqual({
        code: 'InvalidParameter',
        message: 'The request body cannot use __proto__ as a key, nor constructor holding a prototype key.',
      });
      expect((await get('someone')).json().player_data).not.toHaveProperty('admin');
    });

    it('answers a JSON body sent as text/plain with 415 UnsupportedMediaType, writing nothing', async () => {
      const res = await putText('plain-text', 'text/plain', '{"player_data":{"gold":1}}');
      expect(res.statusCode).toBe(415);
      expect(res.json().error).toEqual({
        code: 'UnsupportedMediaType',
        message: 'Send the request body as JSON with Content-Type: application/json.',
      });
      expect((await get('plain-text')).json()).toMatchObject({ player_data: {}, version: 0 });
    });

    it("needs the player's session to write under a registered name when require_player_session is on; reads stay open", async () => {
      const owner = await loggedIn('data-owner');
      await settings({ require_player_session: true });
      try {
        const refused = await put(owner.name, { player_data: { x: 1 } });
        expect(refused.statusCode).toBe(401);
        expect(refused.json().error.code).toBe('PlayerSessionRequired');
        const character = await put(owner.name, { player_data: { x: 1 } }, { character: 'Hero' });
        expect(character.json().error.code).toBe('PlayerSessionRequired');
        expect((await v1('DELETE', path(owner.name))).json().error.code).toBe('PlayerSessionRequired');
        expect((await put(owner.name, { player_data: { x: 1 } }, { token: owner.access_token })).statusCode).toBe(200);
        expect((await get(owner.name)).json().player_data).toEqual({ x: 1 });
        expect((await put('guest-without-account', { player_data: { x: 1 } })).statusCode).toBe(200);
      } finally {
        await settings({ require_player_session: false });
      }
    });

    it('shows player data in the players list, lists data-only names, and deletes the data with the account', async () => {
      const p = await loggedIn('listed');
      await put(p.name, { player_data: { rank: 'gold' } });
      await put(p.name, { player_data: { hp: 3 } }, { character: 'Hero' });
      const dataOnly = `${p.name}-data-only`;
      await put(dataOnly, { player_data: { guest: true } });
      await put(dataOnly, { player_data: { hp: 2 } }, { character: 'Rogue' });
      const all: { player_name: string }[] = [];
      let cursor: string | null = null;
      do {
        const page: { players: { player_name: string }[]; cursor: string | null } = (
          await console('GET', `/players${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`)
        ).json();
        all.push(...page.players);
        cursor = page.cursor;
      } while (cursor);
      expect(all.find((x) => x.player_name === p.name)).toMatchObject({
        player_data: { rank: 'gold' },
        state: 'CONFIRMED',
      });
      expect(all.find((x) => x.player_name === dataOnly)).toEqual({
        id: null,
        player_name: dataOnly,
        email: null,
        enabled: false,
        state: null,
        created_at: null,
        player_data: { guest: true },
      });
      expect(all.some((x) => x.player_name === '__game__')).toBe(false);

      expect((await console('DELETE', `/players/${encodeURIComponent(p.name)}`)).statusCode).toBe(200);
      expect((await get(p.name)).json().version).toBe(0);
      expect((await get(p.name, 'Hero')).json().version).toBe(0);
      // A name with data but no account can be deleted from the console too.
      expect((await console('DELETE', `/players/${encodeURIComponent(dataOnly)}`)).statusCode).toBe(200);
      expect((await get(dataOnly)).json().version).toBe(0);
      expect((await get(dataOnly, 'Rogue')).json().version).toBe(0);
      expect((await console('DELETE', `/players/${encodeURIComponent(dataOnly)}`)).json().error.code).toBe(
        'PlayerNotFound',
      );
    });
  });
}

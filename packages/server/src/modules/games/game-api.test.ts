import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, gameCall, signedInDeveloper, startTestApp, uniqueIp, type TestApp } from '../../../test/support/app.js';
import { DIALECTS } from '../../../test/support/services.js';

for (const { dialect, skip } of DIALECTS) {
  describe.skipIf(skip)(`${dialect}: the game API's front door (/v1)`, () => {
    let t: TestApp;
    let game: { game_id: string; api_key: string };
    let cookie: string;
    beforeAll(async () => {
      t = await startTestApp({
        dialect,
        env: { GAME_API_REQUESTS_PER_KEY_PER_MINUTE: '20', GAME_API_REQUESTS_PER_IP_PER_MINUTE: '8' },
      });
      cookie = (await signedInDeveloper(t)).cookie;
      game = (await call(t.app, 'POST', '/api/games', { body: { name: 'Front door' }, cookie })).json();
    });
    afterAll(() => t?.close());

    const ping = (opts: Parameters<typeof gameCall>[3] = {}) =>
      gameCall(t.app, 'GET', '/v1/ping', { apiKey: game.api_key, gameId: game.game_id, ...opts });

    it('GET /v1/ping answers the game for a valid pair', async () => {
      const res = await ping();
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ game_id: game.game_id, name: 'Front door' });
    });

    it.each([
      ['no headers', {}],
      ['no key', { gameId: 'x', apiKey: '' }],
      ['a wrong key', { apiKey: 'howl_wrong' }],
      ['an unknown game id', { gameId: 'no-such-game' }],
    ])('answers 403 InvalidApiKey for %s', async (_what, opts) => {
      const res = await gameCall(t.app, 'GET', '/v1/ping', {
        apiKey: game.api_key,
        gameId: game.game_id,
        ...opts,
        ...(Object.keys(opts).length === 0 ? { apiKey: undefined, gameId: undefined } : {}),
      });
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe('InvalidApiKey');
    });

    it("refuses another game's key for this game id", async () => {
      const other = (await call(t.app, 'POST', '/api/games', { body: { name: 'Other' }, cookie })).json();
      const res = await ping({ apiKey: other.api_key });
      expect([res.statusCode, res.json().error.code]).toEqual([403, 'InvalidApiKey']);
    });

    it('records the newest plugin version and engine clients report; older clients and malformed values do not move it', async () => {
      const details = async () => (await call(t.app, 'GET', `/api/games/${game.game_id}`, { cookie })).json();
      await ping({ headers: { 'x-howl-plugin-version': '0.6.20', 'x-howl-engine': '3.5.3' } });
      expect(await details()).toMatchObject({ latest_plugin_version: '0.6.20', latest_engine: '3.5.3' });
      await ping({ headers: { 'x-howl-plugin-version': '0.9.7', 'x-howl-engine': '4.2.1' } });
      expect(await details()).toMatchObject({ latest_plugin_version: '0.9.7', latest_engine: '4.2.1' });
      await ping({ headers: { 'x-howl-plugin-version': '0.6.20', 'x-howl-engine': '<script>' } });
      expect(await details()).toMatchObject({ latest_plugin_version: '0.9.7', latest_engine: '4.2.1' });
      await ping({ headers: { 'x-howl-plugin-version': '0.10.0' } });
      expect(await details()).toMatchObject({ latest_plugin_version: '0.10.0' });
    });

    it('answers a CORS preflight with the game API headers, without a key', async () => {
      const res = await t.app.inject({
        method: 'OPTIONS',
        url: '/v1/ping',
        headers: {
          origin: 'https://mygame.example',
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'x-api-key,x-game-id,x-howl-plugin-version',
        },
      });
      expect(res.statusCode).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      const allowed = String(res.headers['access-control-allow-headers']).split(/,\s*/);
      expect(allowed).toEqual(
        expect.arrayContaining(['x-api-key', 'x-game-id', 'x-howl-plugin-version', 'x-howl-engine']),
      );
      // A web export sends what the plugin sends: a header the preflight refuses fails every call.
      const sent = ['godot3', 'godot4'].flatMap((engine) => {
        const source = readFileSync(
          new URL(`../../../../../plugins/${engine}/addons/howl/http.gd`, import.meta.url),
          'utf8',
        );
        return [...source.matchAll(/"([a-z-]+): "/g)].map((m) => m[1]!);
      });
      expect(sent).toContain('x-howl-game-version');
      expect(allowed).toEqual(expect.arrayContaining(sent.filter((h) => h !== 'accept')));
      expect(String(res.headers['access-control-allow-methods']).split(/,\s*/)).toEqual(
        expect.arrayContaining(['GET', 'POST', 'PUT', 'DELETE']),
      );
      expect(res.headers['access-control-max-age']).toBe('86400');
      expect(res.body).toBe('');
      // Any game path, served or not: the browser asks before it knows.
      const unknown = await t.app.inject({
        method: 'OPTIONS',
        url: '/v1/no-such-path',
        headers: { origin: 'https://mygame.example', 'access-control-request-method': 'POST' },
      });
      expect([unknown.statusCode, unknown.headers['access-control-allow-origin']]).toEqual([204, '*']);
    });

    it('puts CORS headers on /v1 errors (403, 404) and none on the console API', async () => {
      const origin = { origin: 'https://mygame.example' };
      const denied = await gameCall(t.app, 'GET', '/v1/ping', { headers: origin });
      expect([denied.statusCode, denied.headers['access-control-allow-origin']]).toEqual([403, '*']);
      const missing = await gameCall(t.app, 'GET', '/v1/no-such-thing', { headers: origin });
      expect([missing.statusCode, missing.headers['access-control-allow-origin']]).toEqual([404, '*']);
      const encoded = await gameCall(t.app, 'GET', '/%761/ping', { headers: origin });
      expect([encoded.statusCode, encoded.headers['access-control-allow-origin']]).toEqual([403, '*']);
      const consoleCall = await t.app.inject({ method: 'GET', url: '/api/games', headers: origin });
      expect(consoleCall.headers['access-control-allow-origin']).toBeUndefined();
    });

    it('limits one IP to its requests per minute, with Retry-After and CORS headers on the 429', async () => {
      const ip = uniqueIp();
      for (let i = 0; i < 8; i++) expect((await ping({ ip })).statusCode).toBe(200);
      const res = await ping({ ip, headers: { origin: 'https://mygame.example' } });
      expect([res.statusCode, res.json().error.code]).toEqual([429, 'LimitExceeded']);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(res.headers['access-control-allow-origin']).toBe('*');
    });

    it('limits one key to its requests per minute across IPs', async () => {
      const fresh = (await call(t.app, 'POST', '/api/games', { body: { name: 'Busy' }, cookie })).json();
      const busy = () => gameCall(t.app, 'GET', '/v1/ping', { apiKey: fresh.api_key, gameId: fresh.game_id });
      for (let i = 0; i < 20; i++) expect((await busy()).statusCode).toBe(200);
      const res = await gameCall(t.app, 'GET', '/v1/ping', {
        apiKey: fresh.api_key,
        gameId: fresh.game_id,
        headers: { origin: 'https://mygame.example' },
      });
      expect([res.statusCode, res.json().error.code]).toEqual([429, 'LimitExceeded']);
      // A web game can read Retry-After from a 429.
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(String(res.headers['access-control-expose-headers'])).toMatch(/retry-after/i);
      // Another game's key is not affected.
      expect((await ping()).statusCode).toBe(200);
    });
  });
}

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signedInDeveloper, startTestApp, uniqueIp, type TestApp } from '../../../test/support/app.js';
import { DIALECTS } from '../../../test/support/services.js';
import { swCall } from '../../../test/support/silentwolf.js';

for (const { dialect, skip } of DIALECTS) {
  describe.skipIf(skip)(`${dialect}: SilentWolf front door`, () => {
    let t: TestApp;
    let game: { game_id: string; api_key: string };
    beforeAll(async () => {
      t = await startTestApp({ dialect, env: { GAME_API_REQUESTS_PER_KEY_PER_MINUTE: '4' } });
      const { cookie } = await signedInDeveloper(t);
      game = (await call(t.app, 'POST', '/api/games', { body: { name: 'Door' }, cookie })).json();
    });
    afterAll(() => t?.close());

    it("answers a web export's preflight on /save_score with the plugin's headers", async () => {
      const res = await t.app.inject({
        method: 'OPTIONS',
        url: '/save_score',
        headers: {
          origin: 'https://games.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers':
            'content-type,x-api-key,x-sw-game-id,x-sw-act-tmst,x-sw-act-dig,x-sw-access-token',
        },
      });
      expect(res.statusCode).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      for (const h of ['x-sw-game-id', 'x-sw-act-tmst', 'x-sw-act-dig', 'x-sw-access-token', 'x-sw-id-token']) {
        expect(String(res.headers['access-control-allow-headers'])).toContain(h);
      }
    });

    it('counts /v1 and SilentWolf calls against one per-key limit, and every answer carries the CORS origin', async () => {
      const origin = { origin: 'https://games.example' };
      const ping = () =>
        t.app.inject({
          method: 'GET',
          url: '/v1/ping',
          remoteAddress: uniqueIp(),
          headers: { ...origin, 'x-api-key': game.api_key, 'x-game-id': game.game_id },
        });
      const answers = [
        await ping(),
        await swCall(t, game, 'GET', `/get_scores/${game.game_id}`, { headers: origin }),
        await ping(),
        await swCall(t, game, 'GET', `/get_scores/${game.game_id}?ldboard_name=nope`, { headers: origin }),
      ];
      expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 404]);
      const refused = await swCall(t, game, 'POST', '/get_score_position', {
        client: '0.6.20-short',
        body: { game_id: game.game_id },
        headers: origin,
      });
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ success: false, code: 'LimitExceeded' });
      const badKey = await swCall(t, { ...game, api_key: 'x' }, 'GET', `/get_scores/${game.game_id}`, {
        headers: origin,
      });
      expect(badKey.statusCode).toBe(403);
      for (const res of [...answers, refused, badKey]) expect(res.headers['access-control-allow-origin']).toBe('*');
    });
    it("keeps the engine a SilentWolf call reports, not the SilentWolf plugin's version as Howl's", async () => {
      const { cookie } = await signedInDeveloper(t);
      const own = (await call(t.app, 'POST', '/api/games', { body: { name: 'Versions' }, cookie })).json();
      const res = await swCall(t, own, 'GET', `/get_scores/${own.game_id}?max=1`, {
        headers: { 'x-sw-plugin-version': '0.9.9' },
      });
      expect(res.statusCode).toBe(200);
      const details = (await call(t.app, 'GET', `/api/games/${own.game_id}`, { cookie })).json();
      expect(details).toMatchObject({ latest_plugin_version: null, latest_engine: '4.6.3' });
    });
  });

  describe.skipIf(skip)(`${dialect}: SILENTWOLF_COMPAT=0`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ dialect, env: { SILENTWOLF_COMPAT: '0' } });
    });
    afterAll(() => t?.close());

    it('leaves the paths unserved: a save is an unknown endpoint and a read is the site', async () => {
      const saveRes = await call(t.app, 'POST', '/save_score', { body: { player_name: 'a', score: 1 } });
      expect([saveRes.statusCode, saveRes.json().error.code]).toEqual([404, 'NotFound']);
      const read = await call(t.app, 'GET', '/get_scores/AnyGame?max=10');
      expect(read.headers['content-type']).toContain('text/html');
    });
  });
}

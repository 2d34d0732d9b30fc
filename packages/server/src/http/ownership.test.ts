import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, signedInDeveloper, startTestApp, type TestApp } from '../../test/support/app.js';
import { registeredRoutes } from '../../test/support/routes.js';
import { DIALECTS } from '../../test/support/services.js';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Every console route that names a game, each with a body or query its own validation would refuse. */
const routes: Array<[Method, string, unknown]> = [
  ['GET', '/api/games/:gameId', undefined],
  ['PATCH', '/api/games/:gameId', { name: '' }],
  ['DELETE', '/api/games/:gameId', undefined],
  ['GET', '/api/games/:gameId/api-key', undefined],
  ['POST', '/api/games/:gameId/api-key/rotate', {}],
  ['GET', '/api/games/:gameId/leaderboards', undefined],
  ['POST', '/api/games/:gameId/leaderboards', { name: 'not a name!', max_entries: 7 }],
  ['PUT', '/api/games/:gameId/leaderboards/main', { max_entries: 7 }],
  ['DELETE', '/api/games/:gameId/leaderboards/not%20a%20name!', undefined],
  ['GET', '/api/games/:gameId/leaderboards/main/scores?period_offset=1&cursor=x', undefined],
  ['DELETE', '/api/games/:gameId/leaderboards/main/scores', undefined],
  ['POST', '/api/games/:gameId/scores/delete', { score_ids: [] }],
  ['GET', '/api/games/:gameId/player-auth', undefined],
  ['PUT', '/api/games/:gameId/player-auth', { session_duration_seconds: -1, reg_type: 'x' }],
  ['GET', '/api/games/:gameId/player-auth/emails', undefined],
  ['PUT', '/api/games/:gameId/player-auth/emails', { reply_to: 'not an address', reset_body: 5 }],
  ['GET', '/api/games/:gameId/players?limit=9999', undefined],
  ['POST', `/api/games/:gameId/players/${'x'.repeat(101)}/disable`, {}],
  ['POST', '/api/games/:gameId/players/wolf/enable', {}],
  ['PUT', '/api/games/:gameId/players/wolf/password', { password: 5 }],
  ['DELETE', `/api/games/:gameId/players/${'x'.repeat(101)}`, undefined],
  ['GET', '/api/games/:gameId/player-data/export', undefined],
  ['POST', '/api/games/:gameId/import', { leaderboards: 5 }],
];

for (const { dialect, skip } of DIALECTS) {
  describe.skipIf(skip)(`${dialect}: ownership is checked before validation on every console route with a game`, () => {
    let t: TestApp;
    let gameId: string;
    let intruder: string;
    beforeAll(async () => {
      t = await startTestApp({ dialect });
      const owner = (await signedInDeveloper(t)).cookie;
      gameId = (await call(t.app, 'POST', '/api/games', { body: { name: 'Mine' }, cookie: owner })).json().game_id;
      intruder = (await signedInDeveloper(t)).cookie;
      await call(t.app, 'POST', '/api/games', { body: { name: 'Theirs' }, cookie: intruder });
    });
    afterAll(() => t?.close());

    it('lists every console route that names a game', () => {
      const registered = registeredRoutes(t.app).filter((route) => route.includes('/api/games/:gameId'));
      const pattern = (path: string) => path.split('?')[0]!.replace(/\/(main|wolf|x{101}|not%20a%20name!)/g, '/:p');
      const covered = new Set(routes.map(([method, path]) => `${method} ${pattern(path)}`));
      const normalised = registered.map((r) => r.replace(/\/:(name|playerName)/g, '/:p'));
      expect(normalised.filter((r) => !covered.has(r))).toEqual([]);
      expect(normalised).toHaveLength(routes.length);
    });

    it.each(routes)(
      '%s %s answers another developer 404 NotFound, whatever the body or query',
      async (method, path, body) => {
        const res = await call(t.app, method, path.replace(':gameId', gameId), {
          cookie: intruder,
          ...(body === undefined ? {} : { body }),
        });
        expect([res.statusCode, res.json().error]).toEqual([404, { code: 'NotFound', message: 'Game not found.' }]);
      },
    );

    it.each(routes.filter(([method]) => method !== 'GET'))(
      '%s %s answers before the body is read: 401 signed out, 404 to another developer, even for a body that is not JSON',
      async (method, path) => {
        const send = (cookies: Record<string, string>) =>
          t.app.inject({
            method,
            url: path.replace(':gameId', gameId),
            headers: { 'content-type': 'application/json' },
            cookies,
            payload: '{"not json',
          });
        const anonymous = await send({});
        expect([anonymous.statusCode, anonymous.json().error.code]).toEqual([401, 'NotAuthorized']);
        const other = await send({ howl_session: intruder });
        expect([other.statusCode, other.json().error.code]).toEqual([404, 'NotFound']);
      },
    );
  });
}

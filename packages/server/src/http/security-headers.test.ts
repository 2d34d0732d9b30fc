import { describe, expect, it } from 'vitest';
import { call, signedInDeveloper, startTestApp, STRONG_PASSWORD, uniqueEmail } from '../../test/support/app.js';
import { playerGame } from '../../test/support/players.js';
import { DIALECTS } from '../../test/support/services.js';

/** A CSP header as directive → sources. */
function directives(csp: unknown): Record<string, string> {
  return Object.fromEntries(
    String(csp)
      .split(';')
      .map((part) => part.trim())
      .filter(Boolean)
      .map((part) => [part.split(' ')[0], part.split(' ').slice(1).join(' ')]),
  );
}

for (const { dialect, skip } of DIALECTS) {
  describe.skipIf(skip)(`${dialect}: security headers`, () => {
    const { ctx, loggedIn, v1 } = playerGame(dialect);

    it.each(['/', '/dashboard/scores', '/api/auth/whoami', '/api/nothing', '/api/docs/'])(
      'sends the CSP, nosniff, a referrer policy and no framing on %s',
      async (path) => {
        const res = await call(ctx.t.app, 'GET', path);
        const csp = directives(res.headers['content-security-policy']);
        expect(csp).toMatchObject({
          'default-src': "'self'",
          'script-src': "'self'",
          'object-src': "'none'",
          'base-uri': "'self'",
          'frame-ancestors': "'none'",
        });
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        expect(res.headers['x-frame-options']).toBe('DENY');
        expect(res.headers['referrer-policy']).toBe('same-origin');
        // Over plain http (the default PUBLIC_URL), nothing pins the browser to https.
        expect(res.headers['strict-transport-security']).toBeUndefined();
        expect(csp['upgrade-insecure-requests']).toBeUndefined();
      },
    );

    it.each([
      ['GET', '/v1/ping'],
      ['GET', '/v1/no-such-path'],
      ['GET', '/get_scores/some-game'],
      ['OPTIONS', '/v1/leaderboards/main/scores'],
    ] as const)(
      'sends JSON-only protections on the game call %s %s: no content, no framing, nosniff',
      async (method, path) => {
        const res = await ctx.t.app.inject({
          method,
          url: path,
          headers: { origin: 'https://mygame.example', 'access-control-request-method': 'GET' },
        });
        expect(directives(res.headers['content-security-policy'])).toEqual({
          'default-src': "'none'",
          'frame-ancestors': "'none'",
        });
        expect(res.headers['x-content-type-options']).toBe('nosniff');
        expect(res.headers['x-frame-options']).toBe('DENY');
        expect(res.headers['access-control-allow-origin']).toBe('*');
        // The protections of a page are not sent with a game's JSON.
        expect(res.headers['cross-origin-opener-policy']).toBeUndefined();
        expect(res.headers['strict-transport-security']).toBeUndefined();
      },
    );

    it('answers player login and resume with Cache-Control: no-store', async () => {
      const p = await loggedIn('cache', { remember_me: true });
      const login = await v1('POST', '/v1/players/login', {
        body: { player_name: p.name, password: STRONG_PASSWORD, remember_me: true },
      });
      expect([login.statusCode, login.headers['cache-control']]).toEqual([200, 'no-store']);
      const resumed = await v1('POST', '/v1/players/sessions/resume', {
        body: { saved_session: login.json().saved_session.token },
      });
      expect([resumed.statusCode, resumed.headers['cache-control']]).toEqual([200, 'no-store']);
    });

    it('answers the calls that set the session cookie with Cache-Control: no-store', async () => {
      const email = uniqueEmail();
      await signedInDeveloper(ctx.t, email);
      const signIn = await call(ctx.t.app, 'POST', '/api/auth/sign-in', { body: { email, password: STRONG_PASSWORD } });
      expect([signIn.statusCode, signIn.headers['cache-control']]).toEqual([200, 'no-store']);
    });

    it('serves hashed site assets as immutable and index.html as no-cache', async () => {
      const asset = await call(ctx.t.app, 'GET', '/assets/index-Bq3x9Zk1.js');
      expect([asset.statusCode, asset.headers['cache-control']]).toEqual([200, 'public, max-age=31536000, immutable']);
      for (const path of ['/', '/index.html', '/dashboard/scores']) {
        const page = await call(ctx.t.app, 'GET', path);
        expect([path, page.statusCode, page.headers['cache-control']]).toEqual([path, 200, 'no-cache']);
      }
    });
  });
}

describe('sqlite: security headers behind an https PUBLIC_URL', () => {
  it('pins browsers to https with HSTS and upgrades insecure requests', async () => {
    const t = await startTestApp({ dialect: 'sqlite', env: { PUBLIC_URL: 'https://howl.example.com' } });
    try {
      for (const path of ['/', '/api/auth/whoami']) {
        const res = await call(t.app, 'GET', path);
        expect(res.headers['strict-transport-security']).toBe('max-age=31536000');
        expect(directives(res.headers['content-security-policy'])).toHaveProperty('upgrade-insecure-requests');
      }
      // A game call over https pins the browser too; its CSP allows nothing to upgrade.
      const game = await call(t.app, 'GET', '/v1/ping');
      expect(game.headers['strict-transport-security']).toBe('max-age=31536000');
    } finally {
      await t.close();
    }
  });
});

import { describe, expect, it } from 'vitest';
import { STRONG_PASSWORD, uniqueIp } from '../../../test/support/app.js';
import { playerGame } from '../../../test/support/players.js';
import { DIALECTS } from '../../../test/support/services.js';

const DAY = 86_400_000;

for (const { dialect, skip } of DIALECTS) {
  describe.skipIf(skip)(`${dialect}: player sessions, limits and protected names`, () => {
    const { ctx, newGame, console, settings, v1, fresh, register, login, loggedIn } = playerGame(dialect, {
      env: { SIGNIN_FAILURES_PER_IP: '4' },
    });
    const me = (token: string, opts: Parameters<typeof v1>[2] = {}) => v1('GET', '/v1/players/me', { ...opts, token });
    const resume = (saved: string, opts: Parameters<typeof v1>[2] = {}) =>
      v1('POST', '/v1/players/sessions/resume', { ...opts, body: { saved_session: saved } });

    it('ends a session after session_duration_seconds, with the very next call', async () => {
      const game = await newGame('Short', { session_duration_seconds: 60 });
      const opts = { apiKey: game.api_key, gameId: game.game_id };
      const p = await loggedIn('short', {}, opts);
      ctx.t.clock.advance(59_000);
      expect((await me(p.access_token, opts)).statusCode).toBe(200);
      ctx.t.clock.advance(1_000);
      const late = await me(p.access_token, opts);
      expect(late.statusCode).toBe(401);
      expect(late.json().error.code).toBe('SessionExpired');
    });

    it('never ends a session with session_duration_seconds 0 (expires_at null)', async () => {
      const game = await newGame('Forever', { session_duration_seconds: 0 });
      const opts = { apiKey: game.api_key, gameId: game.game_id };
      const p = fresh();
      await register(p.name, p.email, opts);
      await v1('POST', '/v1/players/confirm', {
        ...opts,
        body: { player_name: p.name, code: ctx.t.smtp.lastCode(p.email) },
      });
      const res = await login(p.name, STRONG_PASSWORD, {}, opts);
      expect(res.json().expires_at).toBeNull();
      ctx.t.clock.advance(3650 * DAY);
      expect((await me(res.json().access_token, opts)).statusCode).toBe(200);
    });

    it('issues a saved session with remember_me that mints fresh sessions until saved_session_days pass', async () => {
      const game = await newGame('Remember', { saved_session_days: 365 });
      const opts = { apiKey: game.api_key, gameId: game.game_id };
      const p = await loggedIn('saved', { remember_me: true }, opts);
      expect(p.saved_session!.expires_at).toBe(new Date(ctx.t.clock.now() + 365 * DAY).toISOString());

      ctx.t.clock.advance(364 * DAY);
      const resumed = await resume(p.saved_session!.token, opts);
      expect(resumed.statusCode).toBe(200);
      expect(resumed.json().player.player_name).toBe(p.name);
      expect(resumed.json().saved_session).toBeUndefined();
      expect((await me(resumed.json().access_token, opts)).statusCode).toBe(200);

      ctx.t.clock.advance(DAY);
      const expired = await resume(p.saved_session!.token, opts);
      expect(expired.statusCode).toBe(401);
      expect(expired.json().error.code).toBe('SessionExpired');
      expect((await resume('no-such-token', opts)).json().error.code).toBe('SessionExpired');
    });

    it('resumes with the saved_session object login answered as well as with its token, and words anything else', async () => {
      const game = await newGame('Object', { saved_session_days: 30 });
      const opts = { apiKey: game.api_key, gameId: game.game_id };
      const p = await loggedIn('whole', { remember_me: true }, opts);
      const resumeWith = (saved_session: unknown) =>
        v1('POST', '/v1/players/sessions/resume', { ...opts, body: { saved_session } });
      const whole = await resumeWith(p.saved_session);
      expect(whole.statusCode).toBe(200);
      expect(whole.json().player.player_name).toBe(p.name);
      for (const wrong of [42, { expires_at: 'x' }, ['token']]) {
        const res = await resumeWith(wrong);
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toEqual({
          code: 'InvalidParameter',
          message:
            "saved_session must be the saved session's token (text), or the saved_session object login answered.",
          field: 'saved_session',
        });
      }
      expect((await resumeWith(undefined)).json().error.message).toBe('saved_session is required.');
    });

    it('ends every access token at once on a reset request, never-expiring ones too; saved sessions answer PasswordResetRequired', async () => {
      const game = await newGame('Reset Ends Sessions', { session_duration_seconds: 0 });
      const opts = { apiKey: game.api_key, gameId: game.game_id };
      const p = await loggedIn('resume-reset', { remember_me: true }, opts);
      const resumed = (await resume(p.saved_session!.token, opts)).json();
      const other = (await login(p.name, STRONG_PASSWORD, {}, opts)).json();
      expect(other.expires_at).toBeNull();

      const request = await v1('POST', '/v1/players/password-reset', { ...opts, body: { player_name: p.name } });
      expect(request.statusCode).toBe(200);
      for (const token of [p.access_token, resumed.access_token, other.access_token]) {
        const res = await me(token, opts);
        expect(res.statusCode).toBe(401);
        expect(res.json().error.code).toBe('SessionExpired');
      }
      const refused = await resume(p.saved_session!.token, opts);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error.code).toBe('PasswordResetRequired');

      const confirm = await v1('POST', '/v1/players/password-reset/confirm', {
        ...opts,
        body: {
          player_name: p.name,
          code: ctx.t.smtp.lastCode(p.email),
          password: 'Reset-Pass7',
          confirm_password: 'Reset-Pass7',
        },
      });
      expect(confirm.statusCode).toBe(200);
      // Setting the new password brings none of them back.
      for (const token of [p.access_token, resumed.access_token, other.access_token]) {
        expect((await me(token, opts)).statusCode).toBe(401);
      }
      expect((await resume(p.saved_session!.token, opts)).json().error.code).toBe('SessionExpired');
      const fresh = await login(p.name, 'Reset-Pass7', {}, opts);
      expect((await me(fresh.json().access_token, opts)).statusCode).toBe(200);
    });

    it('ends the session and the saved session it came from on logout; all: true ends every session', async () => {
      const p = await loggedIn('logout', { remember_me: true });
      const resumed = (await resume(p.saved_session!.token)).json();
      const other = (await login(p.name, STRONG_PASSWORD, { remember_me: true })).json();

      const out = await v1('POST', '/v1/players/logout', { token: resumed.access_token, body: {} });
      expect(out.statusCode).toBe(200);
      for (const token of [resumed.access_token, p.access_token]) {
        expect((await me(token)).json().error.code).toBe('SessionExpired');
      }
      expect((await resume(p.saved_session!.token)).json().error.code).toBe('SessionExpired');
      // The other device's sessions were not minted from that saved session.
      expect((await me(other.access_token)).statusCode).toBe(200);

      expect(
        (await v1('POST', '/v1/players/logout', { token: other.access_token, body: { all: true } })).statusCode,
      ).toBe(200);
      expect((await me(other.access_token)).statusCode).toBe(401);
      expect((await resume(other.saved_session.token)).statusCode).toBe(401);
    });

    it('resumes a saved session while a logout ends it: the resume answers 200 or SessionExpired, never a 500', async () => {
      for (let round = 0; round < 8; round++) {
        const p = await loggedIn(`resume-logout-${round}`, { remember_me: true });
        const first = (await resume(p.saved_session!.token)).json();
        // The logout ends the saved session the resumes are minting from.
        const [out, ...resumed] = await Promise.all([
          v1('POST', '/v1/players/logout', { token: first.access_token, body: {} }),
          ...Array.from({ length: 4 }, () => resume(p.saved_session!.token)),
        ]);
        expect(out!.statusCode).toBe(200);
        const seen = resumed.map((r) => (r.statusCode === 200 ? 200 : `${r.statusCode} ${r.json().error?.code}`));
        expect(
          seen.filter((s) => s !== 200 && s !== '401 SessionExpired'),
          `round ${round}`,
        ).toEqual([]);
        expect((await resume(p.saved_session!.token)).json().error.code).toBe('SessionExpired');
      }
    });

    it('answers 401 NotAuthorized without a Bearer token and SessionExpired for an unknown one', async () => {
      const none = await v1('GET', '/v1/players/me');
      expect(none.statusCode).toBe(401);
      expect(none.json().error.code).toBe('NotAuthorized');
      expect((await me('made-up-token')).json().error.code).toBe('SessionExpired');
    });

    it('refuses login after 10 failures for one player (429 LimitExceeded), even with the right password', async () => {
      const p = await loggedIn('locked');
      const statuses: number[] = [];
      for (let i = 0; i < 10; i++) statuses.push((await login(p.name, 'Wrong-Pass1')).statusCode);
      expect(new Set(statuses)).toEqual(new Set([401]));
      const res = await login(p.name);
      expect(res.statusCode).toBe(429);
      expect(res.json().error.code).toBe('LimitExceeded');
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    });

    it('refuses login from a network after its failures (SIGNIN_FAILURES_PER_IP), whichever player it names', async () => {
      const ip = uniqueIp();
      const a = await loggedIn('ip-a');
      const b = await loggedIn('ip-b');
      // Successes do not count.
      for (let i = 0; i < 3; i++) expect((await login(a.name, STRONG_PASSWORD, {}, { ip })).statusCode).toBe(200);
      for (const name of [a.name, b.name, 'nobody', 'nobody-else']) {
        expect((await login(name, 'Wrong-Pass1', {}, { ip })).statusCode).toBe(401);
      }
      const res = await login(b.name, STRONG_PASSWORD, {}, { ip });
      expect(res.statusCode).toBe(429);
      expect(res.json().error.code).toBe('LimitExceeded');
      expect((await login(b.name, STRONG_PASSWORD, {}, { ip: uniqueIp() })).statusCode).toBe(200);
    });

    it('disabling a player ends every session at once and refuses login; enabling lets the player back', async () => {
      const p = await loggedIn('disabled', { remember_me: true });
      const off = await console('POST', `/players/${encodeURIComponent(p.name)}/disable`);
      expect(off.statusCode).toBe(200);
      expect(off.json()).toEqual({ player_name: p.name, enabled: false });
      expect((await me(p.access_token)).json().error.code).toBe('SessionExpired');
      expect((await resume(p.saved_session!.token)).json().error.code).toBe('SessionExpired');
      const refused = await login(p.name);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error.code).toBe('PlayerDisabled');

      expect((await console('POST', `/players/${encodeURIComponent(p.name)}/enable`)).json().enabled).toBe(true);
      expect((await login(p.name)).statusCode).toBe(200);
    });

    describe('require_player_session', () => {
      const submit = (player_name: string, token?: string) =>
        v1('POST', '/v1/leaderboards/main/scores', { body: { player_name, score: 10 }, ...(token ? { token } : {}) });

      it("is off by default: anyone may save under a registered player's name", async () => {
        const p = await loggedIn('open');
        expect((await submit(p.name)).statusCode).toBe(200);
      });

      it("when on, a registered name needs that player's own session; other names stay open", async () => {
        const owner = await loggedIn('owner');
        const intruder = await loggedIn('intruder');
        expect((await settings({ require_player_session: true })).json().require_player_session).toBe(true);
        try {
          for (const token of [undefined, intruder.access_token, 'made-up']) {
            const res = await submit(owner.name, token);
            expect(res.statusCode).toBe(401);
            expect(res.json().error.code).toBe('PlayerSessionRequired');
          }
          expect((await submit(owner.name, owner.access_token)).statusCode).toBe(200);
          expect((await submit('guest-without-account')).statusCode).toBe(200);
        } finally {
          await settings({ require_player_session: false });
        }
      });
    });
  });
}

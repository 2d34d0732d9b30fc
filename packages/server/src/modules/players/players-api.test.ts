import { describe, expect, it } from 'vitest';
import { STRONG_PASSWORD } from '../../../test/support/app.js';
import { playerGame } from '../../../test/support/players.js';
import { DIALECTS } from '../../../test/support/services.js';

const NEW_PASSWORD = 'Moon-Howl2';

for (const { dialect, skip } of DIALECTS) {
  describe.skipIf(skip)(`${dialect}: player accounts through the game API`, () => {
    const { ctx, newGame, console, settings, v1, fresh, register, login, loggedIn, lastMail } = playerGame(dialect);

    it('answers 403 PlayerAuthDisabled on every player call while player authentication is off', async () => {
      await settings({ enabled: false });
      try {
        const calls: [Parameters<typeof v1>[0], string, unknown?][] = [
          ['POST', '/v1/players', { player_name: 'a', password: 'x', confirm_password: 'x' }],
          ['POST', '/v1/players/confirm', { player_name: 'a', code: '123456' }],
          ['POST', '/v1/players/resend-code', { player_name: 'a' }],
          ['POST', '/v1/players/login', { player_name: 'a', password: 'x' }],
          ['POST', '/v1/players/sessions/resume', { saved_session: 'x' }],
          ['POST', '/v1/players/logout', {}],
          ['POST', '/v1/players/password-reset', { player_name: 'a' }],
          [
            'POST',
            '/v1/players/password-reset/confirm',
            { player_name: 'a', code: '1', password: 'x', confirm_password: 'x' },
          ],
          ['GET', '/v1/players/me'],
        ];
        for (const [method, url, body] of calls) {
          const res = await v1(method, url, body === undefined ? {} : { body });
          expect(res.statusCode, url).toBe(403);
          expect(res.json().error.code, url).toBe('PlayerAuthDisabled');
          expect(res.json().error.message, url).toContain('Enable it on the Howl site under Player authentication');
        }
      } finally {
        await settings({ enabled: true });
      }
    });

    it('registers an unconfirmed player, mails the code, refuses login until confirmed, then logs in', async () => {
      const p = fresh();
      const reg = await register(p.name, ` ${p.email.toUpperCase()} `);
      expect(reg.statusCode).toBe(200);
      expect(reg.json()).toEqual({
        player: { player_name: p.name, email: p.email, state: 'UNCONFIRMED' },
        confirmation_required: true,
      });
      const mail = await lastMail(p.email);
      expect(mail.subject).toBe('Your Wolf Run confirmation code');
      expect(mail.text).toContain(`Welcome to Wolf Run, ${p.name}!`);

      const early = await login(p.name);
      expect(early.statusCode).toBe(403);
      expect(early.json().error.code).toBe('UserNotConfirmed');

      const wrong = await v1('POST', '/v1/players/confirm', { body: { player_name: p.name, code: '000000' } });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json().error.code).toBe('CodeMismatch');

      const code = ctx.t.smtp.lastCode(p.email);
      const ok = await v1('POST', '/v1/players/confirm', { body: { player_name: p.name, code } });
      expect(ok.statusCode).toBe(200);
      expect(ok.json().player.state).toBe('CONFIRMED');

      const res = await login(p.name);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.player).toEqual({ player_name: p.name, email: p.email, state: 'CONFIRMED' });
      expect(body.expires_at).toBe(new Date(ctx.t.clock.now() + 3600_000).toISOString());
      expect(body.saved_session).toBeUndefined();
      const me = await v1('GET', '/v1/players/me', { token: body.access_token });
      expect(me.statusCode).toBe(200);
      expect(me.json()).toEqual({ player_name: p.name, email: p.email, state: 'CONFIRMED' });
    });

    it('answers ExpiredCode for a code past its 24 hours, and a resent code works', async () => {
      const p = fresh();
      await register(p.name, p.email);
      const old = ctx.t.smtp.lastCode(p.email);
      ctx.t.clock.advance(24 * 3600_000 + 1);
      const late = await v1('POST', '/v1/players/confirm', { body: { player_name: p.name, code: old } });
      expect(late.statusCode).toBe(400);
      expect(late.json().error.code).toBe('ExpiredCode');
      expect((await v1('POST', '/v1/players/resend-code', { body: { player_name: p.name } })).statusCode).toBe(200);
      await lastMail(p.email, 2);
      const code = ctx.t.smtp.lastCode(p.email);
      expect(code).not.toBe('');
      const ok = await v1('POST', '/v1/players/confirm', { body: { player_name: p.name, code } });
      expect(ok.statusCode).toBe(200);
    });

    it('confirms at once with un_pwd (no email kept) and with email confirmation off', async () => {
      const unPwd = await newGame('No mail', { reg_type: 'un_pwd' });
      const quiet = await newGame('No confirm', { email_confirmation: false });
      for (const [game, email] of [
        [unPwd, null],
        [quiet, 'quiet@example.com'],
      ] as const) {
        const p = fresh();
        const opts = { apiKey: game.api_key, gameId: game.game_id };
        const reg = await register(p.name, email ?? 'ignored@example.com', opts);
        expect(reg.statusCode).toBe(200);
        expect(reg.json()).toEqual({
          player: { player_name: p.name, email, state: 'CONFIRMED' },
          confirmation_required: false,
        });
        expect((await login(p.name, STRONG_PASSWORD, {}, opts)).statusCode).toBe(200);
      }
      // un_pwd needs no email at all.
      const bare = fresh();
      const noEmail = await v1('POST', '/v1/players', {
        apiKey: unPwd.api_key,
        gameId: unPwd.game_id,
        body: { player_name: bare.name, password: STRONG_PASSWORD, confirm_password: STRONG_PASSWORD },
      });
      expect(noEmail.statusCode).toBe(200);
    });

    it.each([
      ['a taken name', 409, 'PlayerNameTaken', 'taken'],
      ['no email', 400, 'InvalidEmail', { email: undefined }],
      ['an invalid email', 400, 'InvalidEmail', { email: 'not-an-address' }],
      ['mismatched passwords', 400, 'PasswordMismatch', { confirm_password: 'Other-Pass1' }],
      ['a weak password', 400, 'InvalidPassword', { password: 'weakweak', confirm_password: 'weakweak' }],
      ['an empty player name', 400, 'InvalidParameter', { player_name: '  ' }],
      ['a player name over 100 characters', 400, 'InvalidParameter', { player_name: 'x'.repeat(101) }],
    ] as const)('refuses registration with %s (%i %s)', async (_what, status, code, change) => {
      const p = fresh();
      if (change === 'taken') await register(p.name, p.email);
      const body = {
        player_name: p.name,
        email: p.email,
        password: STRONG_PASSWORD,
        confirm_password: STRONG_PASSWORD,
        ...(change === 'taken' ? {} : change),
      };
      const res = await v1('POST', '/v1/players', { body });
      expect(res.statusCode).toBe(status);
      expect(res.json().error.code).toBe(code);
    });

    it.each([
      ['no body at all', undefined, 'The request body is missing; send a JSON object.'],
      ['a JSON array', [], 'Send the request body as a JSON object.'],
      ['a name that is a number', { player_name: 5, password: 'x' }, 'player_name must be text.'],
      ['no name', { password: 'x' }, 'player_name is required.'],
    ])('answers 400 InvalidParameter in plain words for %s', async (_what, body, message) => {
      const res = await v1('POST', '/v1/players/login', body === undefined ? {} : { body });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'InvalidParameter', message });
    });

    it('answers NotAuthorized the same way for an unknown name and a wrong password', async () => {
      const p = await loggedIn();
      const unknown = await login('nobody-here');
      const wrong = await login(p.name, 'Wrong-Pass1');
      for (const res of [unknown, wrong]) {
        expect(res.statusCode).toBe(401);
        expect(res.json()).toEqual({ error: { code: 'NotAuthorized', message: 'Incorrect player name or password.' } });
      }
    });

    it('resets a password: the old one stops working at once, the code sets a new one and ends old sessions', async () => {
      const p = await loggedIn();
      const reset = await v1('POST', '/v1/players/password-reset', { body: { player_name: p.name } });
      expect(reset.statusCode).toBe(200);
      const mail = await lastMail(p.email, 2);
      expect(mail.subject).toBe('Your Wolf Run password reset code');

      const old = await login(p.name);
      expect(old.statusCode).toBe(403);
      expect(old.json().error.code).toBe('PasswordResetRequired');
      // A wrong password answers the same: a login tells nobody whether a guess was the old password.
      const wrong = await login(p.name, 'Not-The-Pass-9');
      expect([wrong.statusCode, wrong.json()]).toEqual([old.statusCode, old.json()]);
      // Nor does it count them: past the failures a window allows, the answer is still the same.
      for (let i = 0; i < 11; i++) expect((await login(p.name)).json().error.code).toBe('PasswordResetRequired');
      // Nor whether the developer disabled the player meanwhile: that is said only to the right password, after the reset.
      expect((await console('POST', `/players/${p.name}/disable`)).statusCode).toBe(200);
      expect((await login(p.name, 'Not-The-Pass-9')).json().error.code).toBe('PasswordResetRequired');
      expect((await console('POST', `/players/${p.name}/enable`)).statusCode).toBe(200);

      const code = ctx.t.smtp.lastCode(p.email);
      const confirm = (body: Record<string, unknown>) =>
        v1('POST', '/v1/players/password-reset/confirm', {
          body: { player_name: p.name, code, password: NEW_PASSWORD, confirm_password: NEW_PASSWORD, ...body },
        });
      expect((await confirm({ confirm_password: 'Other-Pass1' })).json().error.code).toBe('PasswordMismatch');
      // A weak new password is named by this request's own field.
      expect((await confirm({ password: 'weakweak', confirm_password: 'weakweak' })).json().error).toMatchObject({
        code: 'InvalidPassword',
        field: 'password',
      });
      expect((await confirm({ code: '000000' })).json().error.code).toBe('CodeMismatch');
      expect((await confirm({})).statusCode).toBe(200);

      expect((await v1('GET', '/v1/players/me', { token: p.access_token })).json().error.code).toBe('SessionExpired');
      // A token of another scheme is no session at all, not an expired one.
      const basic = await v1('GET', '/v1/players/me', { headers: { authorization: 'Basic YTpi' } });
      expect([basic.statusCode, basic.json().error.code]).toEqual([401, 'NotAuthorized']);
      expect((await login(p.name)).statusCode).toBe(401);
      const fresh = await login(p.name, NEW_PASSWORD);
      expect(fresh.statusCode).toBe(200);
      expect(fresh.json().player.state).toBe('CONFIRMED');
    });

    it('limits reset mails per player (429 LimitExceeded) and refuses resets for players without an email', async () => {
      const p = await loggedIn();
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) {
        statuses.push((await v1('POST', '/v1/players/password-reset', { body: { player_name: p.name } })).statusCode);
      }
      // Five code mails an hour per player, and the sign-up code was the first.
      expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);

      const unPwd = await newGame('No reset', { reg_type: 'un_pwd' });
      const opts = { apiKey: unPwd.api_key, gameId: unPwd.game_id };
      const q = fresh();
      await register(q.name, undefined, opts);
      const res = await v1('POST', '/v1/players/password-reset', { ...opts, body: { player_name: q.name } });
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toContain('no email address');
      expect((await login(q.name, STRONG_PASSWORD, {}, opts)).statusCode).toBe(200);

      const unknown = await v1('POST', '/v1/players/password-reset', { body: { player_name: 'nobody-here' } });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().error.code).toBe('PlayerNotFound');
    });

    it("keeps one game's players invisible to another game's key", async () => {
      const p = await loggedIn();
      const other = await newGame('Other game');
      const opts = { apiKey: other.api_key, gameId: other.game_id };
      expect((await login(p.name, STRONG_PASSWORD, {}, opts)).json().error.code).toBe('NotAuthorized');
      const me = await v1('GET', '/v1/players/me', { ...opts, token: p.access_token });
      expect(me.statusCode).toBe(401);
      expect(me.json().error.code).toBe('SessionExpired');
      // The same name is free in the other game.
      expect((await register(p.name, p.email, opts)).statusCode).toBe(200);
    });
  });
}

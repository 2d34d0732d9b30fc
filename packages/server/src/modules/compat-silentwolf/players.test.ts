import { describe, expect, it } from 'vitest';
import { STRONG_PASSWORD } from '../../../test/support/app.js';
import { playerGame } from '../../../test/support/players.js';
import { DIALECTS } from '../../../test/support/services.js';
import { swCall, swFailure, type SwClient, type SwGame } from '../../../test/support/silentwolf.js';

/** A password with dots: 0.9.x logs in with `Howl*Pass*1`. */
const DOTTED = 'Howl.Pass.1';
const DAY = 86_400_000;

for (const { dialect, skip } of DIALECTS) {
  describe.skipIf(skip)(`${dialect}: SilentWolf account calls`, () => {
    const { ctx, newGame, settings, console, v1, fresh, lastMail } = playerGame(dialect, {
      env: { SIGNIN_FAILURES_PER_ACCOUNT: '1000' },
    });
    const sw = (
      url: string,
      body: Record<string, unknown>,
      opts: { client?: SwClient; token?: string; game?: SwGame } = {},
    ) => swCall(ctx.t, opts.game ?? ctx.game, 'POST', url, { body, ...opts });

    /** An email game's player, registered and confirmed through the plugin's calls. */
    async function confirmed(password = STRONG_PASSWORD, game?: SwGame) {
      const p = fresh('sw');
      const reg = await sw(
        '/create_new_player',
        { anon: false, player_name: p.name, email: p.email, password, confirm_password: password },
        game ? { game } : {},
      );
      expect(reg.statusCode, reg.body).toBe(200);
      if (reg.json().email_conf_enabled) {
        const ok = await sw(
          '/confirm_verif_code',
          { username: p.name, code: ctx.t.smtp.lastCode(p.email) },
          game ? { game } : {},
        );
        expect(ok.json()).toEqual({ success: true });
      }
      return p;
    }
    const login = (
      username: string,
      password: string,
      extra: Record<string, unknown> = {},
      client: SwClient = '0.9.7',
      game?: SwGame,
    ) =>
      sw(
        '/login_player',
        { username, password, remember_me: 'false', remember_me_expires_in: '30', ...extra },
        { client, ...(game ? { game } : {}) },
      );

    it('answers every account call with success:false and PlayerAuthDisabled while player accounts are off', async () => {
      await settings({ enabled: false });
      try {
        const calls: [string, Record<string, unknown>][] = [
          [
            '/create_new_player',
            { anon: false, player_name: 'a', email: 'a@example.com', password: 'x', confirm_password: 'x' },
          ],
          ['/create_new_player', { anon: true, player_name: null, user_local_id: 'device-1' }],
          ['/confirm_verif_code', { username: 'a', code: '123456' }],
          ['/resend_conf_code', { username: 'a' }],
          ['/login_player', { username: 'a', password: 'x', remember_me: 'true', remember_me_expires_in: '30' }],
          ['/validate_remember_me', { lookup: 'a', validator: 'b' }],
          ['/request_player_password_reset', { player_name: 'a' }],
          ['/reset_player_password', { player_name: 'a', conf_code: '1', password: 'x', confirm_password: 'x' }],
          ['/get_player_details', { player_name: 'a' }],
        ];
        for (const [url, body] of calls) {
          expect(swFailure(await sw(url, body), 403, 'PlayerAuthDisabled'), url).toContain(
            'Player authentication is disabled',
          );
        }
      } finally {
        await settings({ enabled: true });
      }
    });

    it('registers by email (A1), mails a code, refuses login until confirmed, resends and confirms the code', async () => {
      const p = fresh('sw');
      const reg = await sw('/create_new_player', {
        anon: false,
        player_name: p.name,
        email: p.email,
        password: STRONG_PASSWORD,
        confirm_password: STRONG_PASSWORD,
      });
      expect(reg.statusCode).toBe(200);
      expect(reg.json()).toEqual({ success: true, anon: false, email_conf_enabled: true, player_name: p.name });
      expect((await lastMail(p.email)).subject).toBe('Your Wolf Run confirmation code');

      swFailure(await login(p.name, STRONG_PASSWORD), 403, 'UserNotConfirmed');
      expect(
        swFailure(await sw('/confirm_verif_code', { username: p.name, code: '000000' }), 400, 'CodeMismatch'),
      ).not.toBe('');

      const resent = await sw('/resend_conf_code', { username: p.name }, { client: '0.6.20' });
      expect(resent.json()).toEqual({ success: true });
      await lastMail(p.email, 2);
      const ok = await sw(
        '/confirm_verif_code',
        { username: p.name, code: ctx.t.smtp.lastCode(p.email) },
        { client: '0.6.20' },
      );
      expect(ok.json()).toEqual({ success: true });
      expect(swFailure(await sw('/resend_conf_code', { username: p.name }), 400, 'InvalidParameter')).toBe(
        'This account is already confirmed. Please sign in.',
      );
      expect((await login(p.name, STRONG_PASSWORD)).json().success).toBe(true);
    });

    it('registers with name and password only (A2) on an un_pwd game; an email game refuses that shape as /v1 does', async () => {
      const unPwd = await newGame('SW names', { reg_type: 'un_pwd' });
      const p = fresh('sw');
      const body = { player_name: p.name, password: STRONG_PASSWORD, confirm_password: STRONG_PASSWORD };
      const reg = await sw('/create_new_player', body, { game: unPwd, client: '0.6.20' });
      expect(reg.json()).toEqual({ success: true, anon: false, email_conf_enabled: false, player_name: p.name });
      expect((await login(p.name, STRONG_PASSWORD, {}, '0.6.20', unPwd)).json().success).toBe(true);

      expect(swFailure(await sw('/create_new_player', body), 400, 'InvalidEmail')).toBe(
        'Please enter a valid email address.',
      );
      const taken = await sw('/create_new_player', body, { game: unPwd });
      expect(swFailure(taken, 409, 'PlayerNameTaken')).toBe(
        'This player name is already taken. Please choose another.',
      );
      const mismatch = await sw(
        '/create_new_player',
        { ...body, player_name: fresh().name, confirm_password: 'x' },
        { game: unPwd },
      );
      expect(swFailure(mismatch, 400, 'PasswordMismatch')).toBe("Passwords don't match.");
    });

    it('refuses anonymous players (A3) with a sentence, with or without a name', async () => {
      for (const player_name of [null, 'anon-player']) {
        const res = await sw('/create_new_player', { anon: true, player_name, user_local_id: 'c0ffee-device' });
        expect(swFailure(res, 400, 'InvalidParameter')).toBe(
          'Anonymous players are not supported: register the player with a name and a password.',
        );
      }
    });

    it('logs in with the password 0.9.x sends (every . as *), the real one from 0.6.20 and from /v1, for one account', async () => {
      const p = await confirmed(DOTTED);
      for (const [password, client] of [
        ['Howl*Pass*1', '0.9.7'],
        [DOTTED, '0.6.20'],
      ] as const) {
        const res = await login(p.name, password, {}, client);
        expect(res.statusCode).toBe(200);
        const body = res.json();
        expect(Object.keys(body).sort()).toEqual(['success', 'swidtoken', 'swtoken']);
        expect(body.swidtoken).toBe(body.swtoken);
        // The token is the player's session, as /v1 reads it.
        const me = await v1('GET', '/v1/players/me', { token: body.swtoken });
        expect(me.json()).toEqual({ player_name: p.name, email: p.email, state: 'CONFIRMED' });
      }
      expect(
        (await v1('POST', '/v1/players/login', { body: { player_name: p.name, password: DOTTED } })).statusCode,
      ).toBe(200);
      expect(swFailure(await login(p.name, 'Howl.Pass.2'), 401, 'NotAuthorized')).toBe(
        'Incorrect player name or password.',
      );
      swFailure(await login('nobody-here', STRONG_PASSWORD), 401, 'NotAuthorized');

      // Registered through /v1 with the real password: 0.9.x's form logs in too.
      const q = fresh('v1');
      await v1('POST', '/v1/players', {
        body: { player_name: q.name, email: q.email, password: DOTTED, confirm_password: DOTTED },
      });
      await v1('POST', '/v1/players/confirm', { body: { player_name: q.name, code: ctx.t.smtp.lastCode(q.email) } });
      expect((await login(q.name, 'Howl*Pass*1')).json().success).toBe(true);
    });

    it.each([
      ['true', true],
      ['True', true],
      [true, true],
      ['false', false],
      ['False', false],
      [false, false],
      [null, false],
    ])('remember_me %j answers a saved session: %s', async (remember_me, saved) => {
      const p = await confirmed();
      const body = (
        await login(
          p.name,
          STRONG_PASSWORD,
          { remember_me },
          typeof remember_me === 'string' && remember_me[0] === 'T' ? '0.6.20' : '0.9.7',
        )
      ).json();
      expect(body.success).toBe(true);
      expect('lookup' in body && 'validator' in body).toBe(saved);
      if (saved) {
        expect(typeof body.lookup).toBe('string');
        expect(typeof body.validator).toBe('string');
        expect(body.lookup).not.toBe('');
        expect(body.validator).not.toBe('');
      }
    });

    it('logs in with remember_me_expires_in 0 (a game configured so), saving a session only with remember_me', async () => {
      const p = await confirmed();
      for (const [remember_me, saved] of [
        ['false', false],
        ['true', true],
      ] as const) {
        const res = await login(p.name, STRONG_PASSWORD, { remember_me, remember_me_expires_in: '0' });
        expect(res.statusCode, res.body).toBe(200);
        expect('lookup' in res.json()).toBe(saved);
        if (!saved) continue;
        // The game's own days, not none: a day later the saved session still signs in.
        ctx.t.clock.advance(86_400_000);
        const { lookup, validator } = res.json();
        const again = await swCall(ctx.t, ctx.game, 'POST', '/validate_remember_me', { body: { lookup, validator } });
        expect(again.json()).toMatchObject({ success: true, player_name: p.name });
      }
      swFailure(
        await login(p.name, STRONG_PASSWORD, { remember_me: 'true', remember_me_expires_in: '-1' }),
        400,
        'InvalidParameter',
      );
    });

    it('refuses a remember_me or remember_me_expires_in it cannot read', async () => {
      const p = await confirmed();
      expect(swFailure(await login(p.name, STRONG_PASSWORD, { remember_me: 'maybe' }), 400, 'InvalidParameter')).toBe(
        'remember_me must be true or false.',
      );
      expect(
        swFailure(
          await login(p.name, STRONG_PASSWORD, { remember_me: 'true', remember_me_expires_in: 'soon' }),
          400,
          'InvalidParameter',
        ),
      ).toBe('remember_me_expires_in must be a whole number of days.');
    });

    it('validates a saved session many times without replacing it, from both plugins, until it expires', async () => {
      const p = await confirmed();
      const { lookup, validator } = (
        await login(p.name, STRONG_PASSWORD, { remember_me: 'true', remember_me_expires_in: '2' })
      ).json();
      for (const client of ['0.9.7', '0.6.20-short', '0.9.7', '0.6.20-short'] as const) {
        const res = await sw('/validate_remember_me', { lookup, validator }, { client });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ success: true, player_name: p.name });
      }
      swFailure(await sw('/validate_remember_me', { lookup, validator: `${validator}x` }), 401, 'SessionExpired');
      expect(swFailure(await sw('/validate_remember_me', { validator }), 400, 'InvalidParameter')).toBe(
        'lookup and validator are required.',
      );
      ctx.t.clock.advance(DAY);
      expect((await sw('/validate_remember_me', { lookup, validator })).json().success).toBe(true);
      ctx.t.clock.advance(DAY);
      swFailure(await sw('/validate_remember_me', { lookup, validator }), 401, 'SessionExpired');
    });

    it("bounds the saved session by remember_me_expires_in up to 365 days, and by the game's setting without it", async () => {
      for (const [extra, lastDay] of [
        [{ remember_me_expires_in: '1000' }, 365],
        [{ remember_me_expires_in: '7.0' }, 7],
        [{ remember_me_expires_in: undefined }, 30],
      ] as const) {
        const p = await confirmed();
        const pair = (await login(p.name, STRONG_PASSWORD, { remember_me: true, ...extra })).json();
        const check = () => sw('/validate_remember_me', { lookup: pair.lookup, validator: pair.validator });
        ctx.t.clock.advance(lastDay * DAY - 60_000);
        expect((await check()).json(), JSON.stringify(extra)).toEqual({ success: true, player_name: p.name });
        ctx.t.clock.advance(60_000);
        swFailure(await check(), 401, 'SessionExpired');
      }
    });

    it("refuses a disabled player's saved session, and it stays gone once the player is enabled again", async () => {
      const p = await confirmed();
      const pair = (await login(p.name, STRONG_PASSWORD, { remember_me: 'true' })).json();
      expect((await console('POST', `/players/${encodeURIComponent(p.name)}/disable`)).statusCode).toBe(200);
      swFailure(
        await sw('/validate_remember_me', { lookup: pair.lookup, validator: pair.validator }),
        401,
        'SessionExpired',
      );
      swFailure(await login(p.name, STRONG_PASSWORD), 403, 'PlayerDisabled');
      await console('POST', `/players/${encodeURIComponent(p.name)}/enable`);
      swFailure(
        await sw('/validate_remember_me', { lookup: pair.lookup, validator: pair.validator }),
        401,
        'SessionExpired',
      );
    });

    it('resets a password with the mailed code; the new password logs in from 0.9.x with its dots as stars', async () => {
      const p = await confirmed();
      const pair = (await login(p.name, STRONG_PASSWORD, { remember_me: 'true' })).json();
      const asked = await sw('/request_player_password_reset', { player_name: p.name });
      expect(asked.json()).toEqual({ success: true });
      const code = ctx.t.smtp.lastCode(p.email);
      swFailure(await login(p.name, STRONG_PASSWORD), 403, 'PasswordResetRequired');
      swFailure(
        await sw('/validate_remember_me', { lookup: pair.lookup, validator: pair.validator }),
        403,
        'PasswordResetRequired',
      );

      const reset = { player_name: p.name, conf_code: code, password: DOTTED, confirm_password: DOTTED };
      swFailure(
        await sw('/reset_player_password', { ...reset, confirm_password: 'Other.Pass1' }),
        400,
        'PasswordMismatch',
      );
      swFailure(await sw('/reset_player_password', { ...reset, conf_code: '000000' }), 400, 'CodeMismatch');
      expect((await sw('/reset_player_password', reset, { client: '0.6.20' })).json()).toEqual({ success: true });
      expect((await login(p.name, 'Howl*Pass*1')).json().success).toBe(true);
      expect((await login(p.name, DOTTED, {}, '0.6.20')).json().success).toBe(true);
      // Every session ended with the reset, the saved one too.
      swFailure(
        await sw('/validate_remember_me', { lookup: pair.lookup, validator: pair.validator }),
        401,
        'SessionExpired',
      );
      swFailure(await sw('/request_player_password_reset', { player_name: 'nobody-here' }), 404, 'PlayerNotFound');
    });

    it("answers a player's details to that player's own session only, as /v1/players/me", async () => {
      const p = await confirmed();
      const token = (await login(p.name, STRONG_PASSWORD)).json().swtoken as string;
      const res = await sw('/get_player_details', { player_name: p.name }, { token });
      expect(res.json()).toEqual({
        success: true,
        player_details: { player_name: p.name, email: p.email, state: 'CONFIRMED' },
      });
      swFailure(await sw('/get_player_details', { player_name: p.name }), 401, 'NotAuthorized');
      swFailure(
        await sw('/get_player_details', { player_name: p.name }, { token: 'not-a-session' }),
        401,
        'SessionExpired',
      );
      const other = await confirmed();
      swFailure(await sw('/get_player_details', { player_name: other.name }, { token }), 401, 'PlayerSessionRequired');
      // An Authorization of another scheme carries no session: it neither hides the plugin's token nor counts as expired.
      const basic = { authorization: 'Basic YTpi' };
      const beside = await swCall(ctx.t, ctx.game, 'POST', '/get_player_details', {
        body: { player_name: p.name },
        token,
        headers: basic,
      });
      expect(beside.json().success).toBe(true);
      swFailure(
        await swCall(ctx.t, ctx.game, 'POST', '/get_player_details', { body: { player_name: p.name }, headers: basic }),
        401,
        'NotAuthorized',
      );
    });

    it("keeps games apart: another game's key cannot log into this game's players or check its saved sessions", async () => {
      const p = await confirmed();
      const pair = (await login(p.name, STRONG_PASSWORD, { remember_me: 'true' })).json();
      const other = await newGame('SW other');
      const crossed = { game_id: ctx.game.game_id, api_key: other.api_key };
      const forbidden = await sw('/login_player', { username: p.name, password: STRONG_PASSWORD }, { game: crossed });
      expect(forbidden.statusCode).toBe(403);
      expect(forbidden.json()).toMatchObject({ message: 'Forbidden', success: false, code: 'InvalidApiKey' });
      // The other game's own key and id: no such player there, and the saved session is not its own.
      swFailure(await login(p.name, STRONG_PASSWORD, {}, '0.9.7', other), 401, 'NotAuthorized');
      swFailure(await sw('/validate_remember_me', pair, { game: other }), 401, 'SessionExpired');
      // Two different game ids in one call.
      const mixed = await swCall(ctx.t, ctx.game, 'POST', '/login_player', {
        body: { game_id: other.game_id, username: p.name, password: STRONG_PASSWORD },
      });
      expect(mixed.statusCode).toBe(403);
    });
  });
}

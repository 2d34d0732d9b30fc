import { describe, expect, it } from 'vitest';
import { STRONG_PASSWORD, call, signedInDeveloper } from '../../../test/support/app.js';
import { playerGame } from '../../../test/support/players.js';
import { DIALECTS } from '../../../test/support/services.js';
import { newId } from '../../lib/tokens.js';

const DEFAULT_SETTINGS = {
  enabled: false,
  reg_type: 'email_un_pwd',
  email_confirmation: true,
  session_duration_seconds: 3600,
  saved_session_days: 30,
  require_player_session: false,
};

for (const { dialect, skip } of DIALECTS) {
  describe.skipIf(skip)(`${dialect}: player settings, mails and management (console)`, () => {
    const { ctx, newGame, console, settings, v1, fresh, register, login, loggedIn, lastMail } = playerGame(dialect);

    it('starts a game with the documented defaults and changes only the fields sent', async () => {
      const game = (
        await call(ctx.t.app, 'POST', '/api/games', { body: { name: 'Plain' }, cookie: ctx.cookie })
      ).json();
      expect((await console('GET', '/player-auth', undefined, game.game_id)).json()).toEqual(DEFAULT_SETTINGS);
      const res = await settings({ enabled: true, session_duration_seconds: 0 }, game.game_id);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ ...DEFAULT_SETTINGS, enabled: true, session_duration_seconds: 0 });
      const again = await settings({ reg_type: 'un_pwd', saved_session_days: 365 }, game.game_id);
      expect(again.json()).toEqual({
        ...DEFAULT_SETTINGS,
        enabled: true,
        session_duration_seconds: 0,
        reg_type: 'un_pwd',
        saved_session_days: 365,
      });
      const details = (await call(ctx.t.app, 'GET', `/api/games/${game.game_id}`, { cookie: ctx.cookie })).json();
      expect(details).toMatchObject({ player_auth_enabled: true, reg_type: 'un_pwd', email_conf_enabled: true });
    });

    it.each([
      [{ saved_session_days: 0 }, 'saved_session_days'],
      [{ saved_session_days: 366 }, 'saved_session_days'],
      [{ session_duration_seconds: -1 }, 'session_duration_seconds'],
      [{ session_duration_seconds: 1.5 }, 'session_duration_seconds'],
      [{ reg_type: 'email' }, 'reg_type'],
      [{ enabled: 'yes' }, 'enabled'],
    ])('refuses settings %j (400 InvalidParameter on %s), changing nothing', async (body, field) => {
      const before = (await console('GET', '/player-auth')).json();
      const res = await settings(body);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'InvalidParameter', field });
      expect((await console('GET', '/player-auth')).json()).toEqual(before);
    });

    it('sends the default mails until customised, then the custom subject, body and reply-to', async () => {
      const game = await newGame('Custom Mail');
      const opts = { apiKey: game.api_key, gameId: game.game_id };
      const defaults = (await console('GET', '/player-auth/emails', undefined, game.game_id)).json();
      expect(defaults).toMatchObject({ confirmation_subject: 'Your Custom Mail confirmation code', reply_to: null });
      expect(defaults.customized).toBe(false);

      const put = await console(
        'PUT',
        '/player-auth/emails',
        {
          confirmation_subject: 'Welcome, wolf {{player_name}}',
          confirmation_body: 'Line one<br>Your code: @@@@<br/>See you in the woods',
          reset_body: 'Reset requested. No placeholder here.',
          reply_to: ' Support@Example.com ',
        },
        game.game_id,
      );
      expect(put.statusCode).toBe(200);
      expect(put.json()).toMatchObject({
        confirmation_subject: 'Welcome, wolf {{player_name}}',
        confirmation_body: 'Line one\nYour code: {{code}}\nSee you in the woods',
        reset_subject: 'Your Custom Mail password reset code',
        reset_body: 'Reset requested. No placeholder here.',
        reply_to: 'support@example.com',
        customized: true,
      });
      expect((await console('GET', '/player-auth/emails', undefined, game.game_id)).json()).toEqual(put.json());

      const p = fresh();
      await register(p.name, p.email, opts);
      const mail = await lastMail(p.email);
      const code = /Your code: (\d{6})/.exec(mail.text ?? '')?.[1];
      expect(code).toMatch(/^\d{6}$/);
      expect(mail.subject).toBe(`Welcome, wolf ${p.name}`);
      expect(mail.text?.trim()).toBe(`Line one\nYour code: ${code}\nSee you in the woods`);
      expect(mail.replyTo?.text).toBe('support@example.com');
      expect(mail.from?.text).toContain('no-reply@localhost');
      await v1('POST', '/v1/players/confirm', { ...opts, body: { player_name: p.name, code } });

      // A body without the placeholder still carries the code, at the end.
      await v1('POST', '/v1/players/password-reset', { ...opts, body: { player_name: p.name } });
      const reset = await lastMail(p.email, 2);
      expect(reset.text).toMatch(/^Reset requested\. No placeholder here\.\n\nYour code: \d{6}\s*$/);

      // Null and empty strings bring the defaults back.
      const back = await console(
        'PUT',
        '/player-auth/emails',
        { confirmation_subject: null, confirmation_body: '', reset_body: null, reply_to: '' },
        game.game_id,
      );
      expect(back.json()).toEqual({ ...defaults, customized: false });
    });

    it.each([
      [{ confirmation_subject: 'x'.repeat(201) }, 'confirmation_subject'],
      [{ reset_subject: 'two\nlines' }, 'reset_subject'],
      [{ confirmation_body: 'x'.repeat(5001) }, 'confirmation_body'],
      [{ reply_to: 'not an address' }, 'reply_to'],
    ])('refuses mail settings %# (400 InvalidParameter on %s)', async (body, field) => {
      const res = await console('PUT', '/player-auth/emails', body);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'InvalidParameter', field });
    });

    it('names the reply-to address as the form labels it', async () => {
      const res = await console('PUT', '/player-auth/emails', { reply_to: 'a@b' });
      expect(res.json().error).toEqual({
        code: 'InvalidParameter',
        message: 'The reply-to address must be an email address.',
        field: 'reply_to',
      });
    });

    it('lists players in pages of 50 with a cursor, newest state included', async () => {
      const game = await newGame('Crowd');
      // Seeded straight into the pool: hashing 55 passwords through the API would only slow the test.
      const rows = Array.from({ length: 55 }, (_, i) => ({
        id: newId(),
        pool_id: `game:${game.game_id}`,
        username: `crowd-${String(i).padStart(2, '0')}`,
        email: `crowd-${i}@example.com`,
        password_hash: 'x',
        status: i === 0 ? ('UNCONFIRMED' as const) : ('CONFIRMED' as const),
        enabled: i === 1 ? 0 : 1,
        created_at: Date.UTC(2026, 10, 1, 12, 0, i),
        updated_at: 0,
      }));
      await ctx.t.database.db.insertInto('identity_users').values(rows).execute();

      const first = await console('GET', '/players', undefined, game.game_id);
      expect(first.statusCode).toBe(200);
      const page1 = first.json();
      expect(page1.players).toHaveLength(50);
      expect(page1.players[0]).toEqual({
        id: rows[0]!.id,
        player_name: 'crowd-00',
        email: 'crowd-0@example.com',
        enabled: true,
        state: 'UNCONFIRMED',
        created_at: Date.UTC(2026, 10, 1, 12, 0, 0) / 1000,
        player_data: null,
      });
      expect(page1.players[1]).toMatchObject({ player_name: 'crowd-01', enabled: false, state: 'CONFIRMED' });
      expect(page1.cursor).toEqual(expect.any(String));
      const page2 = (
        await console('GET', `/players?cursor=${encodeURIComponent(page1.cursor)}`, undefined, game.game_id)
      ).json();
      expect(page2.players.map((p: { player_name: string }) => p.player_name)).toEqual([
        'crowd-50',
        'crowd-51',
        'crowd-52',
        'crowd-53',
        'crowd-54',
      ]);
      expect(page2.cursor).toBeNull();

      const small = (await console('GET', '/players?limit=2', undefined, game.game_id)).json();
      expect(small.players.map((p: { player_name: string }) => p.player_name)).toEqual(['crowd-00', 'crowd-01']);
      const next = (
        await console('GET', `/players?limit=2&cursor=${encodeURIComponent(small.cursor)}`, undefined, game.game_id)
      ).json();
      expect(next.players.map((p: { player_name: string }) => p.player_name)).toEqual(['crowd-02', 'crowd-03']);
      for (const limit of ['0', '51', 'x', '']) {
        const res = await console('GET', `/players?limit=${limit}`, undefined, game.game_id);
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toMatchObject({
          field: 'limit',
          message: 'limit must be a whole number from 1 to 50.',
        });
      }

      const bad = await console('GET', '/players?cursor=%%%', undefined, game.game_id);
      expect(bad.statusCode).toBe(400);
      expect(bad.json().error).toMatchObject({ code: 'InvalidParameter', field: 'cursor' });
      const empty = await newGame('Empty');
      expect((await console('GET', '/players', undefined, empty.game_id)).json()).toEqual({
        players: [],
        cursor: null,
      });
    });

    it("sets a player's password: old sessions end, the new password works; empty or weak is refused", async () => {
      const p = await loggedIn('newpass');
      const path = `/players/${encodeURIComponent(p.name)}/password`;
      const empty = await console('PUT', path, { password: '' });
      expect(empty.statusCode).toBe(400);
      expect(empty.json().error).toEqual({
        code: 'InvalidParameter',
        message: 'Please enter a new password for this player.',
        field: 'password',
      });
      expect((await console('PUT', path, { password: 'weakweak' })).json().error.code).toBe('InvalidPassword');
      // Someone guessed until the player's logins were refused: the new password lets them in at once.
      for (let i = 0; i < 10; i++) await login(p.name, 'Wrong-Guess-1');
      expect((await login(p.name)).json().error.code).toBe('LimitExceeded');
      expect((await console('PUT', path, { password: 'Fresh-Pass9' })).statusCode).toBe(200);
      expect((await v1('GET', '/v1/players/me', { token: p.access_token })).statusCode).toBe(401);
      expect((await login(p.name)).statusCode).toBe(401);
      expect((await login(p.name, 'Fresh-Pass9')).statusCode).toBe(200);
    });

    it('deletes a player: sessions end, login fails, the name is free again and the scores stay', async () => {
      const p = await loggedIn('deleted');
      expect(
        (await v1('POST', '/v1/leaderboards/main/scores', { body: { player_name: p.name, score: 5 } })).statusCode,
      ).toBe(200);
      const del = await console('DELETE', `/players/${encodeURIComponent(p.name)}`);
      expect(del.statusCode).toBe(200);
      expect((await v1('GET', '/v1/players/me', { token: p.access_token })).statusCode).toBe(401);
      expect((await login(p.name)).json().error.code).toBe('NotAuthorized');
      const scores = (await v1('GET', `/v1/leaderboards/main/players/${encodeURIComponent(p.name)}/scores`)).json();
      expect(scores.scores).toHaveLength(1);
      expect((await register(p.name, p.email)).statusCode).toBe(200);
    });

    it('deletes a player while the console changes them: each call answers 200 or 404, never a 500', async () => {
      for (let round = 0; round < 8; round++) {
        const p = await loggedIn(`contested-${round}`);
        const path = `/players/${encodeURIComponent(p.name)}`;
        // Each change holds the account, then ends its sessions; the delete must take them in that order too.
        const [loggedOut, ...answers] = await Promise.all([
          v1('POST', '/v1/players/logout', { token: p.access_token, body: { all: true } }),
          console('PUT', `${path}/password`, { password: 'Other-Pass8' }),
          console('POST', `${path}/disable`, {}),
          console('DELETE', path),
          console('PUT', `${path}/password`, { password: 'Third-Pass7' }),
          console('POST', `${path}/enable`, {}),
        ]);
        // The player's own logout from every device: done, or their session already ended.
        expect([200, 401]).toContain(loggedOut!.statusCode);
        const seen = answers.map((res) =>
          res.statusCode === 200 ? 200 : `${res.statusCode} ${res.json().error?.code}`,
        );
        expect(
          seen.filter((s) => s !== 200 && s !== '404 PlayerNotFound'),
          `round ${round}`,
        ).toEqual([]);
        expect(seen[2], 'the delete itself').toBe(200);
        expect((await login(p.name)).json().error.code).toBe('NotAuthorized');
      }
    });

    it.each([
      ['POST', '/disable'],
      ['POST', '/enable'],
      ['PUT', '/password'],
      ['DELETE', ''],
    ] as const)('answers 404 PlayerNotFound for %s …/players/<unknown>%s', async (method, suffix) => {
      const res = await console(
        method,
        `/players/nobody-at-all${suffix}`,
        method === 'PUT' ? { password: STRONG_PASSWORD } : undefined,
      );
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('PlayerNotFound');
    });

    it("answers 401 signed out and 404 for another developer's game on every console call", async () => {
      const p = await loggedIn('owned');
      const stranger = (await signedInDeveloper(ctx.t)).cookie;
      const base = `/api/games/${ctx.game.game_id}`;
      const name = encodeURIComponent(p.name);
      const calls: [Parameters<typeof call>[1], string, unknown?][] = [
        ['GET', '/player-auth'],
        ['PUT', '/player-auth', { enabled: false }],
        ['GET', '/player-auth/emails'],
        ['PUT', '/player-auth/emails', { reply_to: 'x@example.com' }],
        ['GET', '/players'],
        ['POST', `/players/${name}/disable`, {}],
        ['POST', `/players/${name}/enable`, {}],
        ['PUT', `/players/${name}/password`, { password: 'Other-Pass1' }],
        ['DELETE', `/players/${name}`],
      ];
      for (const [method, path, body] of calls) {
        const opts = body === undefined ? {} : { body };
        expect((await call(ctx.t.app, method, base + path, opts)).statusCode, `${method} ${path}`).toBe(401);
        const other = await call(ctx.t.app, method, base + path, { ...opts, cookie: stranger });
        expect(other.statusCode, `${method} ${path}`).toBe(404);
        expect(other.json().error.code).toBe('NotFound');
      }
      // Nothing changed.
      expect((await console('GET', '/player-auth')).json().enabled).toBe(true);
      expect((await v1('GET', '/v1/players/me', { token: p.access_token })).statusCode).toBe(200);
    });

    it('leaves no account or data behind when the game is deleted while players register and save', async () => {
      const game = await newGame('Racing');
      const opts = { apiKey: game.api_key, gameId: game.game_id };
      const writes = Array.from({ length: 20 }, (_, i) => [
        register(`racer-${i}`, `racer-${i}@example.com`, opts),
        v1('PUT', `/v1/player-data/racer-${i}`, { ...opts, body: { player_data: { i } } }),
      ]).flat();
      const [deleted, ...answers] = await Promise.all([
        call(ctx.t.app, 'DELETE', `/api/games/${game.game_id}`, { cookie: ctx.cookie }),
        ...writes,
      ]);
      expect(deleted!.statusCode).toBe(200);
      // Each write landed before the delete (200) or found the game gone (403 unknown key, 404): never a 500.
      expect(answers.map((a) => a.statusCode).filter((code) => ![200, 403, 404].includes(code))).toEqual([]);
      const db = ctx.t.database.db;
      const left = await Promise.all([
        db.selectFrom('identity_users').select('id').where('pool_id', '=', `game:${game.game_id}`).execute(),
        db.selectFrom('player_data').select('player_name').where('game_id', '=', game.game_id).execute(),
      ]);
      expect(left.map((rows) => rows.length)).toEqual([0, 0]);
    });

    it("deletes a game while the console changes its players' passwords: 200 or 404, never a 500", async () => {
      for (let round = 0; round < 3; round++) await deleteGameWhileChangingPasswords(round);
    });

    async function deleteGameWhileChangingPasswords(round: number) {
      const game = await newGame(`Contested ${round}`);
      const opts = { apiKey: game.api_key, gameId: game.game_id };
      const names = await Promise.all(
        Array.from({ length: 6 }, async (_, i) => (await loggedIn(`held-${round}-${i}`, {}, opts)).name),
      );
      const changes = names.map((name) =>
        console('PUT', `/players/${encodeURIComponent(name)}/password`, { password: 'Other-Pass8' }, game.game_id),
      );
      const [deleted, ...answers] = await Promise.all([
        call(ctx.t.app, 'DELETE', `/api/games/${game.game_id}`, { cookie: ctx.cookie }),
        ...changes,
      ]);
      expect(deleted!.statusCode).toBe(200);
      expect(answers.map((a) => a.statusCode).filter((code) => code !== 200 && code !== 404)).toEqual([]);
    }

    it('deletes a game while the console adds a board and saves its mails: 200 or 404, nothing left behind', async () => {
      for (let round = 0; round < 4; round++) {
        const game = await newGame(`Vanishing ${round}`);
        const base = `/api/games/${game.game_id}`;
        const [deleted, ...answers] = await Promise.all([
          call(ctx.t.app, 'DELETE', base, { cookie: ctx.cookie }),
          ...['a', 'b', 'c'].map((name) =>
            call(ctx.t.app, 'POST', `${base}/leaderboards`, { cookie: ctx.cookie, body: { name } }),
          ),
          console('PUT', '/player-auth/emails', { reply_to: 'late@example.com' }, game.game_id),
          console('PUT', '/player-auth/emails', { reset_subject: 'Late' }, game.game_id),
        ]);
        expect(deleted!.statusCode).toBe(200);
        // A board created before the delete answers 201, the mails saved before it 200.
        const seen = answers.map((a) => (a.statusCode < 300 ? 'done' : `${a.statusCode} ${a.json().error?.code}`));
        expect(
          seen.filter((s) => s !== 'done' && s !== '404 NotFound'),
          `round ${round}`,
        ).toEqual([]);
        const db = ctx.t.database.db;
        const left = await Promise.all([
          db.selectFrom('leaderboards').select('id').where('game_id', '=', game.game_id).execute(),
          db.selectFrom('player_email_templates').select('game_id').where('game_id', '=', game.game_id).execute(),
        ]);
        expect(left.map((rows) => rows.length)).toEqual([0, 0]);
      }
    });

    it('deletes the players, their sessions and the mail settings with the game', async () => {
      const game = await newGame('Doomed');
      const opts = { apiKey: game.api_key, gameId: game.game_id };
      await loggedIn('doomed', { remember_me: true }, opts);
      await console('PUT', '/player-auth/emails', { reply_to: 'doomed@example.com' }, game.game_id);
      const del = await call(ctx.t.app, 'DELETE', `/api/games/${game.game_id}`, { cookie: ctx.cookie });
      expect(del.statusCode).toBe(200);
      const db = ctx.t.database.db;
      const left = await Promise.all([
        db.selectFrom('identity_users').select('id').where('pool_id', '=', `game:${game.game_id}`).execute(),
        db.selectFrom('player_email_templates').select('game_id').where('game_id', '=', game.game_id).execute(),
      ]);
      expect(left.map((rows) => rows.length)).toEqual([0, 0]);
    });
  });
}

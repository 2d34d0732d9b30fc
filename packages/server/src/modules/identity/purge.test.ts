import { describe, expect, it } from 'vitest';
import { startTestApp, STRONG_PASSWORD } from '../../../test/support/app.js';
import { playerGame } from '../../../test/support/players.js';
import { DIALECTS } from '../../../test/support/services.js';
import { sha256 } from '../../lib/tokens.js';

const MINUTE = 60_000;
const DAY = 86_400_000;

for (const { dialect, skip } of DIALECTS) {
  describe.skipIf(skip)(`${dialect}: purging expired sessions and codes (issue 14, item 10)`, () => {
    const { ctx, newGame, v1, fresh, register, login, loggedIn } = playerGame(dialect);

    const db = () => ctx.t.database.db;
    const sessionRows = async (tokens: string[]) =>
      (
        await db()
          .selectFrom('identity_sessions')
          .select('token_hash')
          .where(
            'token_hash',
            'in',
            tokens.map((t) => sha256(t)),
          )
          .execute()
      ).length;
    const savedRows = async (token: string) =>
      (
        await db()
          .selectFrom('identity_saved_sessions')
          .select('token_hash')
          .where('token_hash', '=', sha256(token))
          .execute()
      ).length;
    const codeRows = async (playerName: string) =>
      db()
        .selectFrom('identity_codes as c')
        .innerJoin('identity_users as u', 'u.id', 'c.user_id')
        .select('c.purpose')
        .where('u.username', '=', playerName)
        .execute();

    it('deletes expired sessions, saved sessions and codes in bounded batches, and keeps live ones', async () => {
      const game = await newGame('Purge', { session_duration_seconds: 60, saved_session_days: 1 });
      const forever = await newGame('Purge Forever', { session_duration_seconds: 0 });
      const opts = { apiKey: game.api_key, gameId: game.game_id };
      const saver = await loggedIn('purge-saved', { remember_me: true }, opts);
      const many = await loggedIn('purge-many', {}, opts);
      const expired = [saver.access_token, many.access_token];
      for (let i = 0; i < 4; i++) expired.push((await login(many.name, STRONG_PASSWORD, {}, opts)).json().access_token);
      const lasting = await loggedIn('purge-forever', {}, { apiKey: forever.api_key, gameId: forever.game_id });
      const pending = fresh('purge-pending');
      await register(pending.name, pending.email, opts);
      const resetter = await loggedIn('purge-reset', {}, opts);
      await v1('POST', '/v1/players/password-reset', { ...opts, body: { player_name: resetter.name } });

      ctx.t.clock.advance(30 * MINUTE);
      const resumed = (
        await v1('POST', '/v1/players/sessions/resume', {
          ...opts,
          body: { saved_session: saver.saved_session!.token },
        })
      ).json();
      const late = await loggedIn('purge-late', {}, opts);
      const live = [resumed.access_token, late.access_token, lasting.access_token];

      // Batches of 2: eight expired sessions (six logins, two confirmations) take several statements, and every one goes.
      const purged = await ctx.t.app.purgeExpired({ batchSize: 2 });
      expect(purged).toEqual({ sessions: 8, savedSessions: 0, codes: 1, pendingSubscriptions: 0 });
      expect(await sessionRows(expired)).toBe(0);
      expect(await sessionRows(live)).toBe(3);
      expect(await savedRows(saver.saved_session!.token)).toBe(1);
      expect(await codeRows(resetter.name)).toEqual([]);
      expect(await codeRows(pending.name)).toEqual([{ purpose: 'confirm_sign_up' }]);

      // Ten seconds before the saved session ends, it mints one more session, which outlives it.
      ctx.t.clock.advance(DAY - 30 * MINUTE - 10_000);
      const last = (
        await v1('POST', '/v1/players/sessions/resume', {
          ...opts,
          body: { saved_session: saver.saved_session!.token },
        })
      ).json();
      ctx.t.clock.advance(20_000);
      expect(await ctx.t.app.purgeExpired()).toMatchObject({ savedSessions: 1 });
      expect(await savedRows(saver.saved_session!.token)).toBe(0);
      expect(await sessionRows(live)).toBe(1);
      expect(await sessionRows([last.access_token])).toBe(1);
      expect((await v1('GET', '/v1/players/me', { ...opts, token: last.access_token })).statusCode).toBe(200);
      expect(await codeRows(pending.name)).toEqual([]);

      ctx.t.clock.advance(MINUTE);
      await ctx.t.app.purgeExpired();
      expect(await sessionRows([last.access_token, lasting.access_token])).toBe(1);
      expect(
        (
          await v1('GET', '/v1/players/me', {
            token: lasting.access_token,
            apiKey: forever.api_key,
            gameId: forever.game_id,
          })
        ).statusCode,
      ).toBe(200);
    });

    it('purges when a server starts and the run is due', async () => {
      const p = await loggedIn('purge-at-start');
      const user = await db()
        .selectFrom('identity_users')
        .select('id')
        .where('username', '=', p.name)
        .executeTakeFirstOrThrow();
      await db()
        .insertInto('identity_sessions')
        .values({ token_hash: 'long-expired', user_id: user.id, created_at: 0, expires_at: 1, session_version: 0 })
        .execute();
      // The run is due (the server that claimed the last one stopped long ago); a second server on the
      // same database claims it when it starts, and closing it waits for the purge it started.
      await db().updateTable('scheduled_jobs').set({ next_run_at: 0 }).execute();
      const other = await startTestApp({ dialect, database: ctx.t.database });
      await other.close();
      expect(
        await db()
          .selectFrom('identity_sessions')
          .select('token_hash')
          .where('token_hash', '=', 'long-expired')
          .execute(),
      ).toEqual([]);
      expect(await sessionRows([p.access_token])).toBe(1);
    });
  });
}

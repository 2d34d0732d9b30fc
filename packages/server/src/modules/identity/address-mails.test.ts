import { describe, expect, it } from 'vitest';
import { call, STRONG_PASSWORD, uniqueIp } from '../../../test/support/app.js';
import { playerGame } from '../../../test/support/players.js';
import { DIALECTS } from '../../../test/support/services.js';

for (const { dialect, skip } of DIALECTS) {
  describe.skipIf(skip)(`${dialect}: code mails per address`, () => {
    const { ctx, newGame, register, v1 } = playerGame(dialect);

    it('mails one address at most 10 codes an hour, whatever the names, games and pools asking', async () => {
      const other = await newGame('Other game', { reg_type: 'email_un_pwd', email_confirmation: true });
      await call(ctx.t.app, 'PUT', `/api/games/${ctx.game.game_id}/player-auth`, {
        cookie: ctx.cookie,
        body: { reg_type: 'email_un_pwd', email_confirmation: true },
      });
      const address = `someone-${process.pid}@example.com`;
      const mailsTo = () => ctx.t.smtp.messages.filter((m) => m.to.includes(address)).length;
      // Refused sign-ups mail nothing and count nothing: a taken name, a weak password.
      expect((await register('taken', `other-${process.pid}@example.com`, { ip: uniqueIp() })).statusCode).toBe(200);
      for (let i = 0; i < 12; i++) {
        const res = await register('taken', address, { ip: uniqueIp() });
        expect([res.statusCode, res.json().error.code]).toEqual([409, 'PlayerNameTaken']);
      }
      const weak = await v1('POST', '/v1/players', {
        ip: uniqueIp(),
        body: { player_name: 'weak', email: address, password: 'weak', confirm_password: 'weak' },
      });
      expect(weak.statusCode).toBe(400);
      // Each from a network of its own, as a spammer's would be; the letter case of the address does not matter.
      for (let i = 0; i < 8; i++) {
        const game = i % 2 ? other : ctx.game;
        const email = i % 3 ? address : address.toUpperCase();
        const res = await v1('POST', '/v1/players', {
          apiKey: game.api_key,
          gameId: game.game_id,
          ip: uniqueIp(),
          body: { player_name: `sender-${i}`, email, password: STRONG_PASSWORD, confirm_password: STRONG_PASSWORD },
        });
        expect(res.statusCode, `registration ${i}`).toBe(200);
      }
      // Six at once for the last two mails: two are made, four refused, and none of those four exists.
      const together = await Promise.all(
        [8, 9, 10, 11, 12, 13].map((i) => register(`sender-${i}`, address, { ip: uniqueIp() })),
      );
      expect(together.map((r) => r.statusCode).sort()).toEqual([200, 200, 429, 429, 429, 429]);
      await ctx.t.smtp.waitFor(address, 10);
      expect(mailsTo()).toBe(10);

      const refused = await register('sender-14', address, { ip: uniqueIp() });
      expect(refused.statusCode).toBe(429);
      expect(refused.json().error.code).toBe('LimitExceeded');
      // No account was made that its address could never confirm.
      const listed = await call(ctx.t.app, 'GET', `/api/games/${ctx.game.game_id}/players?limit=50`, {
        cookie: ctx.cookie,
      });
      const names: string[] = listed.json().players.map((p: { player_name: string }) => p.player_name);
      const made = [8, 9, 10, 11, 12, 13].filter((i) => together[i - 8]!.statusCode === 200).map((i) => `sender-${i}`);
      expect(names.filter((n) => /^sender-(8|9|1[0-4])$/.test(n)).sort()).toEqual(made.sort());
      const reset = await v1('POST', '/v1/players/password-reset', {
        ip: uniqueIp(),
        body: { player_name: 'sender-0' },
      });
      expect([reset.statusCode, reset.json().error.code]).toEqual([429, 'LimitExceeded']);
      const developer = await call(ctx.t.app, 'POST', '/api/auth/sign-up', {
        ip: uniqueIp(),
        body: { email: address, password: STRONG_PASSWORD, firstName: 'A', lastName: 'B' },
      });
      expect([developer.statusCode, developer.json().error.code]).toEqual([429, 'LimitExceeded']);
      expect(mailsTo()).toBe(10);

      // Another address is not affected.
      expect((await register('sender-15', `else-${process.pid}@example.com`, { ip: uniqueIp() })).statusCode).toBe(200);
    });
  });
}

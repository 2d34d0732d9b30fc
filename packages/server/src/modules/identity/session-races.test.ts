import { describe, expect, it } from 'vitest';
import { call, sessionCookie, signedInDeveloper, STRONG_PASSWORD } from '../../../test/support/app.js';
import { playerGame } from '../../../test/support/players.js';
import { DIALECTS } from '../../../test/support/services.js';

const ROUNDS = 6;
const SIGN_INS = 10;
const PASSWORDS = [STRONG_PASSWORD, 'Other-Pass8'] as const;

/**
 * Starts a password change and, a few milliseconds apart, sign-ins with the password it replaces;
 * answers the tokens those sign-ins got. Sign-ins that read the old hash before the change commits
 * finish their check after it, which is where a session minted from the old password could slip in.
 */
async function raceSignIns(change: () => Promise<void>, signIn: () => Promise<string | undefined>) {
  const changed = change();
  const tokens = await Promise.all(
    Array.from({ length: SIGN_INS }, async (_, i) => {
      await new Promise((resolve) => setTimeout(resolve, i * 3));
      return signIn();
    }),
  );
  await changed;
  return tokens.filter((token): token is string => token !== undefined);
}

const ok = (res: { statusCode: number; body: string }, what: string) => {
  if (res.statusCode !== 200) throw new Error(`${what} failed: ${res.body}`);
};

for (const { dialect, skip } of DIALECTS) {
  describe.skipIf(skip)(`${dialect}: sessions minted while a password changes (issue 14, items 9 and 23)`, () => {
    const { ctx, console, v1, loggedIn } = playerGame(dialect, {
      // Every sign-in of a round is in flight at once, and each round mails a code.
      env: { SIGNIN_FAILURES_PER_ACCOUNT: '100000', CODE_MAILS_PER_ACCOUNT_PER_HOUR: '100000' },
    });
    const me = (token: string) => v1('GET', '/v1/players/me', { token });
    const playerSignIn = (name: string, password: string) => async () => {
      const res = await v1('POST', '/v1/players/login', { body: { player_name: name, password } });
      return res.statusCode === 200 ? (res.json().access_token as string) : undefined;
    };
    const developerSignIn = (email: string, password: string) => async () =>
      sessionCookie(await call(ctx.t.app, 'POST', '/api/auth/sign-in', { body: { email, password } }));
    const developerSession = (cookie: string) => call(ctx.t.app, 'GET', '/api/auth/session', { cookie });

    it("a token minted from the old password stops working when the console sets a player's password", async () => {
      const p = await loggedIn('console-race');
      const path = `/players/${encodeURIComponent(p.name)}/password`;
      for (let round = 0; round < ROUNDS; round++) {
        const [from, to] = [PASSWORDS[round % 2]!, PASSWORDS[(round + 1) % 2]!];
        const tokens = await raceSignIns(
          async () => ok(await console('PUT', path, { password: to }), 'set-password'),
          playerSignIn(p.name, from),
        );
        for (const token of tokens) {
          const res = await me(token);
          expect([round, res.statusCode, res.json().error?.code]).toEqual([round, 401, 'SessionExpired']);
        }
      }
    });

    it('a token minted from the old password stops working when a reset is requested', async () => {
      const p = await loggedIn('request-race');
      const path = `/players/${encodeURIComponent(p.name)}/password`;
      for (let round = 0; round < ROUNDS; round++) {
        const tokens = await raceSignIns(
          async () => ok(await v1('POST', '/v1/players/password-reset', { body: { player_name: p.name } }), 'reset'),
          playerSignIn(p.name, STRONG_PASSWORD),
        );
        for (const token of tokens) {
          const res = await me(token);
          expect([round, res.statusCode, res.json().error?.code]).toEqual([round, 401, 'SessionExpired']);
        }
        // The developer ends the pending reset for the next round.
        ok(await console('PUT', path, { password: STRONG_PASSWORD }), 'set-password');
      }
    });

    it('a session signed in with the old password stops working when a developer changes it', async () => {
      const { email, cookie } = await signedInDeveloper(ctx.t);
      for (let round = 0; round < ROUNDS; round++) {
        const [from, to] = [PASSWORDS[round % 2]!, PASSWORDS[(round + 1) % 2]!];
        const tokens = await raceSignIns(
          async () => {
            const res = await call(ctx.t.app, 'POST', '/api/auth/change-password', {
              cookie,
              body: { oldPassword: from, newPassword: to },
            });
            ok(res, 'change-password');
          },
          developerSignIn(email, from),
        );
        for (const token of tokens) expect([round, (await developerSession(token)).statusCode]).toEqual([round, 401]);
        // The session that changed the password stays.
        expect((await developerSession(cookie)).statusCode).toBe(200);
      }
    });

    it('a session signed in with the old password stops working when a developer resets it with the code', async () => {
      const { email } = await signedInDeveloper(ctx.t);
      for (let round = 0; round < ROUNDS; round++) {
        const [from, to] = [PASSWORDS[round % 2]!, PASSWORDS[(round + 1) % 2]!];
        ok(await call(ctx.t.app, 'POST', '/api/auth/forgot-password', { body: { email } }), 'forgot-password');
        const code = ctx.t.smtp.lastCode(email);
        const tokens = await raceSignIns(
          async () => {
            const res = await call(ctx.t.app, 'POST', '/api/auth/confirm-forgot-password', {
              body: { email, code, newPassword: to },
            });
            ok(res, 'confirm-forgot-password');
          },
          developerSignIn(email, from),
        );
        for (const token of tokens) expect([round, (await developerSession(token)).statusCode]).toEqual([round, 401]);
      }
    });
  });
}

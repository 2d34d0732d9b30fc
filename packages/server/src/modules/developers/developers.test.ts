import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  sessionCookie,
  signedInDeveloper,
  startTestApp,
  STRONG_PASSWORD,
  uniqueEmail,
  type TestApp,
} from '../../../test/support/app.js';
import { developerCalls } from '../../../test/support/developers.js';
import { DIALECTS } from '../../../test/support/services.js';

const HOUR = 3_600_000;

for (const { dialect, skip } of DIALECTS) {
  describe.skipIf(skip)(`${dialect}: developer accounts (/api/auth)`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ dialect });
    });
    afterAll(() => t?.close());

    const { signUp, confirm, signIn, freshSession } = developerCalls(() => t);
    const session = (cookie?: string) => call(t.app, 'GET', '/api/auth/session', cookie ? { cookie } : {});

    /** A confirmed developer and the session cookie that confirmation set. */
    const confirmedDeveloper = (email?: string) => signedInDeveloper(t, email);

    describe('POST /api/auth/sign-up', () => {
      it('stores an unconfirmed account with its names, lowercased, and mails a 6-digit code', async () => {
        const email = uniqueEmail('Mixed.Case');
        const res = await signUp(`  ${email.toUpperCase()} `, { company: 'A studio' });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({
          email: email.toLowerCase(),
          confirmed: false,
          codeDeliveryDestination: expect.stringMatching(/^m\*\*\*@example\.com$/),
        });

        const user = await t.database.db
          .selectFrom('identity_users')
          .selectAll()
          .where('username', '=', email.toLowerCase())
          .executeTakeFirstOrThrow();
        expect(user).toMatchObject({
          pool_id: 'developers',
          email: email.toLowerCase(),
          status: 'UNCONFIRMED',
          enabled: 1,
        });
        expect(user.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
        const dev = await t.database.db
          .selectFrom('developers')
          .selectAll()
          .where('user_id', '=', user.id)
          .executeTakeFirstOrThrow();
        expect(dev).toMatchObject({ first_name: 'Indie', last_name: 'Developer', company: 'A studio' });
        expect(t.smtp.lastCode(email.toLowerCase())).toMatch(/^\d{6}$/);
      });

      it('stores no company when none is given', async () => {
        const { cookie } = await confirmedDeveloper();
        expect((await session(cookie)).json().company).toBeNull();
      });

      it.each([
        ['email', { email: 'not-an-email' }, 'Please enter a valid email address.'],
        ['firstName', { firstName: '  ' }, 'Please enter your first name and last name.'],
        ['lastName', { lastName: '' }, 'Please enter your first name and last name.'],
      ])('answers 400 InvalidParameter naming the field %s', async (field, override, message) => {
        const res = await call(t.app, 'POST', '/api/auth/sign-up', {
          body: { email: uniqueEmail(), password: STRONG_PASSWORD, firstName: 'A', lastName: 'B', ...override },
        });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ error: { code: 'InvalidParameter', message, field } });
      });

      it.each([
        ['shorter than 8 characters', 'Aa1!aaa'],
        ['without upper case', 'howl-pass1'],
        ['without lower case', 'HOWL-PASS1'],
        ['without a number', 'Howl-Pass'],
        ['without a symbol', 'HowlPass1'],
      ])('refuses a password %s with 400 InvalidPassword and stores nothing', async (_why, password) => {
        const email = uniqueEmail();
        const res = await signUp(email, { password });
        expect(res.statusCode).toBe(400);
        expect(res.json().error.code).toBe('InvalidPassword');
        const row = await t.database.db
          .selectFrom('identity_users')
          .select('id')
          .where('username', '=', email)
          .executeTakeFirst();
        expect(row).toBeUndefined();
      });

      it('answers 409 UsernameExists for a confirmed email and mails nothing', async () => {
        const { email } = await confirmedDeveloper();
        const mailsBefore = t.smtp.messages.length;
        const res = await signUp(email.toUpperCase());
        expect(res.statusCode).toBe(409);
        expect(res.json().error.code).toBe('UsernameExists');
        expect(t.smtp.messages.length).toBe(mailsBefore);
      });
    });

    describe('POST /api/auth/confirm-sign-up', () => {
      it('confirms, signs the developer in and answers the session', async () => {
        const email = uniqueEmail();
        await signUp(email);
        const res = await confirm(email, t.smtp.lastCode(email));
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual(freshSession(email));
        const cookie = sessionCookie(res)!;
        expect((await session(cookie)).json().email).toBe(email);
        const row = await t.database.db
          .selectFrom('identity_users')
          .select('status')
          .where('username', '=', email)
          .executeTakeFirstOrThrow();
        expect(row.status).toBe('CONFIRMED');
      });

      it('answers 400 CodeMismatch for a wrong code', async () => {
        const email = uniqueEmail();
        await signUp(email);
        const wrong = t.smtp.lastCode(email) === '000000' ? '111111' : '000000';
        const res = await confirm(email, wrong);
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toEqual({ code: 'CodeMismatch', message: 'Invalid confirmation code.' });
      });

      it('answers 400 ExpiredCode for a code older than 24 hours, and accepts one just inside', async () => {
        const a = uniqueEmail();
        const b = uniqueEmail();
        await signUp(a);
        await signUp(b);
        t.clock.advance(24 * HOUR - 1);
        expect((await confirm(a, t.smtp.lastCode(a))).statusCode).toBe(200);
        t.clock.advance(1);
        const res = await confirm(b, t.smtp.lastCode(b));
        expect(res.statusCode).toBe(400);
        expect(res.json().error.code).toBe('ExpiredCode');
      });

      it('stops accepting a code after 5 wrong tries, even the right one', async () => {
        const email = uniqueEmail();
        await signUp(email);
        const code = t.smtp.lastCode(email);
        const wrong = code === '000000' ? '111111' : '000000';
        for (let i = 0; i < 5; i++) expect((await confirm(email, wrong)).json().error.code).toBe('CodeMismatch');
        const res = await confirm(email, code);
        expect(res.statusCode).toBe(400);
        expect(res.json().error.code).toBe('ExpiredCode');
      });

      it('answers 404 UserNotFound for an unknown email', async () => {
        const res = await confirm(uniqueEmail(), '123456');
        expect(res.statusCode).toBe(404);
        expect(res.json().error.code).toBe('UserNotFound');
      });

      it('refuses to confirm an account twice', async () => {
        const email = uniqueEmail();
        await signUp(email);
        const code = t.smtp.lastCode(email);
        expect((await confirm(email, code)).statusCode).toBe(200);
        const again = await confirm(email, code);
        expect(again.statusCode).toBe(400);
        expect(again.json().error.code).toBe('InvalidParameter');
      });
    });

    describe('POST /api/auth/resend-code', () => {
      it('mails a new code that confirms the account', async () => {
        const email = uniqueEmail();
        await signUp(email);
        const res = await call(t.app, 'POST', '/api/auth/resend-code', { body: { email } });
        expect(res.statusCode).toBe(200);
        expect(t.smtp.messages.filter((m) => m.to.includes(email))).toHaveLength(2);
        expect((await confirm(email, t.smtp.lastCode(email))).statusCode).toBe(200);
      });

      it('answers 404 UserNotFound for an unknown email and 400 for a confirmed one', async () => {
        expect(
          (await call(t.app, 'POST', '/api/auth/resend-code', { body: { email: uniqueEmail() } })).json().error.code,
        ).toBe('UserNotFound');
        const { email } = await confirmedDeveloper();
        const res = await call(t.app, 'POST', '/api/auth/resend-code', { body: { email } });
        expect(res.statusCode).toBe(400);
        expect(res.json().error.code).toBe('InvalidParameter');
      });
    });

    describe('POST /api/auth/sign-in', () => {
      it('signs in with any casing of the email and sets an HttpOnly, SameSite=Lax session cookie', async () => {
        const { email } = await confirmedDeveloper();
        const res = await signIn(` ${email.toUpperCase()}`);
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual(freshSession(email));
        const cookie = res.cookies.find((c) => c.name === 'howl_session')!;
        expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
        expect(cookie.secure).toBeFalsy();
        expect(cookie.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
        // Only the hash of the token is stored.
        const stored = await t.database.db.selectFrom('identity_sessions').select('token_hash').execute();
        expect(stored.map((s) => s.token_hash)).not.toContain(cookie.value);
      });

      it('answers 404 UserNotFound, 401 NotAuthorized and 403 UserNotConfirmed', async () => {
        const unknown = await signIn(uniqueEmail());
        expect([unknown.statusCode, unknown.json().error.code]).toEqual([404, 'UserNotFound']);
        const { email } = await confirmedDeveloper();
        const wrong = await signIn(email, 'Wrong-Pass1');
        expect([wrong.statusCode, wrong.json().error.code]).toEqual([401, 'NotAuthorized']);
        const pending = uniqueEmail();
        await signUp(pending);
        const unconfirmed = await signIn(pending);
        expect([unconfirmed.statusCode, unconfirmed.json().error.code]).toEqual([403, 'UserNotConfirmed']);
      });
    });

    describe('POST /api/auth/forgot-password and confirm-forgot-password', () => {
      const forgot = (email: string) => call(t.app, 'POST', '/api/auth/forgot-password', { body: { email } });
      const reset = (email: string, code: string, newPassword = 'New-Pass2') =>
        call(t.app, 'POST', '/api/auth/confirm-forgot-password', { body: { email, code, newPassword } });

      it('mails a code, sets the new password and ends every session', async () => {
        const { email, cookie } = await confirmedDeveloper();
        expect((await forgot(email)).statusCode).toBe(200);
        const code = t.smtp.lastCode(email);
        expect(t.smtp.messages.at(-1)!.raw).toContain('Your Howl password reset code');
        expect((await reset(email, code)).json()).toEqual({ ok: true });
        expect((await session(cookie)).statusCode).toBe(401);
        expect((await signIn(email)).statusCode).toBe(401);
        expect((await signIn(email, 'New-Pass2')).statusCode).toBe(200);
        // Single use.
        expect((await reset(email, code, 'Other-Pass3')).json().error.code).toBe('ExpiredCode');
      });

      it('answers 404 UserNotFound for an unknown email', async () => {
        const res = await forgot(uniqueEmail());
        expect([res.statusCode, res.json().error.code]).toEqual([404, 'UserNotFound']);
      });

      it('answers CodeMismatch, InvalidPassword (keeping the code) and ExpiredCode after 15 minutes', async () => {
        const { email } = await confirmedDeveloper();
        await forgot(email);
        const code = t.smtp.lastCode(email);
        const wrong = code === '000000' ? '111111' : '000000';
        expect((await reset(email, wrong)).json().error.code).toBe('CodeMismatch');
        const weak = await reset(email, code, 'weak');
        expect([weak.statusCode, weak.json().error.code]).toEqual([400, 'InvalidPassword']);
        t.clock.advance(15 * 60_000);
        expect((await reset(email, code)).json().error.code).toBe('ExpiredCode');
        expect((await signIn(email)).statusCode).toBe(200);
      });
    });

    describe('POST /api/auth/change-password', () => {
      const change = (cookie: string | undefined, oldPassword: string, newPassword: string) =>
        call(t.app, 'POST', '/api/auth/change-password', {
          body: { oldPassword, newPassword },
          ...(cookie ? { cookie } : {}),
        });

      it('changes the password, keeps this session and ends the others', async () => {
        const { email, cookie } = await confirmedDeveloper();
        const other = sessionCookie(await signIn(email))!;
        expect((await change(cookie, STRONG_PASSWORD, 'Changed-Pass4')).json()).toEqual({ ok: true });
        expect((await session(cookie)).statusCode).toBe(200);
        expect((await session(other)).statusCode).toBe(401);
        expect((await signIn(email)).statusCode).toBe(401);
        expect((await signIn(email, 'Changed-Pass4')).statusCode).toBe(200);
      });

      it('answers 401 NotAuthorized for a wrong old password or no session, 400 InvalidPassword for a weak one', async () => {
        const { cookie } = await confirmedDeveloper();
        const wrong = await change(cookie, 'Not-The-Pass1', 'Changed-Pass4');
        expect([wrong.statusCode, wrong.json().error]).toEqual([
          401,
          { code: 'NotAuthorized', message: 'Your old password is incorrect.' },
        ]);
        const weak = await change(cookie, STRONG_PASSWORD, 'short');
        expect([weak.statusCode, weak.json().error.code]).toEqual([400, 'InvalidPassword']);
        const signedOut = await change(undefined, STRONG_PASSWORD, 'Changed-Pass4');
        expect([signedOut.statusCode, signedOut.json().error.code]).toEqual([401, 'NotAuthorized']);
      });
    });

    describe('GET /api/auth/session and POST /api/auth/sign-out', () => {
      it('answers 401 NotAuthorized without a session or with a made-up one', async () => {
        for (const cookie of [undefined, 'made-up-token']) {
          const res = await session(cookie);
          expect(res.statusCode).toBe(401);
          expect(res.json().error.code).toBe('NotAuthorized');
        }
      });

      it('GET /api/auth/whoami answers 200 with the session, or null without one', async () => {
        const a = await confirmedDeveloper();
        const whoami = (cookie?: string) => call(t.app, 'GET', '/api/auth/whoami', cookie ? { cookie } : {});
        for (const cookie of [undefined, 'made-up-token']) {
          const res = await whoami(cookie);
          expect(res.statusCode).toBe(200);
          expect(res.json()).toEqual({ session: null });
        }
        const mine = await whoami(a.cookie);
        expect(mine.json().session).toEqual((await session(a.cookie)).json());
        expect(mine.json().session.email).toBe(a.email);
      });

      it("never lets one developer's cookie read another's account", async () => {
        const a = await confirmedDeveloper();
        const b = await confirmedDeveloper();
        expect((await session(a.cookie)).json().email).toBe(a.email);
        expect((await session(b.cookie)).json().email).toBe(b.email);
      });

      it('ends a session after 30 days', async () => {
        const { cookie } = await confirmedDeveloper();
        t.clock.advance(30 * 24 * HOUR - 1);
        expect((await session(cookie)).statusCode).toBe(200);
        t.clock.advance(1);
        expect((await session(cookie)).statusCode).toBe(401);
      });

      it('signs out with an empty body, and clears the cookie even when the session is gone', async () => {
        const { cookie } = await confirmedDeveloper();
        const empty = await t.app.inject({
          method: 'POST',
          url: '/api/auth/sign-out',
          headers: { 'content-type': 'application/json' },
          cookies: { howl_session: cookie },
        });
        expect(empty.statusCode).toBe(200);
        const again = await call(t.app, 'POST', '/api/auth/sign-out', { body: {}, cookie });
        expect(again.statusCode).toBe(401);
        expect(again.cookies.find((c) => c.name === 'howl_session')?.value).toBe('');
      });

      it('signs out on every device and clears the cookie', async () => {
        const { email, cookie } = await confirmedDeveloper();
        const other = sessionCookie(await signIn(email))!;
        const res = await call(t.app, 'POST', '/api/auth/sign-out', { body: {}, cookie });
        expect(res.statusCode).toBe(200);
        expect(res.cookies.find((c) => c.name === 'howl_session')?.value).toBe('');
        expect((await session(cookie)).statusCode).toBe(401);
        expect((await session(other)).statusCode).toBe(401);
      });
    });
  });
}

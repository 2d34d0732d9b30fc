import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, STRONG_PASSWORD, uniqueEmail, uniqueIp, type TestApp } from '../../../test/support/app.js';
import { sharedRedis } from '../../../test/support/redis-cluster.js';
import { DIALECTS } from '../../../test/support/services.js';

async function confirmed(t: TestApp, email: string) {
  await call(t.app, 'POST', '/api/auth/sign-up', {
    body: { email, password: STRONG_PASSWORD, firstName: 'A', lastName: 'B' },
  });
  await call(t.app, 'POST', '/api/auth/confirm-sign-up', { body: { email, code: t.smtp.lastCode(email) } });
}

function expectLimited(res: Awaited<ReturnType<typeof call>>) {
  expect(res.statusCode).toBe(429);
  expect(res.json().error.code).toBe('LimitExceeded');
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
}

for (const { dialect, skip } of DIALECTS) {
  describe.skipIf(skip)(`${dialect}: auth rate limits (defaults)`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ dialect });
    });
    afterAll(() => t?.close());

    it('refuses the 11th sign-in after 10 failures in 15 minutes, even with the right password', async () => {
      const email = uniqueEmail();
      await confirmed(t, email);
      for (let i = 0; i < 10; i++) {
        const res = await call(t.app, 'POST', '/api/auth/sign-in', { body: { email, password: 'Wrong-Pass1' } });
        expect(res.json().error.code).toBe('NotAuthorized');
      }
      const res = await call(t.app, 'POST', '/api/auth/sign-in', { body: { email, password: STRONG_PASSWORD } });
      expectLimited(res);
      expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);
    });

    it('counts parallel failed sign-ins: 40 at once get at most 10 answers, the rest 429', async () => {
      const email = uniqueEmail();
      await confirmed(t, email);
      const results = await Promise.all(
        Array.from({ length: 40 }, () =>
          call(t.app, 'POST', '/api/auth/sign-in', { body: { email, password: 'Wrong-Pass1' } }),
        ),
      );
      const codes = results.map((r) => r.json().error.code);
      expect(codes.filter((c) => c === 'NotAuthorized').length).toBeLessThanOrEqual(10);
      expect(codes.filter((c) => c === 'LimitExceeded').length).toBeGreaterThanOrEqual(30);
    });

    it('lets a burst of wrong codes try at most 5 before the code dies', async () => {
      const email = uniqueEmail();
      await call(t.app, 'POST', '/api/auth/sign-up', {
        body: { email, password: STRONG_PASSWORD, firstName: 'A', lastName: 'B' },
      });
      const code = t.smtp.lastCode(email);
      const wrong = code === '000000' ? '111111' : '000000';
      const results = await Promise.all(
        Array.from({ length: 10 }, () =>
          call(t.app, 'POST', '/api/auth/confirm-sign-up', { body: { email, code: wrong } }),
        ),
      );
      expect(results.filter((r) => r.json().error.code === 'CodeMismatch').length).toBeLessThanOrEqual(5);
      const right = await call(t.app, 'POST', '/api/auth/confirm-sign-up', { body: { email, code } });
      expect(right.statusCode).not.toBe(200);
    });

    it('refuses code guesses with 429 after 10 wrong ones in 15 minutes, across new codes', async () => {
      const { email } = { email: uniqueEmail() };
      await confirmed(t, email);
      const reset = (code: string) =>
        call(t.app, 'POST', '/api/auth/confirm-forgot-password', { body: { email, code, newPassword: 'New-Pass2' } });
      for (let round = 0; round < 2; round++) {
        await call(t.app, 'POST', '/api/auth/forgot-password', { body: { email } });
        const wrong = t.smtp.lastCode(email) === '000000' ? '111111' : '000000';
        for (let i = 0; i < 5; i++) expect((await reset(wrong)).json().error.code).toBe('CodeMismatch');
      }
      await call(t.app, 'POST', '/api/auth/forgot-password', { body: { email } });
      expectLimited(await reset(t.smtp.lastCode(email)));
    });

    it('counts failures per account: another account still signs in', async () => {
      const other = uniqueEmail();
      await confirmed(t, other);
      expect(
        (await call(t.app, 'POST', '/api/auth/sign-in', { body: { email: other, password: STRONG_PASSWORD } }))
          .statusCode,
      ).toBe(200);
    });

    it('refuses the 31st auth request from one IP within a minute', async () => {
      const ip = uniqueIp();
      for (let i = 0; i < 30; i++) {
        const res = await call(t.app, 'POST', '/api/auth/sign-in', { body: { email: 'bad' }, ip });
        expect(res.statusCode).toBe(400);
      }
      expectLimited(await call(t.app, 'POST', '/api/auth/forgot-password', { body: { email: uniqueEmail() }, ip }));
      // Another IP is not affected.
      expect((await call(t.app, 'POST', '/api/auth/sign-in', { body: { email: 'bad' } })).statusCode).toBe(400);
    });

    it('mails at most 5 codes per account per hour (sign-up, resends and resets together)', async () => {
      const email = uniqueEmail();
      await call(t.app, 'POST', '/api/auth/sign-up', {
        body: { email, password: STRONG_PASSWORD, firstName: 'A', lastName: 'B' },
      });
      for (let i = 0; i < 3; i++)
        expect((await call(t.app, 'POST', '/api/auth/resend-code', { body: { email } })).statusCode).toBe(200);
      expect((await call(t.app, 'POST', '/api/auth/forgot-password', { body: { email } })).statusCode).toBe(200);
      const mails = t.smtp.messages.filter((m) => m.to.includes(email)).length;
      expect(mails).toBe(5);
      expectLimited(await call(t.app, 'POST', '/api/auth/resend-code', { body: { email } }));
      expectLimited(await call(t.app, 'POST', '/api/auth/forgot-password', { body: { email } }));
      expect(t.smtp.messages.filter((m) => m.to.includes(email)).length).toBe(5);
    });
  });
}

for (const shared of sharedRedis()) {
  describe.skipIf(shared.skip)(`${shared.label}: rate limits shared by several server processes`, () => {
    let a: TestApp;
    let b: TestApp;
    beforeAll(async () => {
      // Two apps on one Redis stand for two processes behind a load balancer.
      const options = () => {
        const { env, ...redis } = shared.appOptions();
        return { dialect: 'sqlite' as const, ...redis, env: { ...env, SIGNIN_FAILURES_PER_ACCOUNT: '4' } };
      };
      a = await startTestApp(options());
      b = await startTestApp(options());
    });
    afterAll(async () => {
      await a?.close();
      await b?.close();
    });

    it('counts sign-in failures made on either process against one limit', async () => {
      const email = uniqueEmail();
      for (const t of [a, b, a, b]) {
        const res = await call(t.app, 'POST', '/api/auth/sign-in', { body: { email, password: 'Wrong-Pass1' } });
        expect(res.json().error.code).toBe('UserNotFound');
      }
      expectLimited(await call(a.app, 'POST', '/api/auth/sign-in', { body: { email, password: 'Wrong-Pass1' } }));
      expectLimited(await call(b.app, 'POST', '/api/auth/sign-in', { body: { email, password: 'Wrong-Pass1' } }));
    });

    it('counts one IP across processes', async () => {
      const ip = uniqueIp();
      for (let i = 0; i < 30; i++) await call(i % 2 ? a.app : b.app, 'POST', '/api/auth/sign-in', { body: {}, ip });
      expectLimited(await call(a.app, 'POST', '/api/auth/sign-in', { body: {}, ip }));
    });
  });
}

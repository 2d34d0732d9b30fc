import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, STRONG_PASSWORD, uniqueEmail, type TestApp } from '../../../test/support/app.js';
import { DIALECTS } from '../../../test/support/services.js';

const OUTBOX = '/api/dev/outbox';

for (const { dialect, skip } of DIALECTS) {
  describe.skipIf(skip)(`${dialect}: GET /api/dev/outbox`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({
        dialect,
        smtp: false,
        env: { DEV_OUTBOX: '1', MAIL_FROM: 'Howl <mail@howl.test>', SUPPORT_EMAIL: 'support@howl.test' },
      });
    });
    afterAll(() => t?.close());

    it('keeps mail in the development outbox, newest first', async () => {
      const first = uniqueEmail();
      const second = uniqueEmail();
      for (const email of [first, second]) {
        await call(t.app, 'POST', '/api/auth/sign-up', {
          body: { email, password: STRONG_PASSWORD, firstName: 'A', lastName: 'B' },
        });
      }
      const res = await call(t.app, 'GET', OUTBOX, { ip: '127.0.0.1' });
      expect(res.statusCode).toBe(200);
      const [newest, older] = res.json().messages;
      expect(newest).toMatchObject({ to: second, subject: 'Your Howl confirmation code' });
      expect(older.to).toBe(first);
      expect(newest.text).toMatch(/code is: \d{6}/);
      expect(new Date(newest.sent_at).toString()).not.toBe('Invalid Date');
      expect([newest.from, newest.reply_to]).toEqual(['Howl <mail@howl.test>', null]);
    });

    it("shows each mail's sender and reply address, as SMTP would send them", async () => {
      const visitor = uniqueEmail();
      await call(t.app, 'POST', '/api/contact', { body: { email: visitor, message: 'Hello from the outbox' } });
      const [mail] = (await call(t.app, 'GET', OUTBOX, { ip: '127.0.0.1' })).json().messages;
      expect(mail).toMatchObject({
        from: 'Howl <mail@howl.test>',
        reply_to: visitor,
        to: 'support@howl.test',
        subject: `Contact message from ${visitor}`,
      });
      expect(mail.text).toContain('Hello from the outbox');
    });

    it('answers only to this machine', async () => {
      for (const ip of ['10.1.2.3', '2001:db8::1']) {
        const res = await call(t.app, 'GET', OUTBOX, { ip });
        expect([res.statusCode, res.json().error.code]).toEqual([404, 'NotFound']);
      }
      expect((await call(t.app, 'GET', OUTBOX, { ip: '::1' })).statusCode).toBe(200);
    });

    // A proxy on this machine makes every client look local; a forwarding header gives it away.
    it.each([
      ['forwarded', 'for=203.0.113.7'],
      ['x-forwarded-for', '203.0.113.7'],
      ['x-forwarded-for', '127.0.0.1'],
      ['x-real-ip', '203.0.113.7'],
      ['x-forwarded-host', 'howl.example.com'],
      ['x-forwarded-proto', 'https'],
      ['via', '1.1 proxy'],
      ['true-client-ip', '203.0.113.7'],
      ['cf-connecting-ip', '203.0.113.7'],
    ])('answers 404 to a local request carrying %s', async (header, value) => {
      const res = await t.app.inject({
        method: 'GET',
        url: OUTBOX,
        remoteAddress: '127.0.0.1',
        headers: { [header]: value },
      });
      expect([res.statusCode, res.json().error.code]).toEqual([404, 'NotFound']);
      expect(res.body).not.toContain('code is');
    });
  });
}

describe('sqlite: the development outbox is off unless turned on', () => {
  it.each([
    ['without DEV_OUTBOX', {}],
    ['with DEV_OUTBOX=0', { DEV_OUTBOX: '0' }],
    ['in production', { NODE_ENV: 'production' }],
  ])('does not exist %s', async (_label, env) => {
    const t = await startTestApp({ dialect: 'sqlite', smtp: false, env });
    try {
      const email = uniqueEmail();
      await call(t.app, 'POST', '/api/auth/sign-up', {
        body: { email, password: STRONG_PASSWORD, firstName: 'A', lastName: 'B' },
      });
      const res = await call(t.app, 'GET', OUTBOX, { ip: '127.0.0.1' });
      expect([res.statusCode, res.json().error.code]).toEqual([404, 'NotFound']);
    } finally {
      await t.close();
    }
  });
});

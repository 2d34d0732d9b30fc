import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  call,
  signedInDeveloper,
  startTestApp,
  uniqueEmail,
  uniqueIp,
  type TestApp,
} from '../../../test/support/app.js';
import { DIALECTS } from '../../../test/support/services.js';

for (const { dialect, skip } of DIALECTS) {
  describe.skipIf(skip)(`${dialect}: contact and newsletter`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ dialect, env: { SUPPORT_EMAIL: 'support@howl.test', PUBLIC_URL: 'http://howl.test' } });
    });
    afterAll(() => t?.close());

    const supportMails = () => t.smtp.messages.filter((m) => m.to.includes('support@howl.test'));

    describe('POST /api/contact', () => {
      it("stores a visitor's message and mails it to support with reply-to the sender", async () => {
        const email = uniqueEmail('visitor');
        const res = await call(t.app, 'POST', '/api/contact', {
          body: { email: email.toUpperCase(), message: 'Hello there,\nhow do I wipe a board?' },
        });
        expect(res.json()).toEqual({ ok: true });
        const row = await t.database.db
          .selectFrom('contact_messages')
          .selectAll()
          .where('email', '=', email)
          .executeTakeFirstOrThrow();
        expect(row).toMatchObject({ message: 'Hello there,\nhow do I wipe a board?', developer_id: null });
        const mail = supportMails().at(-1)!;
        expect(mail.raw).toMatch(new RegExp(`Reply-To: ${email.replace(/[.+]/g, '\\$&')}`, 'i'));
        expect(mail.raw).toContain('how do I wipe a board?');
      });

      it("uses a signed-in developer's own email, whatever the body says", async () => {
        const { email, cookie } = await signedInDeveloper(t);
        const res = await call(t.app, 'POST', '/api/contact', {
          body: { email: 'someone-else@example.com', message: 'From a developer' },
          cookie,
        });
        expect(res.statusCode).toBe(200);
        const row = await t.database.db
          .selectFrom('contact_messages')
          .selectAll()
          .where('message', '=', 'From a developer')
          .executeTakeFirstOrThrow();
        expect(row.email).toBe(email);
        expect(row.developer_id).not.toBeNull();
        const signedInWithoutEmail = await call(t.app, 'POST', '/api/contact', {
          body: { message: 'No email needed' },
          cookie,
        });
        expect(signedInWithoutEmail.statusCode).toBe(200);
      });

      it.each([
        ['a visitor without an email', { message: 'Hi' }, 'email', 'Please enter a valid email address'],
        ['an invalid email', { email: 'nope', message: 'Hi' }, 'email', 'Please enter a valid email address'],
        ['an empty message', { email: 'a@example.com', message: '   ' }, 'message', 'Please enter a message'],
        ['no message', { email: 'a@example.com' }, 'message', 'Please enter a message'],
      ])('answers 400 InvalidParameter for %s', async (_what, body, field, message) => {
        const before = supportMails().length;
        const res = await call(t.app, 'POST', '/api/contact', { body });
        expect(res.statusCode).toBe(400);
        expect(res.json().error).toEqual({ code: 'InvalidParameter', message, field });
        expect(supportMails().length).toBe(before);
      });

      it('limits one IP to 10 messages an hour', async () => {
        const ip = uniqueIp();
        for (let i = 0; i < 10; i++)
          expect(
            (await call(t.app, 'POST', '/api/contact', { body: { email: 'a@example.com', message: `m${i}` }, ip }))
              .statusCode,
          ).toBe(200);
        const res = await call(t.app, 'POST', '/api/contact', {
          body: { email: 'a@example.com', message: 'one more' },
          ip,
        });
        expect([res.statusCode, res.json().error.code]).toEqual([429, 'LimitExceeded']);
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      });
    });

    describe('POST /api/newsletter', () => {
      const linkIn = (raw: string, path: string) => {
        const flat = raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
        const m = flat.match(new RegExp(`http://howl\\.test${path}\\?token=([A-Za-z0-9_%-]+)`));
        if (!m) throw new Error(`no ${path} link in mail`);
        return `${path}?token=${m[1]}`;
      };

      it('double opt-in: a pending row, a mail with confirm and unsubscribe links, confirmation lands on /emailConfirmed', async () => {
        const email = uniqueEmail('reader');
        expect((await call(t.app, 'POST', '/api/newsletter', { body: { email } })).json()).toEqual({ ok: true });
        const state = async () =>
          (
            await t.database.db
              .selectFrom('newsletter_subscriptions')
              .select('state')
              .where('email', '=', email)
              .executeTakeFirstOrThrow()
          ).state;
        expect(await state()).toBe('pending');
        const mail = t.smtp.messages.filter((m) => m.to.includes(email)).at(-1)!;
        // Long headers are folded onto continuation lines; unfold before reading.
        expect(mail.raw.replace(/\r?\n\s+/g, ' ')).toMatch(
          /List-Unsubscribe: <http:\/\/howl\.test\/api\/newsletter\/unsubscribe\?token=/,
        );

        const confirm = await t.app.inject({ method: 'GET', url: linkIn(mail.raw, '/api/newsletter/confirm') });
        expect(confirm.statusCode).toBe(303);
        expect(confirm.headers.location).toBe('/emailConfirmed');
        expect(await state()).toBe('confirmed');
        // The link is single use.
        expect(
          (await t.app.inject({ method: 'GET', url: linkIn(mail.raw, '/api/newsletter/confirm') })).statusCode,
        ).toBe(400);
        // Subscribing again while confirmed sends nothing.
        const mails = t.smtp.messages.length;
        await call(t.app, 'POST', '/api/newsletter', { body: { email } });
        expect(t.smtp.messages.length).toBe(mails);

        const unsubscribe = await t.app.inject({ method: 'GET', url: linkIn(mail.raw, '/api/newsletter/unsubscribe') });
        expect(unsubscribe.statusCode).toBe(200);
        expect(unsubscribe.body).toContain('You are unsubscribed');
        expect(await state()).toBe('unsubscribed');
      });

      it('refuses an expired or made-up confirmation link', async () => {
        const email = uniqueEmail('late');
        await call(t.app, 'POST', '/api/newsletter', { body: { email } });
        const mail = t.smtp.messages.filter((m) => m.to.includes(email)).at(-1)!;
        t.clock.advance(7 * 24 * 3_600_000);
        expect(
          (await t.app.inject({ method: 'GET', url: linkIn(mail.raw, '/api/newsletter/confirm') })).statusCode,
        ).toBe(400);
        const madeUp = await t.app.inject({ method: 'GET', url: '/api/newsletter/confirm?token=made-up' });
        expect(madeUp.statusCode).toBe(400);
        expect(madeUp.body).toContain('This link has expired or was already used');
      });

      it('answers 400 InvalidParameter for an invalid email', async () => {
        const res = await call(t.app, 'POST', '/api/newsletter', { body: { email: 'nope' } });
        expect([res.statusCode, res.json().error.field]).toEqual([400, 'email']);
      });
    });
  });
}

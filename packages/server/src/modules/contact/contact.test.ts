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
      const state = async (email: string) =>
        (
          await t.database.db
            .selectFrom('newsletter_subscriptions')
            .select('state')
            .where('email', '=', email)
            .executeTakeFirstOrThrow()
        ).state;
      const press = (url: string, payload = '') =>
        t.app.inject({
          method: 'POST',
          url,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload,
        });

      it('double opt-in: the link opens a page, only its button confirms, and it lands on /emailConfirmed', async () => {
        const email = uniqueEmail('reader');
        expect((await call(t.app, 'POST', '/api/newsletter', { body: { email } })).json()).toEqual({ ok: true });
        expect(await state(email)).toBe('pending');
        const [mail] = await t.smtp.waitFor(email);
        const headers = mail!.raw.replace(/\r?\n\s+/g, ' ');
        expect(headers).toMatch(/List-Unsubscribe: <http:\/\/howl\.test\/api\/newsletter\/unsubscribe\?token=/);
        expect(headers).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click');

        const confirmUrl = linkIn(mail!.raw, '/api/newsletter/confirm');
        const pageRes = await t.app.inject({ method: 'GET', url: confirmUrl });
        expect(pageRes.statusCode).toBe(200);
        expect(pageRes.body).toContain('<form method="post"');
        expect(await state(email)).toBe('pending');

        const confirmed = await press(confirmUrl);
        expect([confirmed.statusCode, confirmed.headers.location]).toEqual([303, '/emailConfirmed']);
        expect(await state(email)).toBe('confirmed');
        expect((await press(confirmUrl)).statusCode).toBe(400);
      });

      it('unsubscribes with one click (RFC 8058) and subscribes again from scratch', async () => {
        const email = uniqueEmail('leaver');
        await call(t.app, 'POST', '/api/newsletter', { body: { email } });
        const [mail] = await t.smtp.waitFor(email);
        await press(linkIn(mail!.raw, '/api/newsletter/confirm'));
        const unsubscribeUrl = linkIn(mail!.raw, '/api/newsletter/unsubscribe');
        expect((await t.app.inject({ method: 'GET', url: unsubscribeUrl })).body).toContain('<form method="post"');
        expect(await state(email)).toBe('confirmed');
        const res = await press(unsubscribeUrl, 'List-Unsubscribe=One-Click');
        expect(res.statusCode).toBe(200);
        expect(res.body).toContain('You are unsubscribed');
        expect(await state(email)).toBe('unsubscribed');

        await call(t.app, 'POST', '/api/newsletter', { body: { email } });
        expect(await state(email)).toBe('pending');
        await t.smtp.waitFor(email, 2);
      });

      it('sends a confirmed address nothing, and one address at most 3 mails a day from any IPs', async () => {
        const email = uniqueEmail('popular');
        for (let i = 0; i < 5; i++)
          expect((await call(t.app, 'POST', '/api/newsletter', { body: { email } })).json()).toEqual({ ok: true });
        await t.smtp.waitFor(email, 3);
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(t.smtp.messages.filter((m) => m.to.includes(email))).toHaveLength(3);
      });

      it('refuses an expired or made-up confirmation link', async () => {
        const email = uniqueEmail('late');
        await call(t.app, 'POST', '/api/newsletter', { body: { email } });
        const [mail] = await t.smtp.waitFor(email);
        t.clock.advance(7 * 24 * 3_600_000);
        expect((await press(linkIn(mail!.raw, '/api/newsletter/confirm'))).statusCode).toBe(400);
        const madeUp = await press('/api/newsletter/confirm?token=made-up');
        expect(madeUp.statusCode).toBe(400);
        expect(madeUp.body).toContain('This link has expired or was already used');
      });

      it('deletes an address nobody confirmed once its link has expired, and keeps a confirmed one (issue 20)', async () => {
        const [waiting, reader] = [uniqueEmail('waiting'), uniqueEmail('reader')];
        for (const email of [waiting, reader]) await call(t.app, 'POST', '/api/newsletter', { body: { email } });
        const [mail] = await t.smtp.waitFor(reader);
        await press(linkIn(mail!.raw, '/api/newsletter/confirm'));
        await t.smtp.waitFor(waiting);

        t.clock.advance(7 * 24 * 3_600_000 - 1);
        await t.app.purgeExpired();
        expect(await state(waiting)).toBe('pending');
        t.clock.advance(1);
        expect((await t.app.purgeExpired()).pendingSubscriptions).toBeGreaterThanOrEqual(1);
        const left = await t.database.db
          .selectFrom('newsletter_subscriptions')
          .select('email')
          .where('email', 'in', [waiting, reader])
          .execute();
        expect(left).toEqual([{ email: reader }]);
        expect(await state(reader)).toBe('confirmed');
      });

      it('answers 400 InvalidParameter for an invalid email', async () => {
        const res = await call(t.app, 'POST', '/api/newsletter', { body: { email: 'nope' } });
        expect([res.statusCode, res.json().error.field]).toEqual([400, 'email']);
      });
    });
  });
}

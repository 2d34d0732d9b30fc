import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestApp, uniqueEmail, type TestApp } from '../../../test/support/app.js';
import { developerCalls } from '../../../test/support/developers.js';
import { DIALECTS } from '../../../test/support/services.js';

// An account waiting for its emailed code, and what a sign-up for its address again may do to it.
for (const { dialect, skip } of DIALECTS) {
  describe.skipIf(skip)(`${dialect}: a developer account still waiting for its code`, () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ dialect });
    });
    afterAll(() => t?.close());
    const { signUp, confirm, signIn, freshSession } = developerCalls(() => t);

    it('answers 409 UsernameExists for an unconfirmed email and mails a fresh code that replaces the old one', async () => {
      const email = uniqueEmail();
      await signUp(email);
      const first = t.smtp.lastCode(email);
      const res = await signUp(email);
      expect(res.statusCode).toBe(409);
      expect(res.json().error.code).toBe('UsernameExists');
      const second = t.smtp.lastCode(email);
      expect(t.smtp.messages.filter((m) => m.to.includes(email))).toHaveLength(2);
      if (first !== second) expect((await confirm(email, first)).json().error.code).toBe('CodeMismatch');
      expect((await confirm(email, second)).statusCode).toBe(200);
    });

    it("keeps a pending account's password when its address signs up again: the later sign-up gets no hold on it", async () => {
      const email = uniqueEmail();
      await signUp(email, { company: 'Mine' });
      const later = await signUp(email, { password: 'Stranger-Pass9', firstName: 'Not', lastName: 'Me' });
      expect(later.json().error.code).toBe('UsernameExists');
      // The owner enters the newest code in their inbox, the one the later sign-up had mailed.
      const res = await confirm(email, t.smtp.lastCode(email));
      expect(res.json()).toEqual(freshSession(email, 'Mine'));
      expect((await signIn(email, 'Stranger-Pass9')).statusCode).toBe(401);
      expect((await signIn(email)).statusCode).toBe(200);
    });

    it("frees an address a stranger signed up first: the owner's password reset sets theirs and confirms the account", async () => {
      const email = uniqueEmail();
      await signUp(email, { password: 'Stranger-Pass9', firstName: 'Not', lastName: 'Me' });
      expect((await signUp(email)).json().error.code).toBe('UsernameExists');
      expect((await call(t.app, 'POST', '/api/auth/forgot-password', { body: { email } })).statusCode).toBe(200);
      const reset = await call(t.app, 'POST', '/api/auth/confirm-forgot-password', {
        body: { email, code: t.smtp.lastCode(email), newPassword: 'Owner-Pass-77' },
      });
      expect(reset.statusCode).toBe(200);
      expect((await signIn(email, 'Stranger-Pass9')).statusCode).toBe(401);
      expect((await signIn(email, 'Owner-Pass-77')).statusCode).toBe(200);
    });
  });
}

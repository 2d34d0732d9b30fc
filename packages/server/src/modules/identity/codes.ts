import { isForeignKeyViolation } from '../../db/errors.js';
import { newSixDigitCode, sha256 } from '../../lib/tokens.js';
import type { PoolContext, UserPoolOptions } from './context.js';
import { identityErrors as E } from './errors.js';
import type { CodePurpose, IdentityUser } from './identity.table.js';
import * as store from './store.js';

const HOUR = 3_600_000;
/** How long an emailed code lives, by purpose. */
const CODE_LIFETIME_MS: Record<CodePurpose, number> = {
  confirm_sign_up: 24 * HOUR,
  reset_password: 15 * 60_000,
};
const DEFAULT_LIMIT_MESSAGE = 'Too many attempts. Please try again later.';
/** Wrong tries after which a code stops working. */
const MAX_CODE_ATTEMPTS = 5;

/** One pool's emailed codes: one live code per account and purpose, stored as a hash. */
export function poolCodes(ctx: PoolContext, sendCode: UserPoolOptions['sendCode']) {
  const { db, clock, limits, accountKey } = ctx;
  const codeHash = (user: IdentityUser, code: string) => sha256(`${user.id}:${code}`);

  return {
    /**
     * Counts a code mail to `email` before its account is made (so sign-ups arriving together cannot
     * all pass the limit); `forget` gives it back when the account then is not made.
     */
    async countAddressMail(email: string): Promise<{ forget(): Promise<void> }> {
      await limits.countAddressMail(email, DEFAULT_LIMIT_MESSAGE);
      return { forget: () => limits.refundAddressMail(email) };
    },

    /**
     * Mails a fresh code (replacing the last one) under the per-account and per-address mail limits;
     * `addressCounted` when `countAddressMail` counted the address already.
     */
    async issue(
      user: IdentityUser,
      purpose: CodePurpose,
      limitMessage = DEFAULT_LIMIT_MESSAGE,
      { addressCounted = false } = {},
    ): Promise<void> {
      await limits.countCodeMail(accountKey(user.username), addressCounted ? null : user.email, limitMessage);
      const code = newSixDigitCode();
      const now = clock.now();
      await store
        .putCode(db, {
          user_id: user.id,
          purpose,
          code_hash: codeHash(user, code),
          expires_at: now + CODE_LIFETIME_MS[purpose],
          created_at: now,
        })
        .catch((err: unknown) => {
          // The account went meanwhile (deleted, or its game was): there is nobody to mail.
          throw isForeignKeyViolation(err) ? E.userNotFound() : err;
        });
      try {
        await sendCode({ username: user.username, email: user.email }, purpose, code);
      } catch (cause) {
        // Nothing reached the address: an outage of the mail server must not use up its mails.
        await limits.refundCodeMail(accountKey(user.username), user.email);
        throw E.mailFailed(cause);
      }
    },

    /** Uses up a code; a wrong one counts a try and the fifth wrong try kills it. */
    async redeem(user: IdentityUser, purpose: CodePurpose, code: string): Promise<void> {
      await limits.codeAttempt(accountKey(user.username), async () => {
        const now = clock.now();
        const target = { userId: user.id, purpose, now, maxAttempts: MAX_CODE_ATTEMPTS };
        if (await store.takeCode(db, { ...target, codeHash: codeHash(user, code) })) return;
        const attempts = await store.countFailedCodeAttempt(db, target);
        if (attempts === undefined) {
          await store.deleteCode(db, user.id, purpose);
          throw E.expiredCode();
        }
        if (attempts >= MAX_CODE_ATTEMPTS) await store.deleteCode(db, user.id, purpose);
        throw E.codeMismatch();
      });
    },
  };
}

export type PoolCodes = ReturnType<typeof poolCodes>;

import type { PoolCodes } from './codes.js';
import type { PoolContext } from './context.js';
import { identityErrors as E } from './errors.js';
import type { IdentityUser } from './identity.table.js';
import { meetsPasswordPolicy } from './password-policy.js';
import type { SessionUser } from './sessions.js';
import * as store from './store.js';

const RESET_LIMIT_MESSAGE = "You've requested a password change too often. Please try again later.";

/** One pool's password changes: a reset by emailed code, or a change by the signed-in account. */
export function poolPasswords(ctx: PoolContext, codes: PoolCodes) {
  const { db, clock, hasher, limits, accountKey, mustFind } = ctx;

  return {
    /** Mails a reset code valid 15 minutes; the current password keeps working until the code sets a new one. */
    async requestReset(username: string): Promise<IdentityUser> {
      const user = await mustFind(username);
      await codes.issue(user, 'reset_password', RESET_LIMIT_MESSAGE);
      return user;
    },

    /**
     * Mails a reset code as `requestReset` does, and locks the account out until the code is used
     * (players, as documented): the current password stops working once the mail is out, every
     * access token ends at once, and saved sessions answer PasswordResetRequired.
     */
    async requestResetLockingOut(username: string): Promise<IdentityUser> {
      const user = await mustFind(username);
      await codes.issue(user, 'reset_password', RESET_LIMIT_MESSAGE);
      if (user.status === 'UNCONFIRMED') return user;
      await db.transaction().execute(async (trx) => {
        await store.updateUser(trx, user.id, { status: 'RESET_REQUIRED' }, clock.now());
        await store.endUserSessions(trx, user.id, { keepSaved: true });
      });
      return { ...user, status: 'RESET_REQUIRED' };
    },

    /** Sets a new password with the emailed code and ends every session of the account; `field` is the request's name for it. */
    async confirmReset(username: string, code: string, newPassword: string, field = 'newPassword'): Promise<void> {
      const user = await mustFind(username);
      // Policy first, so a weak password does not burn a good code.
      if (!meetsPasswordPolicy(newPassword)) throw E.invalidPassword(field);
      await codes.redeem(user, 'reset_password', code);
      const passwordHash = await hasher.hash(newPassword);
      await db.transaction().execute(async (trx) => {
        // Answering the emailed code proves the address, so an unconfirmed account is confirmed too.
        await store.updateUser(trx, user.id, { password_hash: passwordHash, status: 'CONFIRMED' }, clock.now());
        await store.endUserSessions(trx, user.id);
      });
      await limits.forgetSignInFailures(accountKey(user.username));
    },

    /** Changes a signed-in account's password; its other sessions end, the caller's stays. */
    async changePassword(session: SessionUser, oldPassword: string, newPassword: string): Promise<void> {
      const user = await store.findUserById(db, session.userId);
      if (!user) throw E.notAuthorized('Please sign in again.');
      await limits.passwordAttempt(
        accountKey(user.username),
        "You've tried too often. Please try again later.",
        async () => {
          if (!(await hasher.verify(user.password_hash, oldPassword))) {
            throw E.notAuthorized('Your old password is incorrect.');
          }
        },
      );
      if (!meetsPasswordPolicy(newPassword)) throw E.invalidPassword('newPassword');
      const passwordHash = await hasher.hash(newPassword);
      await db.transaction().execute(async (trx) => {
        await store.updateUser(trx, user.id, { password_hash: passwordHash }, clock.now());
        await store.endUserSessions(trx, user.id, { keep: session.tokenHash });
      });
    },
  };
}

import { isUniqueViolation } from '../../db/errors.js';
import { AppError } from '../../http/errors.js';
import { newId } from '../../lib/tokens.js';
import type { PoolCodes } from './codes.js';
import type { PoolContext, SaveProfile } from './context.js';
import { identityErrors as E } from './errors.js';
import type { IdentityUser } from './identity.table.js';
import { meetsPasswordPolicy } from './password-policy.js';
import type { PoolSessions } from './sessions.js';
import * as store from './store.js';

/** A new account's name, address and password. */
export interface NewAccount {
  username: string;
  email: string | null;
  password: string;
}

/**
 * One pool's sign-up: new accounts, confirmed at once or by an emailed code. `saveProfile` writes
 * the feature's own row in the account's transaction.
 */
export function poolSignUp(
  ctx: PoolContext,
  codes: PoolCodes,
  sessions: PoolSessions,
  lateRefusal: (userId: string) => Promise<AppError>,
) {
  const { db, clock, hasher, poolId, mustFind } = ctx;

  /** Inserts the account; a taken name goes to `onTaken` first, then answers UsernameExists. */
  async function create(
    input: NewAccount,
    status: IdentityUser['status'],
    saveProfile?: SaveProfile,
    onTaken?: (existing: IdentityUser) => Promise<void>,
  ): Promise<IdentityUser> {
    if (!meetsPasswordPolicy(input.password)) throw E.invalidPassword('password');
    const existing = await store.findUser(db, poolId, input.username);
    if (existing) {
      await onTaken?.(existing);
      throw E.usernameExists();
    }
    // The address's mail is counted before the account is made: one past its mails gets no account
    // it could not confirm, and sign-ups arriving together cannot all slip under the limit.
    const counted = status === 'UNCONFIRMED' && input.email ? await codes.countAddressMail(input.email) : undefined;
    const now = clock.now();
    const user: IdentityUser = {
      id: newId(),
      pool_id: poolId,
      username: input.username,
      email: input.email,
      password_hash: await hasher.hash(input.password),
      status,
      enabled: 1,
      created_at: now,
      updated_at: now,
      session_version: 0,
    };
    try {
      await db.transaction().execute(async (trx) => {
        await store.insertUser(trx, user);
        await saveProfile?.(trx, user);
      });
    } catch (err) {
      await counted?.forget();
      if (isUniqueViolation(err)) throw E.usernameExists();
      throw err;
    }
    return user;
  }

  /**
   * A sign-up for an account still waiting for its code mails the code again, and changes nothing
   * else: a later sign-up that set its own password would hold the account once the address's owner
   * entered the code it mailed them. Whoever signed up first with someone else's address holds
   * nothing either: the owner cannot confirm without that password, and a password reset by the
   * emailed code sets theirs and confirms the account.
   */
  async function resendToPending(existing: IdentityUser): Promise<void> {
    try {
      await codes.issue(existing, 'confirm_sign_up');
    } catch (err) {
      // Past the mail limit the caller still learns the account exists; no extra mail goes out.
      if (!(err instanceof AppError && err.code === 'LimitExceeded')) throw err;
    }
  }

  return {
    /** Creates an unconfirmed account and mails its code; a taken name answers UsernameExists. */
    async signUp(input: NewAccount, saveProfile?: SaveProfile): Promise<IdentityUser> {
      const user = await create(input, 'UNCONFIRMED', saveProfile);
      await codes.issue(user, 'confirm_sign_up', undefined, { addressCounted: true });
      return user;
    },

    /**
     * As `signUp`, for pools whose username is the email address: signing up again for an account
     * still waiting for its code mails the code again (`resendToPending`), and still answers UsernameExists.
     */
    async signUpOrResend(input: NewAccount, saveProfile?: SaveProfile): Promise<IdentityUser> {
      const user = await create(input, 'UNCONFIRMED', saveProfile, async (existing) => {
        if (existing.status === 'UNCONFIRMED') await resendToPending(existing);
      });
      await codes.issue(user, 'confirm_sign_up', undefined, { addressCounted: true });
      return user;
    },

    /** Creates an account that may sign in at once, with no code; a taken name answers UsernameExists. */
    createConfirmed: (input: NewAccount, saveProfile?: SaveProfile): Promise<IdentityUser> =>
      create(input, 'CONFIRMED', saveProfile),

    /** Confirms an account with its emailed code and signs it in: answers a session token. */
    async confirmSignUp(username: string, code: string): Promise<{ user: IdentityUser; token: string }> {
      const user = await mustFind(username);
      if (user.status !== 'UNCONFIRMED') throw E.alreadyConfirmed();
      await codes.redeem(user, 'confirm_sign_up', code);
      await store.updateUser(db, user.id, { status: 'CONFIRMED' }, clock.now());
      const session = await sessions.startSession(user);
      if (!session) throw await lateRefusal(user.id);
      return { user: { ...user, status: 'CONFIRMED' }, token: session.token };
    },

    async resendCode(username: string): Promise<void> {
      const user = await mustFind(username);
      if (user.status !== 'UNCONFIRMED') throw E.alreadyConfirmed();
      await codes.issue(user, 'confirm_sign_up', "You've requested a code too often. Please try again later.");
    },
  };
}

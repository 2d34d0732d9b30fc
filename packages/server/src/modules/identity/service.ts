import type { Kysely, Transaction } from 'kysely';
import type { AuthLimits } from '../../config.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { Dialect } from '../../db/database.js';
import type { DB } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import type { Clock } from '../../lib/clock.js';
import type { PasswordHasher } from '../../lib/password-hasher.js';
import { ipBucket } from '../../lib/ip.js';
import { consumeOrRefuse, type LimiterFactory } from '../../lib/rate-limits.js';
import { newId, newSixDigitCode, sha256 } from '../../lib/tokens.js';
import { identityErrors as E } from './errors.js';
import type { CodePurpose, IdentityUser } from './identity.table.js';
import { meetsPasswordPolicy } from './password-policy.js';
import { poolAdmin } from './admin.js';
import { poolSessions, purgeExpiredSessions, type IssuedSession, type SessionUser } from './sessions.js';
import * as store from './store.js';

export type { IssuedSession, SessionUser } from './sessions.js';

const HOUR = 3_600_000;
/** How long an emailed code lives, by purpose. */
export const CODE_LIFETIME_MS: Record<CodePurpose, number> = {
  confirm_sign_up: 24 * HOUR,
  reset_password: 15 * 60_000,
};
/** Wrong tries after which a code stops working. */
export const MAX_CODE_ATTEMPTS = 5;

export interface IdentityDeps {
  db: Kysely<DB>;
  dialect: Dialect;
  clock: Clock;
  hasher: PasswordHasher;
  limiters: LimiterFactory;
  limits: AuthLimits;
}

export interface UserPoolOptions {
  /** `developers`, or `game:<gameId>` for one game's players. */
  poolId: string;
  /** Delivers a code to the account's email, in the pool's own words. */
  sendCode(user: { username: string; email: string | null }, purpose: CodePurpose, code: string): Promise<void>;
  /** Lifetime of a new session; null means it never expires. */
  sessionTtlMs(): number | null;
}

/** Writes a feature's own row for an account (names, company…), on creation and when a pending sign-up is redone. */
export type SaveProfile = (trx: Transaction<DB>, user: IdentityUser) => Promise<void>;

/**
 * Sign-up, codes, sign-in, sessions, resets and limits, written once. Every pool (the developers,
 * each game's players) is a view of this with its own id and mail.
 */
export function createIdentity(deps: IdentityDeps) {
  const { db, dialect, clock, hasher, limits } = deps;
  // Limiter keys carry the pool id, so one set of limiters serves every pool.
  const signInFailures = deps.limiters.create({
    name: 'signin-fail',
    points: limits.signInFailuresPerAccount,
    durationSeconds: limits.signInFailureWindowSeconds,
  });
  const codeFailures = deps.limiters.create({
    name: 'code-fail',
    points: limits.signInFailuresPerAccount,
    durationSeconds: limits.signInFailureWindowSeconds,
  });
  const codeMails = deps.limiters.create({
    name: 'code-mail',
    points: limits.codeMailsPerAccountPerHour,
    durationSeconds: 3600,
  });
  const ipRequests = deps.limiters.create({
    name: 'auth-ip',
    points: limits.authRequestsPerIpPerMinute,
    durationSeconds: 60,
  });
  const ipSignInFailures = deps.limiters.create({
    name: 'signin-fail-ip',
    points: limits.signInFailuresPerIp,
    durationSeconds: limits.signInFailureWindowSeconds,
  });

  /**
   * Runs a secret check (password, code) under a per-account attempt limit. The attempt is counted
   * before the check, so parallel requests cannot slip past the limit; a success clears the count.
   */
  async function attempt<T>(
    limiter: typeof codeMails,
    key: string,
    message: string,
    check: () => Promise<T>,
  ): Promise<T> {
    await consumeOrRefuse(limiter, key, message);
    const result = await check();
    await limiter.delete(key);
    return result;
  }

  /** Counts one request from an IP (or IPv6 /64) against the auth limit. */
  async function countIpRequest(ip: string): Promise<void> {
    await consumeOrRefuse(ipRequests, ipBucket(ip), 'Too many requests from your network. Please try again later.');
  }

  async function send(deliver: () => Promise<void>): Promise<void> {
    try {
      await deliver();
    } catch (cause) {
      throw E.mailFailed(cause);
    }
  }

  function pool(options: UserPoolOptions) {
    const { poolId } = options;
    const accountKey = (username: string) => `${poolId}:${username}`;
    const codeHash = (user: IdentityUser, code: string) => sha256(`${user.id}:${code}`);
    const sessions = poolSessions({ db, dialect, clock, poolId, sessionTtlMs: options.sessionTtlMs });

    async function mustFind(username: string): Promise<IdentityUser> {
      const user = await store.findUser(db, poolId, username);
      if (!user) throw E.userNotFound();
      return user;
    }

    async function issueCode(
      user: IdentityUser,
      purpose: CodePurpose,
      limitMessage = 'Too many attempts. Please try again later.',
    ): Promise<void> {
      await consumeOrRefuse(codeMails, accountKey(user.username), limitMessage);
      const code = newSixDigitCode();
      const now = clock.now();
      await store.putCode(db, {
        user_id: user.id,
        purpose,
        code_hash: codeHash(user, code),
        expires_at: now + CODE_LIFETIME_MS[purpose],
        created_at: now,
      });
      await send(() => options.sendCode({ username: user.username, email: user.email }, purpose, code));
    }

    /** Uses up a code; a wrong one counts a try and the fifth wrong try kills it. */
    async function redeemCode(user: IdentityUser, purpose: CodePurpose, code: string): Promise<void> {
      await attempt(
        codeFailures,
        accountKey(user.username),
        "You've tried too many codes. Please try again later.",
        async () => {
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
        },
      );
    }

    /** Why an account may not sign in even with the right password, if it may not. */
    function refusalOf(user: IdentityUser): AppError | undefined {
      if (user.enabled !== 1) return E.userDisabled();
      if (user.status === 'UNCONFIRMED') return E.userNotConfirmed();
      if (user.status === 'RESET_REQUIRED') return E.passwordResetRequired();
      return undefined;
    }

    /** The answer when the account changed between the password check and the new session. */
    async function lateRefusal(userId: string): Promise<AppError> {
      const user = await store.findUserById(db, userId);
      return (user && refusalOf(user)) ?? E.notAuthorized();
    }

    /**
     * Counts a sign-in against the caller's network before the check, and gives the point back on
     * success: only failures add up, and parallel guesses cannot slip past.
     */
    async function perIpFailures<T>(ip: string | undefined, check: () => Promise<T>): Promise<T> {
      if (ip === undefined) return check();
      const key = ipBucket(ip);
      await consumeOrRefuse(
        ipSignInFailures,
        key,
        'Too many failed sign-ins from your network. Please try again later.',
      );
      const result = await check();
      await ipSignInFailures.reward(key, 1);
      return result;
    }

    /** Checks a password under the per-account failure limit. */
    async function checkPassword(username: string, check: () => Promise<void>, message: string): Promise<void> {
      await attempt(signInFailures, accountKey(username), message, check);
    }

    async function redoPendingSignUp(
      existing: IdentityUser,
      password: string,
      saveProfile?: SaveProfile,
    ): Promise<void> {
      // The latest sign-up owns a pending account: whoever signed up first with someone else's
      // address cannot keep a password on it once the address's owner signs up.
      const passwordHash = await hasher.hash(password);
      await db.transaction().execute(async (trx) => {
        await store.updateUser(trx, existing.id, { password_hash: passwordHash }, clock.now());
        await saveProfile?.(trx, existing);
      });
      try {
        await issueCode(existing, 'confirm_sign_up');
      } catch (err) {
        // Past the mail limit the caller still learns the account exists; no extra mail goes out.
        if (!(err instanceof AppError && err.code === 'LimitExceeded')) throw err;
      }
    }

    return {
      poolId,

      /**
       * Creates an unconfirmed account and mails its code (or a confirmed one, for pools that
       * confirm at once). `saveProfile` writes the feature's own row in the same transaction. An
       * existing unconfirmed account takes the new password and profile, gets a fresh code, and
       * the call still answers UsernameExists.
       */
      async signUp(
        input: { username: string; email: string | null; password: string },
        opts: { confirmed?: boolean; saveProfile?: SaveProfile; retakePending?: boolean } = {},
      ): Promise<IdentityUser> {
        if (!meetsPasswordPolicy(input.password)) throw E.invalidPassword('password');
        const existing = await store.findUser(db, poolId, input.username);
        if (existing) {
          // Only where the username is the email address does signing up again prove a claim to the account.
          if (existing.status === 'UNCONFIRMED' && opts.retakePending !== false) {
            await redoPendingSignUp(existing, input.password, opts.saveProfile);
          }
          throw E.usernameExists();
        }
        const now = clock.now();
        const user: IdentityUser = {
          id: newId(),
          pool_id: poolId,
          username: input.username,
          email: input.email,
          password_hash: await hasher.hash(input.password),
          status: opts.confirmed ? 'CONFIRMED' : 'UNCONFIRMED',
          enabled: 1,
          created_at: now,
          updated_at: now,
          session_version: 0,
        };
        try {
          await db.transaction().execute(async (trx) => {
            await store.insertUser(trx, user);
            await opts.saveProfile?.(trx, user);
          });
        } catch (err) {
          if (isUniqueViolation(err)) throw E.usernameExists();
          throw err;
        }
        if (!opts.confirmed) await issueCode(user, 'confirm_sign_up');
        return user;
      },

      /** Confirms an account with its emailed code and signs it in: answers a session token. */
      async confirmSignUp(username: string, code: string): Promise<{ user: IdentityUser; token: string }> {
        const user = await mustFind(username);
        if (user.status !== 'UNCONFIRMED') throw E.alreadyConfirmed();
        await redeemCode(user, 'confirm_sign_up', code);
        await store.updateUser(db, user.id, { status: 'CONFIRMED' }, clock.now());
        const session = await sessions.startSession(user);
        if (!session) throw await lateRefusal(user.id);
        return { user: { ...user, status: 'CONFIRMED' }, token: session.token };
      },

      async resendCode(username: string): Promise<void> {
        const user = await mustFind(username);
        if (user.status !== 'UNCONFIRMED') throw E.alreadyConfirmed();
        await issueCode(user, 'confirm_sign_up', "You've requested a code too often. Please try again later.");
      },

      /**
       * Checks a password; answers the account and a new session. `ip` adds a per-network failure
       * limit; `savedSessionTtlMs` also issues a saved session ("remember me").
       */
      async signIn(
        username: string,
        password: string,
        opts: { ip?: string; savedSessionTtlMs?: number } = {},
      ): Promise<{ user: IdentityUser; saved?: { token: string; expiresAt: number } } & IssuedSession> {
        let user: IdentityUser | undefined;
        await perIpFailures(opts.ip, () =>
          checkPassword(
            username,
            async () => {
              user = await store.findUser(db, poolId, username);
              if (!user) {
                await hasher.verifyNothing(password);
                throw E.userNotFound();
              }
              if (!(await hasher.verify(user.password_hash, password))) throw E.notAuthorized();
            },
            'Too many failed sign-ins. Please try again later.',
          ),
        );
        const refusal = refusalOf(user!);
        if (refusal) throw refusal;
        // Each session is minted only while the password checked above is still the account's.
        let saved: { token: string; expiresAt: number } | undefined;
        if (opts.savedSessionTtlMs !== undefined) {
          saved = await sessions.startSavedSession(user!, opts.savedSessionTtlMs);
          if (!saved) throw await lateRefusal(user!.id);
        }
        const session = await sessions.startSession(user!, saved ? sha256(saved.token) : null);
        if (!session) throw await lateRefusal(user!.id);
        return { user: user!, ...session, ...(saved ? { saved } : {}) };
      },

      resumeSession: sessions.resume,
      authenticate: sessions.authenticate,
      signOut: sessions.signOut,
      signOutEverywhere: sessions.signOutEverywhere,

      /**
       * Mails a reset code valid 15 minutes. With `invalidatePassword` (players, as documented) the
       * current password stops working once the mail is out, until the code sets a new one, and every
       * access token ends at once; saved sessions answer PasswordResetRequired until then.
       */
      async forgotPassword(username: string, opts: { invalidatePassword?: boolean } = {}): Promise<IdentityUser> {
        const user = await mustFind(username);
        await issueCode(
          user,
          'reset_password',
          "You've requested a password change too often. Please try again later.",
        );
        if (opts.invalidatePassword && user.status !== 'UNCONFIRMED') {
          await db.transaction().execute(async (trx) => {
            await store.updateUser(trx, user.id, { status: 'RESET_REQUIRED' }, clock.now());
            await store.endUserSessions(trx, user.id, { keepSaved: true });
          });
          return { ...user, status: 'RESET_REQUIRED' };
        }
        return user;
      },

      /** Sets a new password with the emailed code and ends every session of the account. */
      async confirmForgotPassword(username: string, code: string, newPassword: string): Promise<void> {
        const user = await mustFind(username);
        // Policy first, so a weak password does not burn a good code.
        if (!meetsPasswordPolicy(newPassword)) throw E.invalidPassword('newPassword');
        await redeemCode(user, 'reset_password', code);
        const passwordHash = await hasher.hash(newPassword);
        await db.transaction().execute(async (trx) => {
          // Answering the emailed code proves the address, so an unconfirmed account is confirmed too.
          await store.updateUser(trx, user.id, { password_hash: passwordHash, status: 'CONFIRMED' }, clock.now());
          await store.endUserSessions(trx, user.id);
        });
      },

      /** Changes a signed-in account's password; its other sessions end, the caller's stays. */
      async changePassword(session: SessionUser, oldPassword: string, newPassword: string): Promise<void> {
        const user = await store.findUserById(db, session.userId);
        if (!user) throw E.notAuthorized('Please sign in again.');
        await checkPassword(
          user.username,
          async () => {
            if (!(await hasher.verify(user.password_hash, oldPassword))) {
              throw E.notAuthorized('Your old password is incorrect.');
            }
          },
          "You've tried too often. Please try again later.",
        );
        if (!meetsPasswordPolicy(newPassword)) throw E.invalidPassword('newPassword');
        const passwordHash = await hasher.hash(newPassword);
        await db.transaction().execute(async (trx) => {
          await store.updateUser(trx, user.id, { password_hash: passwordHash }, clock.now());
          await store.endUserSessions(trx, user.id, { keep: session.tokenHash });
        });
      },

      /** The pool owner's tools (the dashboard): look up, list, disable, delete, set a password. */
      admin: poolAdmin({ db, clock, hasher, poolId, mustFind }),
    };
  }

  /** Deletes expired sessions, saved sessions and codes, a batch at a time; answers how many went. */
  const purgeExpired = (opts: { batchSize?: number } = {}) => purgeExpiredSessions(db, clock.now(), opts.batchSize);

  /** Deletes a whole pool (its owner, a game, is going), in the caller's transaction. */
  const removePool = (trx: Kysely<DB>, poolId: string) => store.deletePool(trx, poolId);

  return { pool, countIpRequest, purgeExpired, removePool };
}

export type Identity = ReturnType<typeof createIdentity>;

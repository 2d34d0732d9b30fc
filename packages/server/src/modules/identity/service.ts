import type { Kysely, Transaction } from 'kysely';
import type { AuthLimits } from '../../config.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { DB } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import type { PasswordHasher } from '../../lib/password-hasher.js';
import { isRateLimited, retryAfterSeconds, type LimiterFactory } from '../../lib/rate-limits.js';
import { newId, newSixDigitCode, newToken, sameDigest, sha256 } from '../../lib/tokens.js';
import { identityErrors as E } from './errors.js';
import type { CodePurpose, IdentityUser } from './identity.table.js';
import { meetsPasswordPolicy } from './password-policy.js';
import * as store from './store.js';

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

export interface SessionUser {
  userId: string;
  poolId: string;
  username: string;
  email: string | null;
  tokenHash: string;
}

export type UserPool = ReturnType<ReturnType<typeof createIdentity>['pool']>;

/**
 * Sign-up, codes, sign-in, sessions, resets and limits, written once. Every pool (the developers,
 * each game's players) is a view of this with its own id and mail.
 */
export function createIdentity(deps: IdentityDeps) {
  const { db, clock, hasher, limits } = deps;
  // Limiter keys carry the pool id, so one set of limiters serves every pool.
  const signInFailures = deps.limiters.create({
    name: 'signin-fail',
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

  async function consume(limiter: typeof codeMails, key: string, message?: string): Promise<void> {
    try {
      await limiter.consume(key);
    } catch (err) {
      if (isRateLimited(err)) throw E.limitExceeded(retryAfterSeconds(err), message);
      throw err;
    }
  }

  /** Counts one request from an IP against the auth limit (all auth calls of every pool). */
  async function countIpRequest(ip: string): Promise<void> {
    await consume(ipRequests, ip, 'Too many requests from your network. Please try again later.');
  }

  /** Answers who holds a session token, or undefined when it is unknown, expired or the account is disabled. */
  async function authenticate(token: string): Promise<SessionUser | undefined> {
    const tokenHash = sha256(token);
    const row = await store.findSessionUser(db, tokenHash);
    if (!row || row.enabled !== 1) return undefined;
    if (row.expires_at !== null && row.expires_at <= clock.now()) {
      await store.deleteSession(db, tokenHash);
      return undefined;
    }
    return { userId: row.user_id, poolId: row.pool_id, username: row.username, email: row.email, tokenHash };
  }

  function pool(options: UserPoolOptions) {
    const { poolId } = options;
    const accountKey = (username: string) => `${poolId}:${username}`;

    async function mustFind(username: string): Promise<IdentityUser> {
      const user = await store.findUser(db, poolId, username);
      if (!user) throw E.userNotFound();
      return user;
    }

    async function issueCode(user: IdentityUser, purpose: CodePurpose): Promise<void> {
      const code = newSixDigitCode();
      const now = clock.now();
      await store.putCode(db, {
        user_id: user.id,
        purpose,
        code_hash: sha256(`${user.id}:${code}`),
        expires_at: now + CODE_LIFETIME_MS[purpose],
        created_at: now,
      });
      await options.sendCode({ username: user.username, email: user.email }, purpose, code);
    }

    /** Checks a code and uses it up; wrong tries are counted and the fifth one kills the code. */
    async function redeemCode(user: IdentityUser, purpose: CodePurpose, code: string): Promise<void> {
      const row = await store.findCode(db, user.id, purpose);
      if (!row) throw E.expiredCode();
      if (row.expires_at <= clock.now()) {
        await store.deleteCode(db, user.id, purpose);
        throw E.expiredCode();
      }
      const given = sha256(`${user.id}:${code}`);
      if (!sameDigest(given, row.code_hash)) {
        const attempts = await store.countFailedCodeAttempt(db, user.id, purpose);
        if (attempts >= MAX_CODE_ATTEMPTS) await store.deleteCode(db, user.id, purpose);
        throw E.codeMismatch();
      }
      // Two requests racing with the right code: only the one that deletes the row wins.
      if (!(await store.takeCode(db, user.id, purpose, row.code_hash))) throw E.expiredCode();
    }

    async function startSession(userId: string): Promise<string> {
      const token = newToken();
      const now = clock.now();
      const ttl = options.sessionTtlMs();
      await store.insertSession(db, {
        token_hash: sha256(token),
        user_id: userId,
        created_at: now,
        expires_at: ttl === null ? null : now + ttl,
      });
      return token;
    }

    return {
      poolId,

      /**
       * Creates an unconfirmed account and mails its code (or a confirmed one, for pools that
       * confirm at once). `onCreated` writes the feature's own row in the same transaction.
       * An existing unconfirmed account gets a fresh code and still answers UsernameExists.
       */
      async signUp(
        input: { username: string; email: string | null; password: string },
        opts: { confirmed?: boolean; onCreated?: (trx: Transaction<DB>, user: IdentityUser) => Promise<void> } = {},
      ): Promise<IdentityUser> {
        if (!meetsPasswordPolicy(input.password)) throw E.invalidPassword();
        const existing = await store.findUser(db, poolId, input.username);
        if (existing) {
          if (existing.status === 'UNCONFIRMED') await resendQuietly(existing);
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
        };
        try {
          await db.transaction().execute(async (trx) => {
            await store.insertUser(trx, user);
            await opts.onCreated?.(trx, user);
          });
        } catch (err) {
          if (isUniqueViolation(err)) throw E.usernameExists();
          throw err;
        }
        if (!opts.confirmed) {
          await consume(codeMails, accountKey(user.username));
          await issueCode(user, 'confirm_sign_up');
        }
        return user;
      },

      /** Confirms an account with its emailed code and signs it in: answers a session token. */
      async confirmSignUp(username: string, code: string): Promise<{ user: IdentityUser; token: string }> {
        const user = await mustFind(username);
        if (user.status !== 'UNCONFIRMED') throw E.alreadyConfirmed();
        await redeemCode(user, 'confirm_sign_up', code);
        await store.updateUser(db, user.id, { status: 'CONFIRMED' }, clock.now());
        return { user: { ...user, status: 'CONFIRMED' }, token: await startSession(user.id) };
      },

      async resendCode(username: string): Promise<void> {
        const user = await mustFind(username);
        if (user.status !== 'UNCONFIRMED') throw E.alreadyConfirmed();
        await consume(codeMails, accountKey(username), "You've requested a code too often. Please try again later.");
        await issueCode(user, 'confirm_sign_up');
      },

      /** Checks a password; answers the account and a new session token. */
      async signIn(username: string, password: string): Promise<{ user: IdentityUser; token: string }> {
        const key = accountKey(username);
        const failures = await signInFailures.get(key);
        if (failures && failures.consumedPoints >= limits.signInFailuresPerAccount) {
          throw E.limitExceeded(retryAfterSeconds(failures), 'Too many failed sign-ins. Please try again later.');
        }
        const user = await store.findUser(db, poolId, username);
        if (!user) {
          await hasher.verifyNothing(password);
          await countFailure(key);
          throw E.userNotFound();
        }
        if (!(await hasher.verify(user.password_hash, password))) {
          await countFailure(key);
          throw E.notAuthorized();
        }
        if (user.enabled !== 1) throw E.notAuthorized('This account is disabled.');
        if (user.status === 'UNCONFIRMED') throw E.userNotConfirmed();
        await signInFailures.delete(key);
        return { user, token: await startSession(user.id) };
      },

      /** Mails a reset code valid 15 minutes. */
      async forgotPassword(username: string): Promise<IdentityUser> {
        const user = await mustFind(username);
        await consume(
          codeMails,
          accountKey(username),
          "You've requested a password change too often. Please try again later.",
        );
        await issueCode(user, 'reset_password');
        return user;
      },

      /** Sets a new password with the emailed code and ends every session of the account. */
      async confirmForgotPassword(username: string, code: string, newPassword: string): Promise<void> {
        const user = await mustFind(username);
        // Policy first, so a weak password does not burn a good code.
        if (!meetsPasswordPolicy(newPassword)) throw E.invalidPassword();
        await redeemCode(user, 'reset_password', code);
        const passwordHash = await hasher.hash(newPassword);
        await db.transaction().execute(async (trx) => {
          // Answering the emailed code proves the address, so an unconfirmed account is confirmed too.
          await store.updateUser(trx, user.id, { password_hash: passwordHash, status: 'CONFIRMED' }, clock.now());
          await store.deleteUserSessions(trx, user.id);
        });
      },

      /** Changes a signed-in account's password; its other sessions end, the caller's stays. */
      async changePassword(session: SessionUser, oldPassword: string, newPassword: string): Promise<void> {
        const key = accountKey(session.username);
        const failures = await signInFailures.get(key);
        if (failures && failures.consumedPoints >= limits.signInFailuresPerAccount) {
          throw E.limitExceeded(retryAfterSeconds(failures), "You've tried too often. Please try again later.");
        }
        const user = await findUserById(session.userId);
        if (!(await hasher.verify(user.password_hash, oldPassword))) {
          await countFailure(key);
          throw E.notAuthorized('Your old password is incorrect.');
        }
        if (!meetsPasswordPolicy(newPassword)) throw E.invalidPassword();
        const passwordHash = await hasher.hash(newPassword);
        await db.transaction().execute(async (trx) => {
          await store.updateUser(trx, user.id, { password_hash: passwordHash }, clock.now());
          await store.deleteUserSessions(trx, user.id, session.tokenHash);
        });
      },

      /** Answers the session's holder when it belongs to this pool. */
      async authenticate(token: string): Promise<SessionUser | undefined> {
        const session = await authenticate(token);
        return session?.poolId === poolId ? session : undefined;
      },

      /** Ends every session of the account, on every device. */
      signOutEverywhere: (userId: string) => store.deleteUserSessions(db, userId),
    };

    async function findUserById(id: string): Promise<IdentityUser> {
      const user = await store.findUserById(db, id);
      if (!user) throw E.notAuthorized('Please sign in again.');
      return user;
    }

    async function countFailure(key: string): Promise<void> {
      // The failure that reaches the limit still answers with its own error; the next call gets 429.
      await signInFailures.consume(key).catch((err: unknown) => {
        if (!isRateLimited(err)) throw err;
      });
    }

    async function resendQuietly(user: IdentityUser): Promise<void> {
      try {
        await consume(codeMails, accountKey(user.username));
        await issueCode(user, 'confirm_sign_up');
      } catch (err) {
        // Past the mail limit the caller still learns the account exists; no extra mail goes out.
        if (!(err instanceof Error && 'code' in err && err.code === 'LimitExceeded')) throw err;
      }
    }
  }

  return { pool, countIpRequest, authenticate };
}

export type Identity = ReturnType<typeof createIdentity>;

import type { AppError } from '../../http/errors.js';
import { sha256 } from '../../lib/tokens.js';
import type { PoolContext } from './context.js';
import { identityErrors as E } from './errors.js';
import type { IdentityUser } from './identity.table.js';
import type { IssuedSession, PoolSessions } from './sessions.js';
import * as store from './store.js';

/**
 * Why an account may not sign in even with the right password, if it may not. A pending reset
 * comes first: any password reaches this answer then, so it must say nothing more (not that the
 * developer disabled the account).
 */
function refusalOf(user: IdentityUser): AppError | undefined {
  if (user.status === 'RESET_REQUIRED') return E.passwordResetRequired();
  if (user.enabled !== 1) return E.userDisabled();
  if (user.status === 'UNCONFIRMED') return E.userNotConfirmed();
  return undefined;
}

/** One pool's sign-in: a password checked under the failure limits, answered with new sessions. */
export function poolSignIn(ctx: PoolContext, sessions: PoolSessions) {
  const { db, hasher, poolId, limits, accountKey } = ctx;

  /** The answer when the account changed between the password check and the new session. */
  async function lateRefusal(userId: string): Promise<AppError> {
    const user = await store.findUserById(db, userId);
    return (user && refusalOf(user)) ?? E.notAuthorized();
  }

  return {
    lateRefusal,

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
      await limits.perIpFailures(opts.ip, () =>
        limits.passwordAttempt(accountKey(username), 'Too many failed sign-ins. Please try again later.', async () => {
          user = await store.findUser(db, poolId, username);
          if (!user) {
            await hasher.verifyNothing(password);
            throw E.userNotFound();
          }
          const matches = await hasher.verify(user.password_hash, password);
          // A reset request ended the old password: no guess is right or wrong then, so none is
          // counted, and the answer below (refusalOf) is the same for every password.
          if (!matches && user.status !== 'RESET_REQUIRED') throw E.notAuthorized();
        }),
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
  };
}

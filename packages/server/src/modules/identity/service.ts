import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { poolAdmin } from './admin.js';
import { poolCodes } from './codes.js';
import type { IdentityDeps, PoolContext, UserPoolOptions } from './context.js';
import { identityErrors as E } from './errors.js';
import { identityLimits } from './limits.js';
import { hasherFor } from './password-forms.js';
import { poolPasswords } from './passwords.js';
import { poolSessions, purgeExpiredSessions } from './sessions.js';
import { poolSignIn } from './sign-in.js';
import { poolSignUp } from './sign-up.js';
import * as store from './store.js';

export type { IdentityDeps, UserPoolOptions } from './context.js';
export type { SessionUser } from './sessions.js';

/**
 * Sign-up, codes, sign-in, sessions, resets and limits, written once. Every pool (the developers,
 * each game's players) is a view of this with its own id and mail; this only assembles the parts.
 */
export function createIdentity(deps: IdentityDeps) {
  const { db, clock, hasher } = deps;
  const limits = identityLimits(deps.limiters, deps.limits);

  function pool(options: UserPoolOptions) {
    const { poolId } = options;
    const ctx: PoolContext = {
      db,
      clock,
      hasher: hasherFor(options.passwordForm ?? 'as-typed', hasher),
      poolId,
      limits,
      accountKey: (username) => `${poolId}:${username}`,
      async mustFind(username) {
        const user = await store.findUser(db, poolId, username);
        if (!user) throw E.userNotFound();
        return user;
      },
    };
    const codes = poolCodes(ctx, options.sendCode);
    const sessions = poolSessions({ db, clock, poolId, sessionTtlMs: options.sessionTtlMs });
    const { signIn, lateRefusal } = poolSignIn(ctx, sessions);

    return {
      poolId,
      ...poolSignUp(ctx, codes, sessions, lateRefusal),
      signIn,
      resumeSession: sessions.resume,
      checkSavedSession: sessions.checkSavedSession,
      authenticate: sessions.authenticate,
      signOut: sessions.signOut,
      signOutEverywhere: sessions.signOutEverywhere,
      ...poolPasswords(ctx, codes),
      /** The pool owner's tools (the dashboard): look up, list, disable, delete, set a password. */
      admin: poolAdmin(ctx),
    };
  }

  /** Deletes expired sessions, saved sessions and codes, a batch at a time; answers how many went. */
  const purgeExpired = (batch: number) => purgeExpiredSessions(db, clock.now(), batch);

  /** Deletes a whole pool (its owner, a game, is going), in the caller's transaction. */
  const removePool = (trx: Kysely<DB>, poolId: string) => store.deletePool(trx, poolId);

  return { pool, countIpRequest: limits.countIpRequest, purgeExpired, removePool };
}

export type Identity = ReturnType<typeof createIdentity>;

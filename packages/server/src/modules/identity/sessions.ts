import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { Clock } from '../../lib/clock.js';
import { AppError } from '../../http/errors.js';
import { newToken, sha256 } from '../../lib/tokens.js';
import { identityErrors as E } from './errors.js';
import type { IdentityUser } from './identity.table.js';
import * as store from './store.js';

export interface SessionUser {
  userId: string;
  poolId: string;
  username: string;
  email: string | null;
  tokenHash: string;
  /** The saved session this session was minted from, if any. */
  savedSessionHash: string | null;
}

/** A new session: the bearer token and when it expires (null: never). */
export interface IssuedSession {
  token: string;
  expiresAt: number | null;
}

export interface PoolSessionsDeps {
  db: Kysely<DB>;
  clock: Clock;
  poolId: string;
  /** Lifetime of a new session; null means it never expires. */
  sessionTtlMs(): number | null;
}

/**
 * One pool's sessions. Every session carries the account's session version its credentials were
 * checked under, and is stored and honoured only while that is still the account's version.
 */
export function poolSessions({ db, clock, poolId, sessionTtlMs }: PoolSessionsDeps) {
  /**
   * Mints a session for an account whose credentials were checked under `user.session_version`;
   * undefined when every session of the account has been ended since (a new password, a reset…).
   */
  async function startSession(
    user: Pick<IdentityUser, 'id' | 'session_version'>,
    savedSessionHash: string | null = null,
  ): Promise<IssuedSession | undefined> {
    const token = newToken();
    const now = clock.now();
    const ttl = sessionTtlMs();
    const expiresAt = ttl === null ? null : now + ttl;
    const started = await store.insertSession(db, {
      token_hash: sha256(token),
      user_id: user.id,
      created_at: now,
      expires_at: expiresAt,
      saved_session_hash: savedSessionHash,
      session_version: user.session_version,
    });
    return started ? { token, expiresAt } : undefined;
  }

  /** A "remember me" token for an account checked under `user.session_version`; undefined as for sessions. */
  async function startSavedSession(
    user: Pick<IdentityUser, 'id' | 'session_version'>,
    ttlMs: number,
  ): Promise<{ token: string; expiresAt: number } | undefined> {
    const token = newToken();
    const now = clock.now();
    const started = await store.insertSavedSession(db, {
      token_hash: sha256(token),
      user_id: user.id,
      created_at: now,
      expires_at: now + ttlMs,
      session_version: user.session_version,
    });
    return started ? { token, expiresAt: now + ttlMs } : undefined;
  }

  /** The account behind a live saved session; an unknown, expired or ended one answers SessionExpired. */
  async function checkSaved(savedToken: string) {
    const hash = sha256(savedToken);
    const row = await store.findSavedSessionUser(db, hash);
    if (!row || row.pool_id !== poolId) throw E.sessionExpired();
    if (row.expires_at <= clock.now()) {
      await store.deleteSavedSession(db, hash);
      throw E.sessionExpired();
    }
    const user = await store.findUserById(db, row.user_id);
    if (!user || user.enabled !== 1) throw E.sessionExpired();
    // A reset request is how a player locks out whoever took the password: no new sessions until it is done.
    if (user.status === 'RESET_REQUIRED') throw E.passwordResetRequired();
    // Every session of the account was ended since it was saved (a new password…).
    if (row.session_version !== user.session_version) {
      await store.deleteSavedSession(db, hash);
      throw E.sessionExpired();
    }
    return { user, hash, sessionVersion: row.session_version };
  }

  return {
    startSession,
    startSavedSession,

    /**
     * Answers the account behind a live saved session and leaves it as it is: no new session is
     * minted and the saved one is not replaced (for clients that keep their saved session for good).
     */
    checkSavedSession: async (savedToken: string): Promise<IdentityUser> => (await checkSaved(savedToken)).user,

    /** Mints a fresh session from a saved one; an unknown, expired or ended saved session answers SessionExpired. */
    async resume(savedToken: string): Promise<{ user: IdentityUser } & IssuedSession> {
      const { user, hash, sessionVersion } = await checkSaved(savedToken);
      const session = await startSession({ id: user.id, session_version: sessionVersion }, hash);
      if (!session) {
        await store.deleteSavedSession(db, hash);
        throw E.sessionExpired();
      }
      return { user, ...session };
    },

    /** Answers who holds a session token of this pool, or undefined when it is unknown, ended, expired or the account is disabled. */
    async authenticate(token: string): Promise<SessionUser | undefined> {
      const tokenHash = sha256(token);
      const row = await store.findSessionUser(db, tokenHash);
      if (!row || row.pool_id !== poolId || row.enabled !== 1) return undefined;
      // Minted before every session of the account was ended (from a password checked just before a change).
      const stale = row.session_version !== row.user_session_version;
      if (stale || (row.expires_at !== null && row.expires_at <= clock.now())) {
        await store.deleteSession(db, tokenHash);
        return undefined;
      }
      return {
        userId: row.user_id,
        poolId: row.pool_id,
        username: row.username,
        email: row.email,
        tokenHash,
        savedSessionHash: row.saved_session_hash,
      };
    },

    /** Ends one session and the saved session it was minted from (with that one's other sessions). */
    async signOut(session: SessionUser): Promise<void> {
      if (session.savedSessionHash) await store.deleteSavedSession(db, session.savedSessionHash);
      await store.deleteSession(db, session.tokenHash);
    },

    /** Ends every session of the account, saved sessions too, on every device. */
    async signOutEverywhere(userId: string): Promise<void> {
      try {
        await db.transaction().execute((trx) => store.endUserSessions(trx, userId));
      } catch (err) {
        // Deleted since the caller's session was checked: no session of it is left to end.
        if (!(err instanceof AppError && err.code === 'UserNotFound')) throw err;
      }
    },
  };
}

export type PoolSessions = ReturnType<typeof poolSessions>;

/** Deletes sessions, saved sessions and codes expired at `now`, `batch` rows per statement; answers how many went. */
export async function purgeExpiredSessions(db: Kysely<DB>, now: number, batch: number): Promise<store.PurgedRows> {
  const total: store.PurgedRows = { sessions: 0, savedSessions: 0, codes: 0 };
  for (;;) {
    const purged = await store.purgeExpiredBatch(db, now, batch);
    total.sessions += purged.sessions;
    total.savedSessions += purged.savedSessions;
    total.codes += purged.codes;
    if (Math.max(purged.sessions, purged.savedSessions, purged.codes) < batch) return total;
  }
}

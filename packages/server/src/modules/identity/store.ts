import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { AccountStatus, CodePurpose, IdentityUser, NewIdentityUser } from './identity.table.js';

export function findUser(db: Kysely<DB>, poolId: string, username: string): Promise<IdentityUser | undefined> {
  return db
    .selectFrom('identity_users')
    .selectAll()
    .where('pool_id', '=', poolId)
    .where('username', '=', username)
    .executeTakeFirst();
}

export function findUserById(db: Kysely<DB>, id: string): Promise<IdentityUser | undefined> {
  return db.selectFrom('identity_users').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertUser(db: Kysely<DB>, user: NewIdentityUser): Promise<void> {
  await db.insertInto('identity_users').values(user).execute();
}

export async function updateUser(
  db: Kysely<DB>,
  id: string,
  changes: { password_hash?: string; status?: AccountStatus; enabled?: number },
  now: number,
): Promise<void> {
  await db
    .updateTable('identity_users')
    .set({ ...changes, updated_at: now })
    .where('id', '=', id)
    .execute();
}

/** Stores a code, replacing any earlier one of the same purpose. */
export async function putCode(
  db: Kysely<DB>,
  code: { user_id: string; purpose: CodePurpose; code_hash: string; expires_at: number; created_at: number },
): Promise<void> {
  await db
    .insertInto('identity_codes')
    .values({ ...code, failed_attempts: 0 })
    .onConflict((oc) =>
      oc.columns(['user_id', 'purpose']).doUpdateSet({
        code_hash: code.code_hash,
        expires_at: code.expires_at,
        created_at: code.created_at,
        failed_attempts: 0,
      }),
    )
    .execute();
}

/**
 * Uses up a code in one statement: true only when the hash matches, the code is still live and has
 * fewer than `maxAttempts` wrong tries. Parallel requests cannot both take it.
 */
export async function takeCode(
  db: Kysely<DB>,
  code: { userId: string; purpose: CodePurpose; codeHash: string; now: number; maxAttempts: number },
): Promise<boolean> {
  const res = await db
    .deleteFrom('identity_codes')
    .where('user_id', '=', code.userId)
    .where('purpose', '=', code.purpose)
    .where('code_hash', '=', code.codeHash)
    .where('expires_at', '>', code.now)
    .where('failed_attempts', '<', code.maxAttempts)
    .executeTakeFirst();
  return res.numDeletedRows > 0n;
}

export async function deleteCode(db: Kysely<DB>, userId: string, purpose: CodePurpose): Promise<void> {
  await db.deleteFrom('identity_codes').where('user_id', '=', userId).where('purpose', '=', purpose).execute();
}

/**
 * Counts one wrong try on a live code that still has tries left; answers the new count, or
 * undefined when there is no such code (none, expired, or out of tries).
 */
export async function countFailedCodeAttempt(
  db: Kysely<DB>,
  code: { userId: string; purpose: CodePurpose; now: number; maxAttempts: number },
): Promise<number | undefined> {
  const row = await db
    .updateTable('identity_codes')
    .set((eb) => ({ failed_attempts: eb('failed_attempts', '+', 1) }))
    .where('user_id', '=', code.userId)
    .where('purpose', '=', code.purpose)
    .where('expires_at', '>', code.now)
    .where('failed_attempts', '<', code.maxAttempts)
    .returning('failed_attempts')
    .executeTakeFirst();
  return row?.failed_attempts;
}

export async function insertSession(
  db: Kysely<DB>,
  session: {
    token_hash: string;
    user_id: string;
    created_at: number;
    expires_at: number | null;
    saved_session_hash?: string | null;
  },
): Promise<void> {
  await db.insertInto('identity_sessions').values(session).execute();
}

export function findSessionUser(db: Kysely<DB>, tokenHash: string) {
  return db
    .selectFrom('identity_sessions as s')
    .innerJoin('identity_users as u', 'u.id', 's.user_id')
    .select([
      's.token_hash',
      's.expires_at',
      's.saved_session_hash',
      'u.id as user_id',
      'u.pool_id',
      'u.username',
      'u.email',
      'u.enabled',
      'u.status',
    ])
    .where('s.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

export async function deleteSession(db: Kysely<DB>, tokenHash: string): Promise<void> {
  await db.deleteFrom('identity_sessions').where('token_hash', '=', tokenHash).execute();
}

/**
 * Ends every session of an account, saved sessions included, except the one named (the caller's own,
 * when it should survive) and the saved session it came from.
 */
export async function deleteUserSessions(db: Kysely<DB>, userId: string, exceptTokenHash?: string): Promise<void> {
  let sessions = db.deleteFrom('identity_sessions').where('user_id', '=', userId);
  let saved = db.deleteFrom('identity_saved_sessions').where('user_id', '=', userId);
  if (exceptTokenHash) {
    sessions = sessions.where('token_hash', '!=', exceptTokenHash);
    const kept = db
      .selectFrom('identity_sessions')
      .select('saved_session_hash')
      .where('token_hash', '=', exceptTokenHash)
      .where('saved_session_hash', 'is not', null);
    saved = saved.where('token_hash', 'not in', kept as never);
  }
  await sessions.execute();
  await saved.execute();
}

export async function insertSavedSession(
  db: Kysely<DB>,
  saved: { token_hash: string; user_id: string; created_at: number; expires_at: number },
): Promise<void> {
  await db.insertInto('identity_saved_sessions').values(saved).execute();
}

export function findSavedSessionUser(db: Kysely<DB>, tokenHash: string) {
  return db
    .selectFrom('identity_saved_sessions as s')
    .innerJoin('identity_users as u', 'u.id', 's.user_id')
    .select(['s.token_hash', 's.expires_at', 'u.id as user_id', 'u.pool_id', 'u.username', 'u.enabled'])
    .where('s.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/** Ends a saved session and, through the foreign key, every session minted from it. */
export async function deleteSavedSession(db: Kysely<DB>, tokenHash: string): Promise<void> {
  await db.deleteFrom('identity_sessions').where('saved_session_hash', '=', tokenHash).execute();
  await db.deleteFrom('identity_saved_sessions').where('token_hash', '=', tokenHash).execute();
}

export async function deleteUser(db: Kysely<DB>, id: string): Promise<void> {
  await db.deleteFrom('identity_sessions').where('user_id', '=', id).execute();
  await db.deleteFrom('identity_saved_sessions').where('user_id', '=', id).execute();
  await db.deleteFrom('identity_codes').where('user_id', '=', id).execute();
  await db.deleteFrom('identity_users').where('id', '=', id).execute();
}

/** One page of a pool's accounts in name order, after `afterUsername` when given (keyset paging on the unique index). */
export function listUsers(db: Kysely<DB>, poolId: string, limit: number, afterUsername?: string) {
  let q = db
    .selectFrom('identity_users')
    .select(['id', 'username', 'email', 'status', 'enabled', 'created_at'])
    .where('pool_id', '=', poolId);
  if (afterUsername !== undefined) q = q.where('username', '>', afterUsername);
  return q.orderBy('username').limit(limit).execute();
}

import { sql, type Kysely, type Transaction } from 'kysely';
import { lockRows, withRowLock } from '../../db/dialect-sql.js';
import { isForeignKeyViolation } from '../../db/errors.js';
import type { DB } from '../../db/schema.js';
import { identityErrors } from './errors.js';
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
  const { numUpdatedRows } = await db
    .updateTable('identity_users')
    .set({ ...changes, updated_at: now })
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  // Found by name a moment ago, deleted since by another request.
  if (numUpdatedRows === 0n) throw identityErrors.userNotFound();
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

export interface NewSession {
  token_hash: string;
  user_id: string;
  created_at: number;
  expires_at: number | null;
  saved_session_hash?: string | null;
  /** The account's session version the password or saved session was checked under. */
  session_version: number;
}

/**
 * Inserts a session only while the account's session version is still the one its credentials
 * were checked under, in one statement; false when every session has been ended since.
 */
export async function insertSession(db: Kysely<DB>, session: NewSession): Promise<boolean> {
  try {
    return await insertWhileCurrent(db, 'identity_sessions', { saved_session_hash: null, ...session });
  } catch (err) {
    // The saved session it is minted from was ended (a logout, an expiry) since it was checked.
    if (isForeignKeyViolation(err)) return false;
    throw err;
  }
}

const COLUMN_TYPES: Record<string, string> = {
  created_at: 'bigint',
  expires_at: 'bigint',
  session_version: 'integer',
};

async function insertWhileCurrent(
  db: Kysely<DB>,
  table: 'identity_sessions' | 'identity_saved_sessions',
  row: Record<string, string | number | null> & { user_id: string; session_version: number },
): Promise<boolean> {
  const columns = Object.keys(row);
  // Typed casts: PostgreSQL cannot infer the type of a bare parameter in a select list.
  const values = columns.map((c) => sql`cast(${row[c]} as ${sql.raw(COLUMN_TYPES[c] ?? 'text')})`.as(c));
  const account = db
    .selectFrom('identity_users')
    .select(values)
    .where('id', '=', row.user_id)
    .where('session_version', '=', row.session_version);
  // PostgreSQL: the shared lock makes an insert wait for a version change in flight and then see it,
  // and makes a version change wait for an insert in flight, whose row its delete then sees.
  // SQLite runs one write at a time already.
  const res = await db
    .insertInto(table)
    .columns(columns as never)
    .expression(withRowLock(db, account, 'share'))
    .executeTakeFirst();
  return (res.numInsertedOrUpdatedRows ?? 0n) > 0n;
}

export function findSessionUser(db: Kysely<DB>, tokenHash: string) {
  return db
    .selectFrom('identity_sessions as s')
    .innerJoin('identity_users as u', 'u.id', 's.user_id')
    .select([
      's.token_hash',
      's.expires_at',
      's.saved_session_hash',
      's.session_version',
      'u.session_version as user_session_version',
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
 * Ends every session of an account, saved sessions included unless `keepSaved`, and any session
 * being minted right now from credentials checked before: the account's session version moves on.
 * `keep` names the caller's own session, which moves on with it, as does the saved session it came from.
 */
export async function endUserSessions(
  trx: Transaction<DB>,
  userId: string,
  opts: { keep?: string; keepSaved?: boolean } = {},
): Promise<void> {
  const moved = await trx
    .updateTable('identity_users')
    .set((eb) => ({ session_version: eb('session_version', '+', 1) }))
    .where('id', '=', userId)
    .returning('session_version')
    .executeTakeFirst();
  if (!moved) throw identityErrors.userNotFound();
  const version = moved.session_version;
  let sessions = trx.deleteFrom('identity_sessions').where('user_id', '=', userId);
  let saved = trx.deleteFrom('identity_saved_sessions').where('user_id', '=', userId);
  if (opts.keep) {
    const kept = trx
      .selectFrom('identity_sessions')
      .select('saved_session_hash')
      .where('token_hash', '=', opts.keep)
      .where('saved_session_hash', 'is not', null);
    await trx
      .updateTable('identity_saved_sessions')
      .set({ session_version: version })
      .where('token_hash', 'in', kept as never)
      .where('session_version', '=', version - 1)
      .execute();
    await trx
      .updateTable('identity_sessions')
      .set({ session_version: version })
      .where('token_hash', '=', opts.keep)
      .where('session_version', '=', version - 1)
      .execute();
    sessions = sessions.where('token_hash', '!=', opts.keep);
    saved = saved.where('token_hash', 'not in', kept as never);
  }
  await sessions.execute();
  if (!opts.keepSaved) await saved.execute();
}

/** Inserts a saved session only while the account's session version is still the one given (as `insertSession`). */
export async function insertSavedSession(
  db: Kysely<DB>,
  saved: { token_hash: string; user_id: string; created_at: number; expires_at: number; session_version: number },
): Promise<boolean> {
  return insertWhileCurrent(db, 'identity_saved_sessions', saved);
}

export function findSavedSessionUser(db: Kysely<DB>, tokenHash: string) {
  return db
    .selectFrom('identity_saved_sessions as s')
    .innerJoin('identity_users as u', 'u.id', 's.user_id')
    .select([
      's.token_hash',
      's.expires_at',
      's.session_version',
      'u.id as user_id',
      'u.pool_id',
      'u.username',
      'u.enabled',
    ])
    .where('s.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/** Ends a saved session and, through the foreign key, every session minted from it. */
export async function deleteSavedSession(db: Kysely<DB>, tokenHash: string): Promise<void> {
  await db.deleteFrom('identity_sessions').where('saved_session_hash', '=', tokenHash).execute();
  await db.deleteFrom('identity_saved_sessions').where('token_hash', '=', tokenHash).execute();
}

/**
 * Holds the account row first, as every change of an account does before it touches its sessions:
 * one lock order, so a delete and a password change of the same account cannot deadlock. False
 * when the account is gone.
 */
export async function lockUser(trx: Kysely<DB>, id: string): Promise<boolean> {
  const q = trx.selectFrom('identity_users').select('id').where('id', '=', id);
  return (await withRowLock(trx, q, 'update').executeTakeFirst()) !== undefined;
}

/** Deletes an account and what hangs on it; the caller has taken `lockUser` before touching anything of it. */
export async function deleteUser(db: Kysely<DB>, id: string): Promise<void> {
  await db.deleteFrom('identity_sessions').where('user_id', '=', id).execute();
  await db.deleteFrom('identity_saved_sessions').where('user_id', '=', id).execute();
  await db.deleteFrom('identity_codes').where('user_id', '=', id).execute();
  await db.deleteFrom('identity_users').where('id', '=', id).execute();
}

/** Every account of a pool with its sessions, saved sessions and codes (the pool's owner is going). */
export async function deletePool(db: Kysely<DB>, poolId: string): Promise<void> {
  const users = db.selectFrom('identity_users').select('id').where('pool_id', '=', poolId);
  // The accounts before their sessions, in the order lockUser and updateUser take them.
  await lockRows(db, users, 'update');
  await db.deleteFrom('identity_sessions').where('user_id', 'in', users).execute();
  await db.deleteFrom('identity_saved_sessions').where('user_id', 'in', users).execute();
  await db.deleteFrom('identity_codes').where('user_id', 'in', users).execute();
  await db.deleteFrom('identity_users').where('pool_id', '=', poolId).execute();
}

/** The names among these that already have an account in the pool. */
export async function takenUsernames(
  db: Kysely<DB>,
  poolId: string,
  names: string[],
  chunk = 500,
): Promise<Set<string>> {
  const taken = new Set<string>();
  for (let i = 0; i < names.length; i += chunk) {
    const rows = await db
      .selectFrom('identity_users')
      .select('username')
      .where('pool_id', '=', poolId)
      .where('username', 'in', names.slice(i, i + chunk))
      .execute();
    for (const r of rows) taken.add(r.username);
  }
  return taken;
}

/** Inserts accounts, `chunk` rows per statement. */
export async function insertUsers(db: Kysely<DB>, users: NewIdentityUser[], chunk = 500): Promise<void> {
  for (let i = 0; i < users.length; i += chunk) {
    await db
      .insertInto('identity_users')
      .values(users.slice(i, i + chunk))
      .execute();
  }
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

/** How many rows one purge batch deleted, by kind. */
export interface PurgedRows {
  sessions: number;
  savedSessions: number;
  codes: number;
}

/**
 * Deletes up to `batch` expired sessions, saved sessions and codes, each kind in its own short
 * statement. A live session minted from an expired saved session keeps running to its own expiry.
 */
export async function purgeExpiredBatch(db: Kysely<DB>, now: number, batch: number): Promise<PurgedRows> {
  const sessions = await db
    .deleteFrom('identity_sessions')
    .where('token_hash', 'in', (eb) =>
      eb.selectFrom('identity_sessions').select('token_hash').where('expires_at', '<=', now).limit(batch),
    )
    .executeTakeFirst();
  const hashes = (
    await db
      .selectFrom('identity_saved_sessions')
      .select('token_hash')
      .where('expires_at', '<=', now)
      .limit(batch)
      .execute()
  ).map((r) => r.token_hash);
  let savedSessions = 0n;
  if (hashes.length > 0) {
    await db
      .updateTable('identity_sessions')
      .set({ saved_session_hash: null })
      .where('saved_session_hash', 'in', hashes)
      .execute();
    savedSessions = (
      await db.deleteFrom('identity_saved_sessions').where('token_hash', 'in', hashes).executeTakeFirst()
    ).numDeletedRows;
  }
  const codes = await db
    .deleteFrom('identity_codes')
    .where((eb) =>
      eb(
        eb.refTuple('user_id', 'purpose'),
        'in',
        eb
          .selectFrom('identity_codes')
          .select(['user_id', 'purpose'])
          .where('expires_at', '<=', now)
          .limit(batch)
          .$asTuple('user_id', 'purpose'),
      ),
    )
    .executeTakeFirst();
  return {
    sessions: Number(sessions.numDeletedRows),
    savedSessions: Number(savedSessions),
    codes: Number(codes.numDeletedRows),
  };
}

import type { Kysely, Transaction } from 'kysely';
import { lockRows, withRowLock } from '../../db/dialect-sql.js';
import { prepared } from '../../db/prepared.js';
import type { DB } from '../../db/schema.js';
import type { GameRow, NewGame } from './games.table.js';

export async function insertGame(db: Kysely<DB>, game: NewGame): Promise<void> {
  await db.insertInto('games').values(game).execute();
}

export function listGames(db: Kysely<DB>, ownerId: string) {
  return db
    .selectFrom('games')
    .select(['id', 'name', 'created_at'])
    .where('owner_id', '=', ownerId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function countGames(db: Kysely<DB>, ownerId: string): Promise<number> {
  const row = await db
    .selectFrom('games')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('owner_id', '=', ownerId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The game when this developer owns it; another developer's game is the same as none. */
export function findOwnedGame(db: Kysely<DB>, ownerId: string, gameId: string): Promise<GameRow | undefined> {
  return db.selectFrom('games').selectAll().where('id', '=', gameId).where('owner_id', '=', ownerId).executeTakeFirst();
}

export function findGame(db: Kysely<DB>, gameId: string): Promise<GameRow | undefined> {
  return db.selectFrom('games').selectAll().where('id', '=', gameId).executeTakeFirst();
}

export async function updateGame(
  db: Kysely<DB>,
  gameId: string,
  changes: Partial<
    Pick<
      GameRow,
      | 'name'
      | 'allow_client_deletes'
      | 'api_key'
      | 'latest_plugin_version'
      | 'latest_engine'
      | 'player_auth_enabled'
      | 'reg_type'
      | 'email_conf_enabled'
      | 'session_duration_seconds'
      | 'saved_session_days'
      | 'require_player_session'
    >
  >,
): Promise<void> {
  await db.updateTable('games').set(changes).where('id', '=', gameId).execute();
}

/**
 * Locks the developer's row until the transaction ends, so their game writes (create with its
 * limit, make current, delete) run one at a time.
 */
export async function lockDeveloper(trx: Transaction<DB>, developerId: string): Promise<void> {
  await lockRows(trx, trx.selectFrom('developers').select('user_id').where('user_id', '=', developerId), 'update');
}

export async function getCurrentGameId(db: Kysely<DB>, developerId: string): Promise<string | null> {
  const row = await db
    .selectFrom('developers')
    .select('current_game_id')
    .where('user_id', '=', developerId)
    .executeTakeFirst();
  return row?.current_game_id ?? null;
}

export async function setCurrentGameId(db: Kysely<DB>, developerId: string, gameId: string | null): Promise<void> {
  await db.updateTable('developers').set({ current_game_id: gameId }).where('user_id', '=', developerId).execute();
}

/** Deletes the game's own row; what the other modules keep under it has gone first (GameRows). */
export async function deleteGame(trx: Transaction<DB>, gameId: string): Promise<void> {
  await trx.deleteFrom('games').where('id', '=', gameId).execute();
}

/**
 * Whether the game still exists; its row stays held (shared) until the transaction ends, so
 * deleting the game waits for a write under it instead of leaving rows behind. (player-data's
 * replaceOwnDocsHeld takes the same lock inside its one statement: change both together.)
 */
export async function holdGame(trx: Transaction<DB>, gameId: string): Promise<boolean> {
  return (await heldGame(trx, gameId)).length > 0;
}

const heldGame = prepared((db, gameId) =>
  withRowLock(db, db.selectFrom('games').select('id').where('id', '=', gameId!), 'share'),
);

/** Locks the game's row for a delete: writes that hold it (holdGame) finish first, later ones find it gone. */
export async function lockGameForDelete(trx: Transaction<DB>, gameId: string): Promise<void> {
  await lockRows(trx, trx.selectFrom('games').select('id').where('id', '=', gameId), 'update');
}

import type { InsertOption, SortOrder } from '@howl/contract';
import { sql, type Kysely, type Transaction } from 'kysely';
import { lockRows, withRowLock, type RowLock } from '../../db/dialect-sql.js';
import { prepared } from '../../db/prepared.js';
import type { DB } from '../../db/schema.js';
import type { LeaderboardRow, NewLeaderboard, ScoreRow } from './leaderboards.table.js';
import { boardOrderSql, inBoardOrder } from '../ranking/order.js';
import { clampedScore } from './score-range.js';

export function listLeaderboards(db: Kysely<DB>, gameId: string): Promise<LeaderboardRow[]> {
  return db
    .selectFrom('leaderboards')
    .selectAll()
    .where('game_id', '=', gameId)
    .orderBy('created_at')
    .orderBy('name')
    .execute();
}

export function findLeaderboard(db: Kysely<DB>, gameId: string, name: string): Promise<LeaderboardRow | undefined> {
  return db
    .selectFrom('leaderboards')
    .selectAll()
    .where('game_id', '=', gameId)
    .where('name', '=', name)
    .executeTakeFirst();
}

/**
 * How a write holds a board's row until its transaction ends (PostgreSQL; SQLite runs one write
 * transaction at a time). `share`: saves to a board without a size limit, many at once. `one`:
 * saves that may trim, one at a time (a trim decided in the database is then exact). `all`:
 * wipes, new settings and deletes of scores, alone. Locks are always taken board before scores,
 * and several boards in id order, so two writes never wait on each other in a circle.
 */
export type BoardLock = 'share' | 'one' | 'all';

/** The row lock each BoardLock takes (on PostgreSQL; none on SQLite). */
const ROW_LOCK: Record<BoardLock, RowLock> = { share: 'key share', one: 'no key update', all: 'update' };

/** Every column of a board, named (a prepared statement must not say `*`). */
const BOARD_COLUMNS = Object.keys({
  id: true,
  game_id: true,
  name: true,
  display_name: true,
  insert_option: true,
  time_based: true,
  timezone: true,
  max_entries: true,
  sort: true,
  created_at: true,
  generation: true,
} satisfies Record<keyof LeaderboardRow, true>) as (keyof LeaderboardRow)[];

/** The read of a board for a write, compiled once per lock (every submit runs one). */
const boardLocks = Object.fromEntries(
  (Object.keys(ROW_LOCK) as BoardLock[]).map((lock) => [
    lock,
    prepared((db, gameId, name) =>
      withRowLock(
        db,
        db.selectFrom('leaderboards').select(BOARD_COLUMNS).where('game_id', '=', gameId!).where('name', '=', name!),
        ROW_LOCK[lock],
      ),
    ),
  ]),
) as Record<BoardLock, (db: Kysely<DB>, gameId: string, name: string) => Promise<LeaderboardRow[]>>;

/** The board, read and locked for a write; undefined when it no longer exists. */
export async function lockBoard(
  trx: Transaction<DB>,
  gameId: string,
  name: string,
  lock: BoardLock,
): Promise<LeaderboardRow | undefined> {
  const [board] = await boardLocks[lock](trx, gameId, name);
  return board;
}

/** Locks boards by id, in id order (see BoardLock). */
export async function lockBoards(trx: Transaction<DB>, ids: string[], lock: BoardLock): Promise<void> {
  if (ids.length === 0) return;
  const q = trx.selectFrom('leaderboards').select('id').where('id', 'in', ids).orderBy('id');
  await lockRows(trx, q, ROW_LOCK[lock]);
}

/**
 * Deletes a game's boards and their scores, and answers the ids that went. The boards are locked
 * first, in id order, as every score write takes them (see BoardLock); the game's row is already
 * locked by the delete.
 */
export async function deleteGameBoards(trx: Transaction<DB>, gameId: string): Promise<string[]> {
  const boards = trx.selectFrom('leaderboards').select('id').where('game_id', '=', gameId).orderBy('id');
  const boardIds = (await withRowLock(trx, boards, ROW_LOCK.all).execute()).map((b) => b.id);
  if (boardIds.length > 0) await trx.deleteFrom('scores').where('leaderboard_id', 'in', boardIds).execute();
  await trx.deleteFrom('leaderboards').where('game_id', '=', gameId).execute();
  return boardIds;
}

/** Locks the game's row so that its boards are counted and created one at a time. */
export async function lockGameBoards(trx: Transaction<DB>, gameId: string): Promise<boolean> {
  const q = trx.selectFrom('games').select('id').where('id', '=', gameId);
  return (await withRowLock(trx, q, 'no key update').executeTakeFirst()) !== undefined;
}

export async function countLeaderboards(db: Kysely<DB>, gameId: string): Promise<number> {
  const row = await db
    .selectFrom('leaderboards')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('game_id', '=', gameId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertLeaderboard(db: Kysely<DB>, board: NewLeaderboard): Promise<void> {
  await db.insertInto('leaderboards').values(board).execute();
}

export async function updateLeaderboard(
  db: Kysely<DB>,
  id: string,
  changes: Partial<Omit<LeaderboardRow, 'id' | 'game_id' | 'name' | 'created_at'>>,
): Promise<void> {
  await db.updateTable('leaderboards').set(changes).where('id', '=', id).execute();
}

export async function deleteLeaderboard(db: Transaction<DB>, id: string): Promise<void> {
  await db.deleteFrom('scores').where('leaderboard_id', '=', id).execute();
  await db.deleteFrom('leaderboards').where('id', '=', id).execute();
}

/** Per board period: how many entries it holds and which engines they came from (for the dashboard). */
export async function periodStats(db: Kysely<DB>, periods: Array<{ boardId: string; periodStart: number }>) {
  if (periods.length === 0) return [];
  return db
    .selectFrom('scores')
    .select(['leaderboard_id', 'engine', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where((eb) =>
      eb.or(periods.map((p) => eb.and([eb('leaderboard_id', '=', p.boardId), eb('period_start', '=', p.periodStart)]))),
    )
    .groupBy(['leaderboard_id', 'engine'])
    .execute();
}

export interface NewEntry {
  id: string;
  leaderboard_id: string;
  period_start: number;
  player_name: string;
  score: number;
  timestamp: number;
  metadata: string | null;
  engine: number | null;
}

/** The entries of these players in one period of a board that keeps one per player, in one read. */
export async function findPlayerEntries(
  db: Kysely<DB>,
  boardId: string,
  periodStart: number,
  playerNames: string[],
): Promise<Map<string, ScoreRow>> {
  if (playerNames.length === 0) return new Map();
  const rows = await db
    .selectFrom('scores')
    .selectAll()
    .where('leaderboard_id', '=', boardId)
    .where('period_start', '=', periodStart)
    .where('player_key', 'in', playerNames)
    .execute();
  return new Map(rows.map((row) => [row.player_key, row]));
}

/** Which of these ids an entry, of any board, already has. */
export async function takenEntryIds(db: Kysely<DB>, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('scores').select('id').where('id', 'in', ids).execute();
  return new Set(rows.map((r) => r.id));
}

// Columns named, not `*`: on PostgreSQL this is a named statement, which a column added later would break.
const entryQuery = prepared((db, boardId, id) =>
  db
    .selectFrom('scores')
    .select(['id', 'period_start', 'player_name', 'score', 'timestamp'])
    .where('leaderboard_id', '=', boardId!)
    .where('id', '=', id!),
);

export async function findEntry(db: Kysely<DB>, boardId: string, id: string) {
  const [row] = await entryQuery(db, boardId, id);
  return row;
}

/** A player's entries in one period, best first. */
export function playerEntries(
  db: Kysely<DB>,
  boardId: string,
  periodStart: number,
  playerName: string,
  sort: SortOrder,
  limit: number,
) {
  const q = db
    .selectFrom('scores')
    .selectAll()
    .where('leaderboard_id', '=', boardId)
    .where('period_start', '=', periodStart)
    .where('player_name', '=', playerName);
  return inBoardOrder(q, sort).limit(limit).execute();
}

const REMOVED = ['id', 'leaderboard_id', 'period_start', 'score', 'timestamp', 'player_name'] as const;

/** Keeps only the best `maxEntries` of every period of a board (after its settings changed). */
export async function trim(
  trx: Transaction<DB>,
  board: { id: string; sort: SortOrder; maxEntries: number },
): Promise<RemovedEntry[]> {
  const ranked = sql`select id, row_number() over (partition by period_start order by ${boardOrderSql(board.sort)}) as place
    from scores where leaderboard_id = ${board.id}`;
  const res =
    await sql<RemovedEntry>`delete from scores where id in (select id from (${ranked}) as ranked where place > ${board.maxEntries})
    returning id, leaderboard_id, period_start, score, timestamp, player_name`.execute(trx);
  return res.rows.map((r) => ({ ...r, period_start: Number(r.period_start), timestamp: Number(r.timestamp) }));
}

/**
 * Deletes what ranks past `maxEntries` in one period: after a save added an entry, at most the one
 * it pushed out. Decided by the database inside the save's transaction, under the board's lock.
 */
export function trimPeriod(
  trx: Transaction<DB>,
  board: { id: string; sort: SortOrder; maxEntries: number },
  periodStart: number,
): Promise<RemovedEntry[]> {
  const tail = inBoardOrder(
    trx
      .selectFrom('scores')
      .select('id')
      .where('leaderboard_id', '=', board.id)
      .where('period_start', '=', periodStart),
    board.sort,
  );
  return trx
    .deleteFrom('scores')
    .where('id', 'in', tail.limit(1000).offset(board.maxEntries))
    .returning(REMOVED)
    .execute();
}

/**
 * Makes a board's entries fit a new save mode. To `keep`: every entry stays, each its own. From
 * `keep` to a one-entry mode: in each period, each player keeps one entry: the best (`highest`),
 * the latest (`latest`), or the latest holding the sum of all of them (`accumulator`).
 */
export async function convertEntries(
  trx: Transaction<DB>,
  board: { id: string; sort: SortOrder },
  from: InsertOption,
  to: InsertOption,
): Promise<RemovedEntry[]> {
  if (to === 'keep') {
    if (from !== 'keep') await sql`update scores set player_key = id where leaderboard_id = ${board.id}`.execute(trx);
    return [];
  }
  if (from !== 'keep') return [];
  const order = to === 'highest' ? boardOrderSql(board.sort) : sql.raw('timestamp desc, id desc');
  const survivors = sql`select id from (select id, row_number() over (partition by period_start, player_name order by ${order}) as place
    from scores where leaderboard_id = ${board.id}) as ranked where place = 1`;
  if (to === 'accumulator') {
    const sum = sql`(select sum(mine.score) from scores as mine
        where mine.leaderboard_id = scores.leaderboard_id and mine.period_start = scores.period_start and mine.player_name = scores.player_name)`;
    await sql`update scores set revision = revision + 1, score = ${clampedScore(sum)}
      where leaderboard_id = ${board.id} and id in (${survivors})`.execute(trx);
  }
  const res = await sql<RemovedEntry>`delete from scores where leaderboard_id = ${board.id} and id not in (${survivors})
    returning id, leaderboard_id, period_start, score, timestamp, player_name`.execute(trx);
  await sql`update scores set player_key = player_name where leaderboard_id = ${board.id}`.execute(trx);
  return res.rows.map((r) => ({ ...r, period_start: Number(r.period_start), timestamp: Number(r.timestamp) }));
}

/** What a delete took away, so a rank index can follow. */
export type RemovedEntry = Pick<
  ScoreRow,
  'id' | 'leaderboard_id' | 'period_start' | 'score' | 'timestamp' | 'player_name'
>;

/** The boards of this game that hold any of these score ids. */
export async function boardsOfEntries(db: Kysely<DB>, gameId: string, ids: string[]): Promise<string[]> {
  const rows = await db
    .selectFrom('scores')
    .innerJoin('leaderboards', 'leaderboards.id', 'scores.leaderboard_id')
    .select('scores.leaderboard_id')
    .distinct()
    .where('leaderboards.game_id', '=', gameId)
    .where('scores.id', 'in', ids)
    .execute();
  return rows.map((r) => r.leaderboard_id).sort();
}

export function deleteEntries(trx: Transaction<DB>, gameId: string, ids: string[]): Promise<RemovedEntry[]> {
  return trx
    .deleteFrom('scores')
    .where('id', 'in', ids)
    .where('leaderboard_id', 'in', trx.selectFrom('leaderboards').select('id').where('game_id', '=', gameId))
    .returning(REMOVED)
    .execute();
}

/** Empties every period of a board; the generation moves on so a rank index drops older notices. */
export async function wipe(trx: Transaction<DB>, boardId: string): Promise<number> {
  await trx.deleteFrom('scores').where('leaderboard_id', '=', boardId).execute();
  return nextGeneration(trx, boardId);
}

async function nextGeneration(trx: Transaction<DB>, boardId: string): Promise<number> {
  const row = await trx
    .updateTable('leaderboards')
    .set((eb) => ({ generation: eb(eb.ref('generation'), '+', 1) }))
    .where('id', '=', boardId)
    .returning('generation')
    .executeTakeFirstOrThrow();
  return row.generation;
}

/** Which board holds each of these score ids (of any game): ids are unique across the database. */
export async function entryBoards(db: Kysely<DB>, ids: string[], chunk = 500): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (let i = 0; i < ids.length; i += chunk) {
    const rows = await db
      .selectFrom('scores')
      .select(['id', 'leaderboard_id'])
      .where('id', 'in', ids.slice(i, i + chunk))
      .execute();
    for (const r of rows) found.set(r.id, r.leaderboard_id);
  }
  return found;
}

/** Inserts entries as they are (an import decided them under the board's lock), `chunk` rows per statement. */
export async function insertEntries(
  trx: Transaction<DB>,
  rows: Array<NewEntry & { player_key: string }>,
  chunk = 500,
): Promise<void> {
  for (let i = 0; i < rows.length; i += chunk) {
    await trx
      .insertInto('scores')
      .values(rows.slice(i, i + chunk))
      .execute();
  }
}

/** Every entry of these players on a board, in all periods. */
export async function playerEntriesOf(
  db: Kysely<DB>,
  boardId: string,
  names: string[],
  chunk = 500,
): Promise<ScoreRow[]> {
  const rows: ScoreRow[] = [];
  for (let i = 0; i < names.length; i += chunk) {
    rows.push(
      ...(await db
        .selectFrom('scores')
        .selectAll()
        .where('leaderboard_id', '=', boardId)
        .where('player_name', 'in', names.slice(i, i + chunk))
        .execute()),
    );
  }
  return rows.map((r) => ({ ...r, period_start: Number(r.period_start), timestamp: Number(r.timestamp) }));
}

/** An entry takes another score's place (an import replacing it under its board's lock). */
export async function replaceEntry(
  trx: Transaction<DB>,
  id: string,
  next: Pick<ScoreRow, 'id' | 'score' | 'timestamp' | 'metadata' | 'engine'>,
): Promise<void> {
  await trx
    .updateTable('scores')
    .set((eb) => ({ ...next, revision: eb(eb.ref('revision'), '+', 1) }))
    .where('id', '=', id)
    .execute();
}

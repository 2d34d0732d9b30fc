import type { InsertOption, SortOrder } from '@howl/contract';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { LeaderboardRow, NewLeaderboard, ScoreRow } from './leaderboards.table.js';
import { orderColumns } from './order.js';

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

export async function deleteLeaderboard(db: Kysely<DB>, id: string): Promise<void> {
  await db.deleteFrom('scores').where('leaderboard_id', '=', id).execute();
  await db.deleteFrom('leaderboards').where('id', '=', id).execute();
}

/** Per board: how many entries it holds and which engines they came from (for the dashboard). */
export function boardStats(db: Kysely<DB>, gameId: string) {
  return db
    .selectFrom('scores')
    .innerJoin('leaderboards', 'leaderboards.id', 'scores.leaderboard_id')
    .select(['scores.leaderboard_id', 'scores.engine', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('leaderboards.game_id', '=', gameId)
    .groupBy(['scores.leaderboard_id', 'scores.engine'])
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

/**
 * Saves a submission the board's way, in one statement so parallel submissions never lose an
 * update: keep inserts; the others upsert the player's one entry of the period. Answers the entry
 * as it stands after the write, or undefined when a `highest` submission did not beat it.
 */
export async function saveEntry(
  db: Kysely<DB>,
  entry: NewEntry,
  mode: InsertOption,
  sort: SortOrder,
): Promise<ScoreRow | undefined> {
  const row = { ...entry, player_key: mode === 'keep' ? entry.id : entry.player_name };
  const insert = db.insertInto('scores').values(row);
  if (mode === 'keep') return insert.returningAll().executeTakeFirst();
  const better = sort === 'desc' ? '>' : '<';
  return insert
    .onConflict((oc) => {
      const target = oc.columns(['leaderboard_id', 'period_start', 'player_key']);
      if (mode === 'latest') {
        return target.doUpdateSet((eb) => ({
          score: eb.ref('excluded.score'),
          timestamp: eb.ref('excluded.timestamp'),
          metadata: eb.ref('excluded.metadata'),
          engine: eb.ref('excluded.engine'),
          revision: eb(eb.ref('scores.revision'), '+', 1),
        }));
      }
      if (mode === 'highest') {
        return target
          .doUpdateSet((eb) => ({
            score: eb.ref('excluded.score'),
            timestamp: eb.ref('excluded.timestamp'),
            metadata: eb.ref('excluded.metadata'),
            engine: eb.ref('excluded.engine'),
            revision: eb(eb.ref('scores.revision'), '+', 1),
          }))
          .where(({ eb, ref }) => eb(ref('excluded.score'), better, ref('scores.score')));
      }
      // accumulator: the sum is computed by the database, so concurrent increments all count.
      return target.doUpdateSet((eb) => ({
        score: eb(eb.ref('scores.score'), '+', eb.ref('excluded.score')),
        timestamp: eb.ref('excluded.timestamp'),
        metadata: eb.fn.coalesce('excluded.metadata', 'scores.metadata'),
        engine: eb.ref('excluded.engine'),
        revision: eb(eb.ref('scores.revision'), '+', 1),
      }));
    })
    .returningAll()
    .executeTakeFirst();
}

export function findPlayerEntry(db: Kysely<DB>, boardId: string, periodStart: number, playerName: string) {
  return db
    .selectFrom('scores')
    .selectAll()
    .where('leaderboard_id', '=', boardId)
    .where('period_start', '=', periodStart)
    .where('player_key', '=', playerName)
    .executeTakeFirst();
}

export function findEntry(db: Kysely<DB>, boardId: string, id: string) {
  return db
    .selectFrom('scores')
    .selectAll()
    .where('leaderboard_id', '=', boardId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** A score of one of this game's boards, with its board's name and order. */
export function findGameEntry(db: Kysely<DB>, gameId: string, id: string) {
  return db
    .selectFrom('scores')
    .innerJoin('leaderboards', 'leaderboards.id', 'scores.leaderboard_id')
    .select(['scores.id', 'scores.leaderboard_id', 'scores.period_start'])
    .where('leaderboards.game_id', '=', gameId)
    .where('scores.id', '=', id)
    .executeTakeFirst();
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
  let q = db
    .selectFrom('scores')
    .selectAll()
    .where('leaderboard_id', '=', boardId)
    .where('period_start', '=', periodStart)
    .where('player_name', '=', playerName);
  for (const [column, direction] of orderColumns(sort)) q = q.orderBy(column, direction);
  return q.limit(limit).execute();
}

/**
 * Keeps only the best `maxEntries` of every period of a board, after its settings changed (a console
 * call, not a game one: saves trim through the rank index instead).
 */
export async function trim(
  db: Kysely<DB>,
  board: { id: string; sort: SortOrder; maxEntries: number },
): Promise<RemovedEntry[]> {
  const ranked = sql`select id, row_number() over (partition by period_start order by score ${sql.raw(board.sort)}, timestamp asc, player_name asc, id asc) as place
    from scores where leaderboard_id = ${board.id}`;
  const res =
    await sql<RemovedEntry>`delete from scores where id in (select id from (${ranked}) as ranked where place > ${board.maxEntries})
    returning id, leaderboard_id, period_start, score, timestamp, player_name`.execute(db);
  return res.rows.map((r) => ({ ...r, period_start: Number(r.period_start), timestamp: Number(r.timestamp) }));
}

/** Deletes entries of one board by id. */
export function deleteBoardEntries(db: Kysely<DB>, boardId: string, ids: string[]): Promise<RemovedEntry[]> {
  return db
    .deleteFrom('scores')
    .where('leaderboard_id', '=', boardId)
    .where('id', 'in', ids)
    .returning(['id', 'leaderboard_id', 'period_start', 'score', 'timestamp', 'player_name'])
    .execute();
}

/** What a delete took away, so a rank index can follow. */
export type RemovedEntry = Pick<
  ScoreRow,
  'id' | 'leaderboard_id' | 'period_start' | 'score' | 'timestamp' | 'player_name'
>;

export function deleteEntries(db: Kysely<DB>, gameId: string, ids: string[]): Promise<RemovedEntry[]> {
  return db
    .deleteFrom('scores')
    .where('id', 'in', ids)
    .where('leaderboard_id', 'in', db.selectFrom('leaderboards').select('id').where('game_id', '=', gameId))
    .returning(['id', 'leaderboard_id', 'period_start', 'score', 'timestamp', 'player_name'])
    .execute();
}

export async function wipe(db: Kysely<DB>, boardId: string): Promise<void> {
  await db.deleteFrom('scores').where('leaderboard_id', '=', boardId).execute();
}

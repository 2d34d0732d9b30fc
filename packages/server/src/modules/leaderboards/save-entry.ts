import type { InsertOption, SortOrder } from '@howl/contract';
import { sql, type InsertQueryBuilder, type InsertResult, type Kysely } from 'kysely';
import { withRowLock } from '../../db/dialect-sql.js';
import { isHeldRowMissing } from '../../db/errors.js';
import { prepared } from '../../db/prepared.js';
import type { DB } from '../../db/schema.js';
import { scoreBeats } from '../ranking/order.js';
import { SHOWN_COLUMNS } from '../ranking/rank-index.js';
import type { ScoreRow } from './leaderboards.table.js';
import { clampedScore } from './score-range.js';
import type { NewEntry } from './store.js';

/** How many arguments each row of a save passes (its columns, in entrySave's order). */
const ENTRY_ARGS = 9;

/**
 * Saves entries the board's way, in one statement so parallel submissions never lose an update:
 * keep inserts; the others upsert each player's one entry of the period, so no two entries given
 * may be of one player. Answers each entry as it stands after the write, by its player key (its
 * id on a keep board, its player's name otherwise); an entry of a `highest` board that did not beat
 * the player's is not among them.
 */
export async function saveEntries(
  db: Kysely<DB>,
  entries: readonly NewEntry[],
  mode: InsertOption,
  sort: SortOrder,
): Promise<Map<string, ScoreRow>> {
  const rows = await entrySaves[saveWay(mode, sort)](db, ...entryArgs(entries, mode));
  return new Map(rows.map((row) => [row.player_key, row]));
}

/** The board a save in one statement holds, as the save last read it (its id is the entries'). */
export interface HeldBoard {
  gameId: string;
  name: string;
  generation: number;
}

/**
 * saveEntries in one statement that commits alone (PostgreSQL, a board without a size limit): the
 * statement takes the board's shared lock itself, as a group's transaction does first, and the
 * entries get their board's id from the locked row only while it is still `board`, at its
 * generation, with no limit. Otherwise that id is missing, the statement fails before writing
 * anything, and this answers undefined: the caller then takes the transaction's way, which reads
 * the board again.
 */
export async function saveEntriesHeld(
  db: Kysely<DB>,
  board: HeldBoard,
  entries: readonly NewEntry[],
  mode: InsertOption,
  sort: SortOrder,
): Promise<Map<string, ScoreRow> | undefined> {
  const held = [board.gameId, board.name, board.generation];
  try {
    const rows = await heldEntrySaves[saveWay(mode, sort)](db, ...held, ...entryArgs(entries, mode));
    return new Map(rows.map((row) => [row.player_key, row]));
  } catch (err) {
    if (isHeldRowMissing(err, 'leaderboard_id')) return undefined;
    throw err;
  }
}

const saveWay = (mode: InsertOption, sort: SortOrder) => (mode === 'highest' ? (`highest ${sort}` as const) : mode);

/** A save's arguments: each entry's columns, in entrySave's order. */
function entryArgs(entries: readonly NewEntry[], mode: InsertOption): unknown[] {
  const args: unknown[] = [];
  for (const e of entries) {
    const playerKey = mode === 'keep' ? e.id : e.player_name;
    args.push(
      e.id,
      e.leaderboard_id,
      e.period_start,
      e.player_name,
      playerKey,
      e.score,
      e.timestamp,
      e.metadata,
      e.engine,
    );
  }
  return args;
}

/** Every column of a score, named (a prepared statement must not say `*`). */
const SCORE_COLUMNS = [...SHOWN_COLUMNS, 'player_key'] as const satisfies readonly (keyof ScoreRow)[];

/** How a save meets the player's entry already in the period (every mode but keep). */
type OnConflict = Parameters<InsertQueryBuilder<DB, 'scores', InsertResult>['onConflict']>[0];

/**
 * The one statement of each way to save (see saveEntries), compiled once per number of rows (at
 * most a group's): a submit group runs it for its scores, and on PostgreSQL the server plans it once
 * per connection.
 */
function entrySave(conflict?: OnConflict) {
  return prepared((db, ...args) => {
    const insert = db.insertInto('scores').values(entryRows(args));
    return (conflict ? insert.onConflict(conflict) : insert).returning(SCORE_COLUMNS);
  });
}

/**
 * The same save as one statement holding its board (saveEntriesHeld): its first three arguments
 * name the board (game, name, generation). The locked row, read once (materialised), gives each
 * entry its board id when it is the entry's board; a board that has changed gives none, which the
 * column refuses.
 */
function heldEntrySave(conflict?: OnConflict) {
  return prepared((db, gameId, name, generation, ...args) => {
    const board = db
      .selectFrom('leaderboards')
      .select('id')
      .where('game_id', '=', gameId!)
      .where('name', '=', name!)
      .where('generation', '=', generation as never)
      .where('max_entries', 'is', null);
    const rows = entryRows(args).map((row) => ({
      ...row,
      leaderboard_id: sql<string>`(select id from held_board where id = ${row.leaderboard_id})`,
    }));
    const insert = db
      .with(
        (cte) => cte('held_board').materialized(),
        () => withRowLock(db, board, 'key share'),
      )
      .insertInto('scores')
      .values(rows);
    return (conflict ? insert.onConflict(conflict) : insert).returning(SCORE_COLUMNS);
  });
}

/** A save's rows from its arguments (entryArgs), as stand-ins or values. */
function entryRows(args: string[]) {
  const rows = [];
  for (let i = 0; i < args.length; i += ENTRY_ARGS) {
    const [id, boardId, periodStart, playerName, playerKey, score, timestamp, metadata, engine] = args.slice(
      i,
      i + ENTRY_ARGS,
    );
    rows.push({
      id: id!,
      leaderboard_id: boardId!,
      period_start: periodStart as never,
      player_name: playerName!,
      player_key: playerKey!,
      score: score as never,
      timestamp: timestamp as never,
      metadata: metadata!,
      engine: engine as never,
    });
  }
  return rows;
}

/** The player's entry takes the new score, time, metadata and engine; `beats` says when (always without it). */
const replacing =
  (beats?: SortOrder): OnConflict =>
  (oc) => {
    const update = oc.columns(['leaderboard_id', 'period_start', 'player_key']).doUpdateSet((eb) => ({
      score: eb.ref('excluded.score'),
      timestamp: eb.ref('excluded.timestamp'),
      metadata: eb.ref('excluded.metadata'),
      engine: eb.ref('excluded.engine'),
      revision: eb(eb.ref('scores.revision'), '+', 1),
    }));
    if (!beats) return update;
    return update.where(({ eb, ref }) => eb(ref('excluded.score'), scoreBeats(beats), ref('scores.score')));
  };

/** How each way of saving meets the player's entry already in the period (keep: never). */
const conflicts = {
  keep: undefined,
  latest: replacing(),
  'highest asc': replacing('asc'),
  'highest desc': replacing('desc'),
  // The sum is computed by the database, so concurrent increments all count.
  accumulator: ((oc) =>
    oc.columns(['leaderboard_id', 'period_start', 'player_key']).doUpdateSet((eb) => ({
      score: clampedScore(sql`scores.score + excluded.score`),
      timestamp: eb.ref('excluded.timestamp'),
      metadata: eb.fn.coalesce('excluded.metadata', 'scores.metadata'),
      engine: eb.ref('excluded.engine'),
      revision: eb(eb.ref('scores.revision'), '+', 1),
    }))) as OnConflict,
};
type SaveWay = keyof typeof conflicts;

const eachWay = <T>(make: (conflict?: OnConflict) => T) =>
  Object.fromEntries(Object.entries(conflicts).map(([way, conflict]) => [way, make(conflict)])) as Record<SaveWay, T>;

const entrySaves = eachWay(entrySave);
const heldEntrySaves = eachWay(heldEntrySave);

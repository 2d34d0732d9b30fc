import type { InsertOption, SortOrder } from '@howl/contract';
import type { InsertQueryBuilder, InsertResult, Kysely } from 'kysely';
import { prepared } from '../../db/prepared.js';
import type { DB } from '../../db/schema.js';
import { scoreBeats } from '../ranking/order.js';
import { SHOWN_COLUMNS } from '../ranking/rank-index.js';
import type { ScoreRow } from './leaderboards.table.js';
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
  const save = entrySaves[mode === 'highest' ? (`highest ${sort}` as const) : mode];
  const rows = await save(db, ...args);
  return new Map(rows.map((row) => [row.player_key, row]));
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
    const insert = db.insertInto('scores').values(rows);
    return (conflict ? insert.onConflict(conflict) : insert).returning(SCORE_COLUMNS);
  });
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

const entrySaves = {
  keep: entrySave(),
  latest: entrySave(replacing()),
  'highest asc': entrySave(replacing('asc')),
  'highest desc': entrySave(replacing('desc')),
  // The sum is computed by the database, so concurrent increments all count.
  accumulator: entrySave((oc) =>
    oc.columns(['leaderboard_id', 'period_start', 'player_key']).doUpdateSet((eb) => ({
      score: eb(eb.ref('scores.score'), '+', eb.ref('excluded.score')),
      timestamp: eb.ref('excluded.timestamp'),
      metadata: eb.fn.coalesce('excluded.metadata', 'scores.metadata'),
      engine: eb.ref('excluded.engine'),
      revision: eb(eb.ref('scores.revision'), '+', 1),
    })),
  ),
};

import type { InsertOption, SortOrder } from '@howl/contract';
import type { InsertQueryBuilder, InsertResult, Kysely } from 'kysely';
import { prepared } from '../../db/prepared.js';
import type { DB } from '../../db/schema.js';
import { scoreBeats } from '../ranking/order.js';
import { SHOWN_COLUMNS } from '../ranking/rank-index.js';
import type { ScoreRow } from './leaderboards.table.js';
import type { NewEntry } from './store.js';

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
  const { id, leaderboard_id, period_start, player_name, score, timestamp, metadata, engine } = entry;
  const playerKey = mode === 'keep' ? id : player_name;
  const save = entrySaves[mode === 'highest' ? (`highest ${sort}` as const) : mode];
  const [row] = await save(
    db,
    id,
    leaderboard_id,
    period_start,
    player_name,
    playerKey,
    score,
    timestamp,
    metadata,
    engine,
  );
  return row;
}

/** Every column of a score, named (a prepared statement must not say `*`). */
const SCORE_COLUMNS = [...SHOWN_COLUMNS, 'player_key'] as const satisfies readonly (keyof ScoreRow)[];

/** How a save meets the player's entry already in the period (every mode but keep). */
type OnConflict = Parameters<InsertQueryBuilder<DB, 'scores', InsertResult>['onConflict']>[0];

/**
 * The one statement of each way to save (see saveEntry), compiled once: a submit runs it for every
 * score, and on PostgreSQL the server plans it once per connection.
 */
function entrySave(conflict?: OnConflict) {
  return prepared((db, id, boardId, periodStart, playerName, playerKey, score, timestamp, metadata, engine) => {
    const insert = db.insertInto('scores').values({
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

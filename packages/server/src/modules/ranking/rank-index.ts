import type { SortOrder } from '@howl/contract';
import { sql, type Kysely, type SelectQueryBuilder } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { ScoreRow } from '../leaderboards/leaderboards.table.js';
import { orderColumns, ranksAbove, ranksBelow, type OrderKey } from '../leaderboards/order.js';

/** One board's period: the unit a rank index orders. */
export interface BoardPeriod {
  boardId: string;
  periodStart: number;
  sort: SortOrder;
}

/** An entry as an index orders it; `revision` tells a newer state of the same entry from an older one. */
export interface IndexedEntry extends OrderKey {
  revision: number;
}

/**
 * Positions, neighbours and pages of one board period, in the board's total order. The database
 * stays the truth: the service tells the index about every write once it is committed, and an
 * index may answer from its own structure as long as it agrees with SQL. The SQL implementation
 * below is the reference every other one is tested against.
 */
export interface RankIndex {
  /** Entries that rank strictly below `after` (from the top when absent), best first, at most `limit`. */
  page(board: BoardPeriod, after: OrderKey | undefined, limit: number): Promise<ScoreRow[]>;
  /** Entries that rank strictly above `key`, nearest first, at most `limit`. */
  above(board: BoardPeriod, key: OrderKey, limit: number): Promise<ScoreRow[]>;
  /** How many entries rank strictly above `key`. */
  countAbove(board: BoardPeriod, key: OrderKey): Promise<number>;
  /** Ids of the entries past the first `keep`: what trimming the period to `keep` entries deletes. */
  overflow(board: BoardPeriod, keep: number): Promise<string[]>;

  /** An entry was saved or updated (its state after the write). */
  saved(board: BoardPeriod, entry: IndexedEntry): Promise<void>;
  /** Entries were deleted (by id, from any period of the board). */
  removed(boardId: string, entries: Array<OrderKey & { period_start: number }>): Promise<void>;
  /** Anything may have changed on the board (a wipe, a trim of every period, new settings, deletion). */
  reset(boardId: string): Promise<void>;
}

/** The reference: SQL over the scores table, ordered by the `scores_rank` index. Needs no upkeep. */
export function sqlRankIndex(db: Kysely<DB>): RankIndex {
  const period = (board: BoardPeriod) =>
    db.selectFrom('scores').where('leaderboard_id', '=', board.boardId).where('period_start', '=', board.periodStart);

  function ordered<O>(q: SelectQueryBuilder<DB, 'scores', O>, sort: SortOrder, reverse = false) {
    for (const [column, direction] of orderColumns(sort, reverse)) q = q.orderBy(column, direction);
    return q;
  }

  return {
    async page(board, after, limit) {
      let q = period(board).selectAll();
      if (after) q = q.where((eb) => ranksBelow(eb, after, board.sort));
      return ordered(q, board.sort).limit(limit).execute();
    },
    async above(board, key, limit) {
      const q = period(board)
        .selectAll()
        .where((eb) => ranksAbove(eb, key, board.sort));
      return ordered(q, board.sort, true).limit(limit).execute();
    },
    async countAbove(board, key) {
      const row = await period(board)
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where((eb) => ranksAbove(eb, key, board.sort))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    async overflow(board, keep) {
      // The reference numbers every entry of the period; the other indexes read the tail off their structure.
      const { rows } = await sql<{ id: string }>`select id from (
          select id, row_number() over (order by score ${sql.raw(board.sort)}, timestamp asc, player_name asc, id asc) as place
          from scores where leaderboard_id = ${board.boardId} and period_start = ${board.periodStart}) as ranked
        where place > ${keep} order by place`.execute(db);
      return rows.map((r) => r.id);
    },
    saved: async () => {},
    removed: async () => {},
    reset: async () => {},
  };
}

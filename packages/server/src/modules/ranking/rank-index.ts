import type { SortOrder } from '@howl/contract';
import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { DB } from '../../db/schema.js';
import type { ScoreRow } from '../leaderboards/leaderboards.table.js';
import { orderColumns, ranksAbove, ranksBelow, type OrderKey } from '../leaderboards/order.js';

/** One board's period: the unit a rank index orders. */
export interface BoardPeriod {
  boardId: string;
  periodStart: number;
  sort: SortOrder;
}

/**
 * Positions, neighbours and pages of one board period, in the board's total order. The database
 * stays the truth; an index may answer from its own structure as long as it agrees with it. The
 * SQL implementation below is the reference every other one is tested against.
 */
export interface RankIndex {
  /** Entries that rank strictly below `after` (from the top when absent), best first, at most `limit`. */
  page(board: BoardPeriod, after: OrderKey | undefined, limit: number): Promise<ScoreRow[]>;
  /** Entries that rank strictly above `key`, nearest first, at most `limit`. */
  above(board: BoardPeriod, key: OrderKey, limit: number): Promise<ScoreRow[]>;
  /** How many entries rank strictly above `key`. */
  countAbove(board: BoardPeriod, key: OrderKey): Promise<number>;
}

/** The reference: SQL over the scores table, ordered by the `scores_rank` index. */
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
  };
}

import type { SortOrder } from '@howl/contract';
import {
  sql,
  type ExpressionBuilder,
  type Expression,
  type RawBuilder,
  type SelectQueryBuilder,
  type SqlBool,
} from 'kysely';
import type { DB } from '../../db/schema.js';

/** Where an entry stands: every query orders by exactly these four, so ranks never disagree. */
export interface OrderKey {
  score: number;
  timestamp: number;
  player_name: string;
  id: string;
}

/** Past every code point a name or id holds. */
const LAST = '\u{10FFFF}';

/** A value not yet submitted ranks after every entry with its score: the latest time, then a name and id that sort last. */
export function followsTies(key: OrderKey): boolean {
  return key.timestamp === Number.MAX_SAFE_INTEGER && key.player_name === LAST && key.id === LAST;
}

/** Code point order, as SQLite's BINARY and PostgreSQL's "C" collation compare UTF-8 text. */
function byCodePoint(a: string, b: string): number {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return Buffer.compare(x, y);
}

/**
 * The board's total order: score (higher first on `desc` boards, lower first on `asc`), then the
 * earlier timestamp, then player name by code point, then score id. Negative: `a` ranks above `b`.
 */
export function compareEntries(a: OrderKey, b: OrderKey, sort: SortOrder): number {
  if (a.score !== b.score) return sort === 'desc' ? b.score - a.score : a.score - b.score;
  if (a.timestamp !== b.timestamp) return a.timestamp - b.timestamp;
  const names = byCodePoint(a.player_name, b.player_name);
  if (names !== 0) return names;
  return byCodePoint(a.id, b.id);
}

/** The SQL comparison by which one score beats another on this board (higher on `desc`, lower on `asc`). */
export function scoreBeats(sort: SortOrder): '>' | '<' {
  return sort === 'desc' ? '>' : '<';
}

/** SQL: the entry ranks strictly above `key`. */
export function ranksAbove(eb: ExpressionBuilder<DB, 'scores'>, key: OrderKey, sort: SortOrder): Expression<SqlBool> {
  return beyond(eb, key, scoreBeats(sort), '<');
}

/** SQL: the entry ranks strictly below `key`. */
export function ranksBelow(eb: ExpressionBuilder<DB, 'scores'>, key: OrderKey, sort: SortOrder): Expression<SqlBool> {
  return beyond(eb, key, sort === 'desc' ? '<' : '>', '>');
}

function beyond(
  eb: ExpressionBuilder<DB, 'scores'>,
  key: OrderKey,
  scoreOp: '<' | '>',
  restOp: '<' | '>',
): Expression<SqlBool> {
  return eb.or([
    eb('score', scoreOp, key.score),
    eb.and([eb('score', '=', key.score), eb('timestamp', restOp, key.timestamp)]),
    eb.and([
      eb('score', '=', key.score),
      eb('timestamp', '=', key.timestamp),
      eb('player_name', restOp, key.player_name),
    ]),
    eb.and([
      eb('score', '=', key.score),
      eb('timestamp', '=', key.timestamp),
      eb('player_name', '=', key.player_name),
      eb('id', restOp, key.id),
    ]),
  ]);
}

/** The board's order as columns and directions (`reverse` walks it from the bottom up). */
function orderColumns(sort: SortOrder, reverse = false) {
  const up = reverse ? 'desc' : 'asc';
  const down = reverse ? 'asc' : 'desc';
  return [
    ['score', sort === 'desc' ? down : up],
    ['timestamp', up],
    ['player_name', up],
    ['id', up],
  ] as const;
}

/** ORDER BY the board's order on a query over `scores` (`reverse` walks it from the bottom up). */
export function inBoardOrder<O>(q: SelectQueryBuilder<DB, 'scores', O>, sort: SortOrder, reverse = false) {
  for (const [column, direction] of orderColumns(sort, reverse)) q = q.orderBy(column, direction);
  return q;
}

/** The board's order as SQL text, for a window function's `order by` (built from fixed words only, never input). */
export function boardOrderSql(sort: SortOrder): RawBuilder<unknown> {
  return sql.raw(
    orderColumns(sort)
      .map(([column, direction]) => `${column} ${direction}`)
      .join(', '),
  );
}

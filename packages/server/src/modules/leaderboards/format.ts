import type { Leaderboard, ScoreEntry } from '@howl/contract';
import { leaderboardErrors as E } from './errors.js';
import type { LeaderboardRow } from './leaderboards.table.js';
import type { OrderKey } from '../ranking/order.js';
import type { Period } from './periods.js';
import type { BoardPeriod, ShownRow } from '../ranking/rank-index.js';

/** How boards, entries, periods and cursors look in API answers. */
export function toLeaderboard(b: LeaderboardRow): Leaderboard {
  return {
    name: b.name,
    display_name: b.display_name,
    insert_option: b.insert_option,
    time_based: b.time_based,
    timezone: b.timezone,
    max_entries: b.max_entries,
    sort: b.sort,
    created_at: new Date(b.created_at).toISOString(),
  };
}

export function toEntry(row: ShownRow, position: number): ScoreEntry {
  return {
    score_id: row.id,
    player_name: row.player_name,
    score: row.score,
    timestamp: row.timestamp,
    metadata: row.metadata === null ? null : (JSON.parse(row.metadata) as Record<string, unknown>),
    position,
    engine: row.engine === 3 || row.engine === 4 ? row.engine : null,
  };
}

export function toPeriod(p: Period | null) {
  if (!p) return null;
  const iso = (ms: number) => new Date(ms).toISOString();
  return { offset: p.offset, start: iso(p.start), end: iso(p.end), next_reset: iso(p.nextReset) };
}

// A cursor names the last entry shown, its position, and the board period it belongs to.
export function encodeCursor(at: BoardPeriod, last: ShownRow, position: number): string {
  const payload = [at.boardId, at.periodStart, last.score, last.timestamp, last.player_name, last.id, position];
  return Buffer.from(JSON.stringify(payload)).toString('base64url');
}

export function decodeCursor(cursor: string, at: BoardPeriod): { key: OrderKey; position: number } {
  try {
    const [boardId, periodStart, score, timestamp, player_name, id, position] = JSON.parse(
      Buffer.from(cursor, 'base64url').toString('utf8'),
    ) as unknown[];
    if (
      boardId === at.boardId &&
      periodStart === at.periodStart &&
      typeof score === 'number' &&
      typeof timestamp === 'number' &&
      typeof player_name === 'string' &&
      typeof id === 'string' &&
      typeof position === 'number' &&
      Number.isInteger(position) &&
      position >= 0
    ) {
      return { key: { score, timestamp, player_name, id }, position };
    }
  } catch {
    // fall through
  }
  throw E.badCursor();
}

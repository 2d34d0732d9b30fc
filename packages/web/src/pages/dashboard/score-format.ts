import type { LeaderboardWithStats as Board } from '@howl/contract';
import { truncate } from '../../lib/text.js';

export const SAVE_MODE_LABELS: Record<Board['insert_option'], string> = {
  keep: 'All (keep)',
  highest: 'Highest',
  latest: 'Latest',
  accumulator: 'Accumulator',
};

/** The engines a board's scores came from: 3, 4, both, or '-' when it has none. */
export function engineText(engine: Board['engine']): string {
  return engine === 'both' ? '3 and 4' : engine;
}

export function resetText(period: Board['time_based']): string {
  return period === 'na' ? 'Never' : period[0]!.toUpperCase() + period.slice(1);
}

export function periodLabel(offset: number): string {
  if (offset === 0) return 'Current period';
  if (offset === -1) return 'Previous period';
  return `${-offset} periods ago`;
}

/** Metadata as key/value rows, nested objects flattened with dots, values cut to 20 characters. */
export function metadataRows(metadata: Record<string, unknown> | null, prefix = ''): [string, string][] {
  if (!metadata) return [];
  return Object.entries(metadata).flatMap(([k, v]): [string, string][] =>
    v !== null && typeof v === 'object'
      ? metadataRows(v as Record<string, unknown>, `${prefix}${k}.`)
      : [[`${prefix}${k}`, truncate(String(v), 20)]],
  );
}

/** Which scores rank first: a race board (asc) puts the lowest time on top. */
export function orderText(sort: Board['sort']): string {
  return sort === 'asc' ? 'Lower first' : 'Higher first';
}

/** The current period's entries, and the board's size ("3 of 10", "3, no limit"). */
export function entriesText(board: Pick<Board, 'entry_count' | 'max_entries'>): string {
  return board.max_entries === null ? `${board.entry_count}, no limit` : `${board.entry_count} of ${board.max_entries}`;
}

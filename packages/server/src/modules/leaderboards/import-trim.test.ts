import { describe, expect, it } from 'vitest';
import { bestOfEachPeriod } from './import.js';

const row = (id: string, period_start: number, score: number, timestamp = 1) => ({
  id,
  leaderboard_id: 'b',
  period_start,
  player_name: `p-${id}`,
  score,
  timestamp,
  metadata: null,
  engine: null,
});

describe('an import into a board that keeps max_entries per period', () => {
  const file = [
    row('a', 0, 5),
    row('b', 0, 9),
    row('c', 0, 7),
    row('d', 0, 7, 0),
    row('e', 3600, 1),
    row('f', 3600, 2),
  ];
  const ids = (rows: Array<{ id: string }>) => rows.map((r) => r.id).sort();

  it('writes only the best max_entries of each period, in the board order (ties: the earlier first)', () => {
    expect(ids(bestOfEachPeriod(file, { max_entries: 2, sort: 'desc' }))).toEqual(['b', 'd', 'e', 'f']);
    expect(ids(bestOfEachPeriod(file, { max_entries: 1, sort: 'asc' }))).toEqual(['a', 'e']);
  });

  it('writes every score of an unlimited board', () => {
    expect(bestOfEachPeriod(file, { max_entries: null, sort: 'desc' })).toHaveLength(file.length);
  });

  it('reduces a file of 200,000 scores for a board of 10 to 10 rows', () => {
    const many = Array.from({ length: 200_000 }, (_, i) => row(String(i), 0, i));
    const kept = bestOfEachPeriod(many, { max_entries: 10, sort: 'desc' });
    expect(kept.map((r) => r.score)).toEqual(Array.from({ length: 10 }, (_, i) => 199_999 - i));
  });
});

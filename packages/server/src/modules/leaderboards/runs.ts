import type { LeaderboardRow } from './leaderboards.table.js';

/**
 * A group of submissions in runs, in arrival order: a run ends where a player (on a board that
 * keeps one entry each) or a client's id comes again, and after every save when `alone`. A run's
 * saves can go in one statement; a group that is one run can be that statement alone.
 */
export function runsOf<S extends { player_name: string; wanted?: string | undefined }>(
  board: Pick<LeaderboardRow, 'insert_option'>,
  group: readonly S[],
  alone: boolean,
): S[][] {
  const runs: S[][] = [];
  let run: S[] = [];
  const players = new Set<string>();
  const wanted = new Set<string>();
  for (const s of group) {
    const player = board.insert_option === 'keep' ? undefined : s.player_name;
    if (alone || (player !== undefined && players.has(player)) || (s.wanted !== undefined && wanted.has(s.wanted))) {
      if (run.length > 0) runs.push(run);
      run = [];
      players.clear();
      wanted.clear();
    }
    run.push(s);
    if (player !== undefined) players.add(player);
    if (s.wanted !== undefined) wanted.add(s.wanted);
  }
  if (run.length > 0) runs.push(run);
  return runs;
}

import type { DeveloperSession } from '@howl/contract';

export type GameSummary = DeveloperSession['games'][number];

/** A signed-in developer who has no game yet. */
export const developer: DeveloperSession = {
  email: 'dev@example.com',
  firstName: 'A',
  lastName: 'Developer',
  company: null,
  games: [],
  current_game_id: null,
};

/** One game of the developer's list. */
export const game = (game_id: string, name: string, created_at = '2026-11-23T00:00:00.000Z'): GameSummary => ({
  game_id,
  name,
  created_at,
});

/** The developer with these games, the first one current. */
export const withGames = (...games: GameSummary[]): DeveloperSession => ({
  ...developer,
  games,
  current_game_id: games[0]?.game_id ?? null,
});

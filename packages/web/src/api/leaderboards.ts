import { leaderboard, leaderboardsResponse, type Leaderboard, type UpdateLeaderboardBody } from '@howl/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client.js';

/**
 * Query keys of the leaderboards, by layer: every game's, then one game's. Invalidate a prefix to
 * refresh everything under it (the dashboard's Scores page reads the same list).
 *
 * @example client.invalidateQueries({ queryKey: leaderboardKeys.forGame(gameId) })
 */
export const leaderboardKeys = {
  all: ['leaderboards'] as const,
  forGame: (gameId: string) => [...leaderboardKeys.all, gameId] as const,
};

/** The game's leaderboards, with engines and entry counts (GET /api/games/:gameId/leaderboards). */
export function useLeaderboards(gameId: string) {
  return useQuery({
    queryKey: leaderboardKeys.forGame(gameId),
    queryFn: async () => leaderboardsResponse.parse(await api('GET', `/api/games/${gameId}/leaderboards`)).leaderboards,
  });
}

/** A new board is created (POST); a saved one is updated by name (PUT), its name fixed. */
export type SaveLeaderboard =
  | { isNew: true; body: { name: string } & UpdateLeaderboardBody }
  | { isNew: false; name: string; body: UpdateLeaderboardBody };

/**
 * Saves one leaderboard's configuration and refreshes the game's list. Answers the board as the
 * server stored it (its display name falls back to the name when left empty).
 */
export function useSaveLeaderboard(gameId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (save: SaveLeaderboard): Promise<Leaderboard> =>
      leaderboard.parse(
        save.isNew
          ? await api('POST', `/api/games/${gameId}/leaderboards`, save.body)
          : await api('PUT', `/api/games/${gameId}/leaderboards/${encodeURIComponent(save.name)}`, save.body),
      ),
    onSuccess: () => client.invalidateQueries({ queryKey: leaderboardKeys.forGame(gameId) }),
  });
}
